package e2ee

import (
	"encoding/json"
	"errors"
	"testing"
)

var sentinels = []error{ErrMalformed, ErrUnsupportedVersion, ErrUnsupportedAlgorithm, ErrWrongPassphrase,
	ErrWrongKey, ErrAuthentication, ErrWeakKey, ErrNotEncrypted}

func typed(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// FuzzOpenPayload feeds mutated sealed payloads to both openers: never a
// panic, every error typed, every success valid JSON without `encryption`.
func FuzzOpenPayload(f *testing.F) {
	priv := rsaKey(f, 2048)
	pkey, ppriv := testPassphraseKey(f, testPassphrase)
	plain := samplePayload(f, 64)
	f.Add(sealWith(f, customSession(f, priv), plain))
	f.Add(sealWith(f, passphraseSession(f, pkey), plain))
	f.Add(plain)
	f.Add([]byte(`{"encryption":{"version":1,"mode":"custom"},"encryption_key":{}}`))
	f.Add([]byte(`{"encryption":{"version":1},"license_data":{"version":1,"alg":"A256GCM","iv":"","ciphertext":""}}`))
	// The passphrase opener uses the derived key directly: a mutated KDF
	// cost must not make each fuzz input run Argon2id at up to 1 GiB.
	passphrase := func(h Header) (*Session, error) {
		if h.Passphrase == nil {
			return nil, ErrUnsupportedAlgorithm
		}
		return OpenPassphraseSession(ppriv, h.Encryption, *h.Passphrase)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, open := range []Opener{CustomOpener(priv), passphrase} {
			out, err := OpenPayload(payload, open)
			if err != nil {
				if !typed(err) {
					t.Fatalf("untyped error: %v", err)
				}
				continue
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal(out, &obj) != nil {
				t.Fatalf("output is not a JSON object: %.200s", out)
			}
			if _, ok := obj["encryption"]; ok {
				t.Fatalf("output keeps encryption: %.200s", out)
			}
		}
	})
}

// FuzzParseRSAPublicKey: arbitrary PEM text never panics; accepted keys are
// within the size limits and fingerprint cleanly.
func FuzzParseRSAPublicKey(f *testing.F) {
	priv := rsaKey(f, 2048)
	f.Add([]byte(spkiPEM(f, &priv.PublicKey)))
	f.Add([]byte("-----BEGIN RSA PUBLIC KEY-----\nMAA=\n-----END RSA PUBLIC KEY-----\n"))
	f.Add([]byte("not pem"))
	f.Fuzz(func(t *testing.T, in []byte) {
		pub, err := ParseRSAPublicKey(in)
		if err != nil {
			if !typed(err) {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		if bits := pub.N.BitLen(); bits < MinRSABits || bits > MaxRSABits {
			t.Fatalf("accepted %d-bit key", bits)
		}
		if _, err := NewCustomKeyInfo(pub, "k"); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzPassphraseKeyJSON: the body the key upload endpoint will take. Decoding
// plus Validate never panics, errors are typed, and an accepted key can be
// sealed for.
func FuzzPassphraseKeyJSON(f *testing.F) {
	key, _ := testPassphraseKey(f, testPassphrase)
	good, err := json.Marshal(key)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"name":"k","public_key":"BA==","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"","memory_kib":0}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var k PassphraseKey
		if err := strictDecode(in, &k); err != nil {
			return
		}
		if err := k.Validate(); err != nil {
			if !typed(err) {
				t.Fatalf("untyped error: %v", err)
			}
			return
		}
		if _, err := NewPassphraseSession(k); err != nil {
			t.Fatalf("valid key %+v cannot be sealed for: %v", k, err)
		}
	})
}
