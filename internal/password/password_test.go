package password

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"
)

func TestHashVerifyRoundTrip(t *testing.T) {
	h, err := Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("unexpected encoding %q", h)
	}
	if ok, err := Verify(h, "correct horse battery staple"); !ok || err != nil {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, err := Verify(h, "correct horse battery stapLe"); ok || err != nil {
		t.Fatalf("wrong password: %v %v", ok, err)
	}
	h2, _ := Hash("correct horse battery staple")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt not random")
	}
}

// TestMatchesReferenceDerivation checks the encoding against argon2.IDKey
// computed independently from the stored salt and parameters.
func TestMatchesReferenceDerivation(t *testing.T) {
	h, err := Hash("pässwörd-ünïcode")
	if err != nil {
		t.Fatal(err)
	}
	p, salt, key, err := Parse(h)
	if err != nil {
		t.Fatal(err)
	}
	if p != Default {
		t.Fatalf("params %+v, want %+v", p, Default)
	}
	want := argon2.IDKey([]byte("pässwörd-ünïcode"), salt, 2, 19456, 1, 32)
	if hex.EncodeToString(key) != hex.EncodeToString(want) {
		t.Fatal("stored key differs from argon2id of the stored salt")
	}
}

func TestVerifyKeepsOlderParameters(t *testing.T) {
	old := Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 8, KeyLen: 16}
	h, err := hashWith(old, "an older password")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := Verify(h, "an older password"); !ok || err != nil {
		t.Fatalf("older params: %v %v", ok, err)
	}
}

func TestParseRefusesMalformed(t *testing.T) {
	good, _ := hashWith(Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, "x")
	parts := strings.Split(good, "$")
	cases := []string{
		"",
		"plaintext",
		"$argon2i$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=16$m=64,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$t=1,m=64,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=0,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=99999999,t=1,p=1$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=300$" + parts[4] + "$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$!!$" + parts[5],
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5] + "$extra",
		"$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$" + parts[5][:8],
	}
	for _, c := range cases {
		if _, _, _, err := Parse(c); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("Parse(%q) = %v", c, err)
		}
		if ok, err := Verify(c, "x"); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v", c, ok, err)
		}
	}
}

func TestValidatePolicy(t *testing.T) {
	if err := Validate("short"); !errors.Is(err, ErrTooShort) {
		t.Errorf("short: %v", err)
	}
	if err := Validate("ääääääää"); err != nil {
		t.Errorf("8 runes: %v", err)
	}
	if err := Validate(strings.Repeat("a", MaxLength+1)); !errors.Is(err, ErrTooLong) {
		t.Errorf("long: %v", err)
	}
}

func TestVerifyDummyUsesDefaultCost(t *testing.T) {
	p, _, _, err := Parse(dummy())
	if err != nil || p != Default {
		t.Fatalf("dummy hash params %+v, %v", p, err)
	}
	VerifyDummy("anything")
}

func FuzzParse(f *testing.F) {
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g")
	f.Add("$argon2id$v=19$m=,t=,p=$$")
	f.Add("$$$$$")
	f.Fuzz(func(t *testing.T, s string) {
		p, salt, key, err := Parse(s)
		if err != nil {
			return
		}
		if p.Memory > maxMemory || p.Time > maxTime || p.Threads == 0 || len(salt) == 0 || len(key) == 0 {
			t.Fatalf("accepted out-of-range %q: %+v", s, p)
		}
		// Re-encoding what was accepted gives a string that parses the same.
		p2, _, _, err := Parse(encode(p, salt, key))
		if err != nil || p2 != p {
			t.Fatalf("re-encode of %q: %+v %v", s, p2, err)
		}
	})
}
