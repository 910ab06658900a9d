package e2ee

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// RSA generation is slow (4096 bits takes seconds on a busy machine), so
// each size is generated once per test binary and shared.
var rsaKeys sync.Map // bits → func() (*rsa.PrivateKey, error)

func rsaKey(t testing.TB, bits int) *rsa.PrivateKey {
	t.Helper()
	gen, _ := rsaKeys.LoadOrStore(bits, sync.OnceValues(func() (*rsa.PrivateKey, error) {
		return rsa.GenerateKey(rand.Reader, bits)
	}))
	k, err := gen.(func() (*rsa.PrivateKey, error))()
	if err != nil {
		t.Fatalf("generate %d-bit RSA key: %v", bits, err)
	}
	return k
}

// A second 2048-bit key, for "wrong key" cases.
var otherRSA = sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) })

const testPassphrase = "correct horse battery staple"

// fastKDF keeps Argon2id cheap in tests; one test runs the defaults.
func fastKDF(t testing.TB) KDFParams {
	t.Helper()
	p, err := NewKDFParams(64, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func testPassphraseKey(t testing.TB, passphrase string) (PassphraseKey, *ecdh.PrivateKey) {
	t.Helper()
	p := fastKDF(t)
	priv, err := DerivePrivateKey([]byte(passphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	return PassphraseKey{ID: "5f0c2f3e-3b9e-4a53-9d5c-1f1f6f9b2a10", Name: "test key", PublicKey: priv.PublicKey().Bytes(), KDF: p}, priv
}

// samplePayload is a webhook body with every protected member present.
func samplePayload(t testing.TB, photoBytes int) []byte {
	t.Helper()
	photo := make([]byte, photoBytes)
	if _, err := rand.Read(photo); err != nil {
		t.Fatal(err)
	}
	p := map[string]any{
		"request_id":   "0b9d6a52-6f63-4d2e-9f3c-7d1d4c1e2a55",
		"verification": map[string]any{"over_18": true, "face_match_score": "likely_match"},
		"license_data": map[string]any{"first_names": "Jane Q", "last_name": "Doé", "dob": "1990-01-02"},
		"phone_verification": map[string]any{
			"phone_areacode": "555", "last_3_digits": "123", "phone_verified": true, "line_type": "mobile",
			"lookup": map[string]any{"phone_number": "+15555550123", "caller_name": "JANE DOE", "carrier_name": "Acme Mobile"},
		},
		"license_photo": base64.StdEncoding.EncodeToString(photo),
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %.200s: %v", b, err)
	}
	return m
}

func encode(t testing.TB, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// member returns the value at a dotted member path of a decoded payload.
func member(m map[string]any, path string) any {
	var cur any = m
	for _, p := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[p]
	}
	return cur
}

// sealWith seals samplePayload-like bytes in a session, failing the test on error.
func sealWith(t testing.TB, s *Session, payload []byte) []byte {
	t.Helper()
	out, err := s.SealPayload(payload)
	if err != nil {
		t.Fatalf("seal payload: %v", err)
	}
	return out
}

func customSession(t testing.TB, priv *rsa.PrivateKey) *Session {
	t.Helper()
	s, err := NewCustomSession(&priv.PublicKey, "ops team key")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func passphraseSession(t testing.TB, key PassphraseKey) *Session {
	t.Helper()
	s, err := NewPassphraseSession(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
