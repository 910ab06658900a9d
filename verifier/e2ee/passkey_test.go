package e2ee

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"
)

func TestDerivePrivateKeyDeterministic(t *testing.T) {
	p := fastKDF(t)
	a, err := DerivePrivateKey([]byte(testPassphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := DerivePrivateKey([]byte(testPassphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		t.Fatal("same passphrase and params gave different keys")
	}
	for name, q := range map[string]KDFParams{
		"other salt":        func() KDFParams { q := p; q.Salt = bytes.Repeat([]byte{7}, SaltSize); return q }(),
		"other memory":      func() KDFParams { q := p; q.MemoryKiB++; return q }(),
		"other iterations":  func() KDFParams { q := p; q.Iterations++; return q }(),
		"other parallelism": func() KDFParams { q := p; q.Parallelism++; q.MemoryKiB = 128; return q }(),
	} {
		c, err := DerivePrivateKey([]byte(testPassphrase), q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Equal(a) {
			t.Errorf("%s gave the same key", name)
		}
	}
}

// The documented rule, spelled out with the literal strings of
// docs/encryption.md: the key is HKDF candidate 0 of the Argon2id seed.
func TestScalarRuleMatchesDocumentedSteps(t *testing.T) {
	p := fastKDF(t)
	seed := argon2.IDKey([]byte(testPassphrase), p.Salt, p.Iterations, p.MemoryKiB, p.Parallelism, 32)
	want, err := hkdf.Key(sha256.New, seed, []byte("idgate/e2ee/v1/passphrase-key"), "P-256 private scalar \x00", 32)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DerivePrivateKey([]byte(testPassphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("derived scalar %x, candidate 0 %x", got.Bytes(), want)
	}
}

// Out-of-range candidates (0 and ≥ n) are skipped in order; a seed that
// yields them is astronomically rare, so the loop is driven directly.
func TestFirstScalarRejectsOutOfRange(t *testing.T) {
	n := []byte{0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51}
	nMinus1 := bytes.Clone(n)
	nMinus1[31]--
	candidates := [][]byte{make([]byte, 32), n, bytes.Repeat([]byte{0xff}, 32), nMinus1}
	var tried []byte
	k, err := firstScalar(func(i byte) ([]byte, error) {
		tried = append(tried, i)
		return candidates[i], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k.Bytes(), nMinus1) || !bytes.Equal(tried, []byte{0, 1, 2, 3}) {
		t.Fatalf("key %x after candidates %v, want n-1 after 0..3", k.Bytes(), tried)
	}
	if _, err := firstScalar(func(byte) ([]byte, error) { return n, nil }); !errors.Is(err, ErrMalformed) {
		t.Fatalf("all candidates out of range: %v", err)
	}
}

// The one test at the default (production) parameters.
func TestNewPassphraseKeyDefaults(t *testing.T) {
	p, err := DefaultKDFParams()
	if err != nil {
		t.Fatal(err)
	}
	if p.MemoryKiB != 65536 || p.Iterations != 3 || p.Parallelism != 1 || len(p.Salt) != 16 || p.Alg != AlgPassphrase {
		t.Fatalf("defaults = %+v", p)
	}
	key, priv, err := NewPassphraseKey("ops laptop", []byte(testPassphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := key.Validate(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(key.PublicKey, priv.PublicKey().Bytes()) || len(key.PublicKey) != 65 || key.PublicKey[0] != 4 {
		t.Fatalf("public key %x", key.PublicKey)
	}
	plain := samplePayload(t, 100)
	sealed := sealWith(t, passphraseSession(t, key), plain)
	// The returned private key opens it: no second Argon2id run.
	opened, err := OpenPayload(sealed, func(h Header) (*Session, error) {
		return OpenPassphraseSession(priv, h.Encryption, *h.Passphrase)
	})
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, plain, opened)
}

func TestNewPassphraseKeyRefusesWeakInput(t *testing.T) {
	weak := fastKDF(t)
	strong := weak
	strong.MemoryKiB, strong.Iterations = DefaultMemoryKiB, DefaultIterations
	for _, tc := range []struct {
		name, key, pass string
		p               KDFParams
		want            error
	}{
		{"short passphrase", "k", "elevenchars", strong, ErrWeakKey},
		{"cheap params", "k", testPassphrase, weak, ErrWeakKey},
		{"empty name", "", testPassphrase, strong, ErrMalformed},
		{"long name", strings.Repeat("n", MaxNameLen+1), testPassphrase, strong, ErrMalformed},
		{"control char in name", "a\nb", testPassphrase, strong, ErrMalformed},
	} {
		if _, _, err := NewPassphraseKey(tc.key, []byte(tc.pass), tc.p); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestKDFParamsValidate(t *testing.T) {
	good := fastKDF(t)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*KDFParams){
		"short salt":        func(p *KDFParams) { p.Salt = p.Salt[:8] },
		"zero iterations":   func(p *KDFParams) { p.Iterations = 0 },
		"too many passes":   func(p *KDFParams) { p.Iterations = MaxIterations + 1 },
		"zero parallelism":  func(p *KDFParams) { p.Parallelism = 0 },
		"memory below 8p":   func(p *KDFParams) { p.Parallelism = 4; p.MemoryKiB = 31 },
		"memory over 1 GiB": func(p *KDFParams) { p.MemoryKiB = MaxMemoryKiB + 1 },
		"wrong alg":         func(p *KDFParams) { p.Alg = "argon2i" },
		"too many lanes":    func(p *KDFParams) { p.Parallelism = MaxParallelism + 1; p.MemoryKiB = 1024 },
	} {
		p := good
		p.Salt = bytes.Clone(good.Salt)
		edit(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: accepted %+v", name, p)
		}
	}
}

func TestPassphraseKeyValidateRejectsOffCurvePoint(t *testing.T) {
	key, _ := testPassphraseKey(t, testPassphrase)
	key.PublicKey = bytes.Clone(key.PublicKey)
	key.PublicKey[64] ^= 1
	if err := key.Validate(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("off-curve point: %v", err)
	}
	if _, err := NewPassphraseSession(key); !errors.Is(err, ErrMalformed) {
		t.Fatalf("seal for off-curve point: %v", err)
	}
}
