package postgres_test

import (
	"context"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/storetest"
)

func TestWebhooks(t *testing.T) {
	storetest.RunWebhooks(t, func(t *testing.T) func(t *testing.T) storetest.WebhookStore {
		url := testkit.PostgresURL(t)
		return func(t *testing.T) storetest.WebhookStore {
			s := open(t, url)
			if err := s.Migrate(context.Background()); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			return s
		}
	})
}
