package webhook

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"testing"
	"time"
)

func TestRotateAndKeySource(t *testing.T) {
	server := bytes.Repeat([]byte{1}, 32)
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
	src := KeySource{ServerKey: server, Now: func() time.Time { return now },
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
	if _, err := src.SigningSecrets(context.Background(), "acct-2"); !errors.Is(err, ErrSealed) {
		t.Fatalf("cross-account keys: %v", err)
	}
}

func TestParseServerKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xfb}, 32) // bytes that differ between the std and URL alphabets
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		got, err := ParseServerKey(" " + enc.EncodeToString(key) + "\n")
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("%v: %x, %v", enc, got, err)
		}
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString(key[:16])} {
		if _, err := ParseServerKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
