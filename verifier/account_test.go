package verifier_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

func TestNewAccount(t *testing.T) {
	a, err := verifier.NewAccount("  Owner@Example.COM ", "long enough password", authEpoch.Add(123*time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	if a.Email != "owner@example.com" || a.ID == "" || !strings.HasPrefix(a.PasswordHash, "$argon2id$") || !a.CreatedAt.Equal(authEpoch) {
		t.Fatalf("%+v", a)
	}
	_, err = verifier.NewAccount("Name <x@example.com>", "short", authEpoch)
	var ve *verifier.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[0].Code != "invalid_email" || ve.Fields[1].Code != "too_short" {
		t.Fatalf("got %v", err)
	}
}
