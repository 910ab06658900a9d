package proxy

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/internal/seal"
)

func TestRefRoundTripAndBinding(t *testing.T) {
	s := seal.Ephemeral()
	sh := Shopper{CartID: "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01", CustomerID: 1 << 40}
	ref, err := SealRef(s, "storea", sh)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != 73 {
		t.Fatalf("reference is %d characters, documented 73", len(ref))
	}
	if got, err := OpenRef(s, "storea", ref); err != nil || got != sh {
		t.Fatalf("OpenRef = %+v, %v", got, err)
	}
	if _, err := OpenRef(s, "storeb", ref); !errors.Is(err, seal.ErrOpen) {
		t.Fatalf("reference opened for another store: %v", err)
	}
	if _, err := SealRef(s, "storea", Shopper{CartID: "nope"}); err == nil {
		t.Fatal("sealed a non-UUID cart")
	}
	// A value sealed for another purpose is not a reference.
	if _, err := OpenRef(s, "storea", s.Seal(make([]byte, 24), "storea/access_token")); !errors.Is(err, seal.ErrOpen) {
		t.Fatalf("token ciphertext accepted as reference: %v", err)
	}
}

func FuzzOpenRef(f *testing.F) {
	s := seal.Ephemeral()
	ref, _ := SealRef(s, "h", Shopper{CartID: "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01"})
	f.Add(ref)
	f.Add("v1.")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		sh, err := OpenRef(s, "h", text)
		if err == nil && text != ref {
			t.Fatalf("forged reference %q opened to %+v", text, sh)
		}
	})
}
