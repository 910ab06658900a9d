package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/verifier/storetest"
)

func TestWebhooks(t *testing.T) {
	storetest.RunWebhooks(t, func(t *testing.T) func(t *testing.T) storetest.WebhookStore {
		path := filepath.Join(t.TempDir(), "idgate.db")
		return func(t *testing.T) storetest.WebhookStore {
			s := open(t, path)
			if err := s.Migrate(context.Background()); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			return s
		}
	})
}
