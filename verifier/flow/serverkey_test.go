package flow_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier/flow"
)

func TestSealWith(t *testing.T) {
	s, err := seal.New(bytes.Repeat([]byte{3}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	sealer := flow.SealWith(s)
	sealed, err := sealer.Seal([]byte("session"), "flow/v1")
	if err != nil || bytes.Contains(sealed, []byte("session")) {
		t.Fatalf("Seal = %q, %v", sealed, err)
	}
	if got, err := sealer.Open(sealed, "flow/v1"); err != nil || string(got) != "session" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	if _, err := sealer.Open(sealed, "flow/v2"); !errors.Is(err, seal.ErrOpen) {
		t.Fatalf("opened under another verification's context: %v", err)
	}
}
