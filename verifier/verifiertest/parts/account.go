package parts

import (
	"context"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// Account creates an account with this password directly in the store,
// created at now.
func Account(t testing.TB, store verifier.Store, email, password string, now time.Time) verifier.Account {
	t.Helper()
	a, err := verifier.NewAccount(email, password, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a
}
