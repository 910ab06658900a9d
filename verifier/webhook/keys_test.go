package webhook

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/seal"
)

func TestRotateAndKeySource(t *testing.T) {
	server, err := seal.New(bytes.Repeat([]byte{1}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	first, s1, err := Rotate(server, "acct", SigningKeys{}, t0)
	if err != nil || first.Previous != "" || first.Current == "" {
		t.Fatalf("first: %+v, %v", first, err)
	}
	second, s2, err := Rotate(server, "acct", first, t0.Add(time.Hour))
	if err != nil || second.Previous != first.Current || !second.PreviousUntil.Equal(t0.Add(time.Hour+RotationGrace)) || s1 == s2 {
		t.Fatalf("second: %+v, %v", second, err)
	}

	now := t0.Add(time.Hour)
	src := KeySource{Sealer: server, Now: func() time.Time { return now },
		Lookup: func(_ context.Context, id string) (SigningKeys, error) {
			if id != "acct" {
				return SigningKeys{}, errors.New("no such account")
			}
			return second, nil
		}}
	got, err := src.SigningSecrets(context.Background(), "acct")
	if err != nil || len(got) != 2 || string(got[0]) != s2 || string(got[1]) != s1 {
		t.Fatalf("during grace: %q, %v; want [new old]", got, err)
	}
	now = second.PreviousUntil
	got, err = src.SigningSecrets(context.Background(), "acct")
	if err != nil || len(got) != 1 || string(got[0]) != s2 {
		t.Fatalf("after grace: %q, %v; want [new]", got, err)
	}
	if _, err := src.SigningSecrets(context.Background(), "other"); err == nil {
		t.Fatal("lookup error swallowed")
	}
	// Keys sealed for one account do not open for another.
	src.Lookup = func(context.Context, string) (SigningKeys, error) { return second, nil }
	if _, err := src.SigningSecrets(context.Background(), "acct-2"); !errors.Is(err, seal.ErrOpen) {
		t.Fatalf("cross-account keys: %v", err)
	}
}
