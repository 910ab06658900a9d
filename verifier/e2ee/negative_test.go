package e2ee

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// tamper rewrites one base64 field of a decoded payload.
func tamper(t *testing.T, m map[string]any, path string, fn func([]byte) []byte) {
	t.Helper()
	parts := strings.Split(path, ".")
	obj := member(m, strings.Join(parts[:len(parts)-1], ".")).(map[string]any)
	last := parts[len(parts)-1]
	b, err := base64.StdEncoding.DecodeString(obj[last].(string))
	if err != nil {
		t.Fatal(err)
	}
	obj[last] = base64.StdEncoding.EncodeToString(fn(b))
}

func flipFirst(b []byte) []byte { b[0] ^= 1; return b }

func TestOpenRejects(t *testing.T) {
	priv := rsaKey(t, 2048)
	other, err := otherRSA()
	if err != nil {
		t.Fatal(err)
	}
	pkey, _ := testPassphraseKey(t, testPassphrase)
	plain := samplePayload(t, 500)
	custom := sealWith(t, customSession(t, priv), plain)
	pass := sealWith(t, passphraseSession(t, pkey), plain)

	cases := []struct {
		name   string
		sealed []byte
		edit   func(m map[string]any)
		open   Opener
		want   error
	}{
		{"wrong passphrase", pass, nil, PassphraseOpener([]byte("incorrect horse battery staple")), ErrWrongPassphrase},
		{"empty passphrase", pass, nil, PassphraseOpener(nil), ErrWrongPassphrase},
		{"wrong private key", custom, nil, CustomOpener(other), ErrWrongKey},
		{"passphrase for custom payload", custom, nil, PassphraseOpener([]byte(testPassphrase)), ErrUnsupportedAlgorithm},
		{"private key for passphrase payload", pass, nil, CustomOpener(priv), ErrUnsupportedAlgorithm},
		{"fingerprint edited to match another key", custom, func(m map[string]any) {
			fp, _ := FingerprintSHA256(&other.PublicKey)
			m["encryption_key"].(map[string]any)["fingerprint_sha256"] = fp
		}, CustomOpener(other), ErrAuthentication},
		{"tampered license_data ciphertext", custom, func(m map[string]any) {
			tamper(t, m, "license_data.ciphertext", flipFirst)
		}, CustomOpener(priv), ErrAuthentication},
		{"tampered lookup tag", pass, func(m map[string]any) {
			tamper(t, m, "phone_verification.lookup.ciphertext", func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b })
		}, PassphraseOpener([]byte(testPassphrase)), ErrAuthentication},
		{"tampered nonce", custom, func(m map[string]any) {
			tamper(t, m, "license_photo.iv", flipFirst)
		}, CustomOpener(priv), ErrAuthentication},
		{"tampered wrapped key", custom, func(m map[string]any) {
			tamper(t, m, "encryption.wrapped_key", flipFirst)
		}, CustomOpener(priv), ErrAuthentication},
		{"tampered ephemeral key", pass, func(m map[string]any) {
			tamper(t, m, "encryption_key.ephemeral_public_key", func(b []byte) []byte { b[64] ^= 1; return b })
		}, PassphraseOpener([]byte(testPassphrase)), ErrMalformed},
		{"members swapped (associated data)", custom, func(m map[string]any) {
			m["license_data"], m["license_photo"] = m["license_photo"], m["license_data"]
		}, CustomOpener(priv), ErrAuthentication},
		{"lookup moved to license_data", pass, func(m map[string]any) {
			m["license_data"] = member(m, "phone_verification.lookup")
		}, PassphraseOpener([]byte(testPassphrase)), ErrAuthentication},
		{"ciphertext truncated by one byte", custom, func(m map[string]any) {
			tamper(t, m, "license_data.ciphertext", func(b []byte) []byte { return b[:len(b)-1] })
		}, CustomOpener(priv), ErrAuthentication},
		{"ciphertext shorter than the tag", custom, func(m map[string]any) {
			tamper(t, m, "license_data.ciphertext", func(b []byte) []byte { return b[:15] })
		}, CustomOpener(priv), ErrMalformed},
		{"nonce truncated", custom, func(m map[string]any) {
			tamper(t, m, "license_data.iv", func(b []byte) []byte { return b[:11] })
		}, CustomOpener(priv), ErrMalformed},
		{"wrapped key truncated", custom, func(m map[string]any) {
			tamper(t, m, "encryption.wrapped_key", func(b []byte) []byte { return b[:200] })
		}, CustomOpener(priv), ErrMalformed},
		{"ephemeral key truncated", pass, func(m map[string]any) {
			tamper(t, m, "encryption_key.ephemeral_public_key", func(b []byte) []byte { return b[:33] })
		}, PassphraseOpener([]byte(testPassphrase)), ErrMalformed},
		{"envelope member missing", custom, func(m map[string]any) {
			delete(m["license_data"].(map[string]any), "iv")
		}, CustomOpener(priv), ErrMalformed},
		{"member left in plaintext", custom, func(m map[string]any) {
			m["license_data"] = map[string]any{"first_names": "Jane"}
		}, CustomOpener(priv), ErrMalformed},
		{"member is a string", custom, func(m map[string]any) {
			m["license_photo"] = "aGVsbG8="
		}, CustomOpener(priv), ErrMalformed},
		{"bad base64", custom, func(m map[string]any) {
			m["license_data"].(map[string]any)["ciphertext"] = "!!not base64!!"
		}, CustomOpener(priv), ErrMalformed},
		{"encryption_key missing", custom, func(m map[string]any) {
			delete(m, "encryption_key")
		}, CustomOpener(priv), ErrMalformed},
		{"unknown encryption member", custom, func(m map[string]any) {
			m["encryption"].(map[string]any)["compression"] = "zstd"
		}, CustomOpener(priv), ErrMalformed},
		{"unknown envelope member", custom, func(m map[string]any) {
			m["license_data"].(map[string]any)["zip"] = true
		}, CustomOpener(priv), ErrMalformed},
		{"unknown member in a newer envelope", custom, func(m map[string]any) {
			m["license_data"].(map[string]any)["zip"] = true
			m["license_data"].(map[string]any)["version"] = 2
		}, CustomOpener(priv), ErrUnsupportedVersion},
		{"wrong content_alg", custom, func(m map[string]any) {
			m["encryption"].(map[string]any)["content_alg"] = "A128GCM"
		}, CustomOpener(priv), ErrUnsupportedAlgorithm},
		{"wrong key_alg", custom, func(m map[string]any) {
			m["encryption"].(map[string]any)["key_alg"] = "RSA1_5"
		}, CustomOpener(priv), ErrUnsupportedAlgorithm},
		{"wrong member alg", pass, func(m map[string]any) {
			m["license_photo"].(map[string]any)["alg"] = "ChaCha20-Poly1305"
		}, PassphraseOpener([]byte(testPassphrase)), ErrUnsupportedAlgorithm},
		{"unknown mode", custom, func(m map[string]any) {
			m["encryption"].(map[string]any)["mode"] = "shared"
		}, CustomOpener(priv), ErrUnsupportedAlgorithm},
		{"wrong KDF alg", pass, func(m map[string]any) {
			member(m, "encryption_key.kdf").(map[string]any)["alg"] = "scrypt"
		}, PassphraseOpener([]byte(testPassphrase)), ErrUnsupportedAlgorithm},
		{"hostile KDF memory", pass, func(m map[string]any) {
			member(m, "encryption_key.kdf").(map[string]any)["memory_kib"] = 1 << 30
		}, PassphraseOpener([]byte(testPassphrase)), ErrMalformed},
		{"unknown encryption version", custom, func(m map[string]any) {
			m["encryption"].(map[string]any)["version"] = 2
		}, CustomOpener(priv), ErrUnsupportedVersion},
		{"unknown member version", pass, func(m map[string]any) {
			m["license_data"].(map[string]any)["version"] = 2
		}, PassphraseOpener([]byte(testPassphrase)), ErrUnsupportedVersion},
		{"encryption removed", custom, func(m map[string]any) {
			delete(m, "encryption")
		}, CustomOpener(priv), ErrNotEncrypted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.sealed
			if tc.edit != nil {
				m := decode(t, tc.sealed)
				tc.edit(m)
				in = encode(t, m)
			}
			out, err := OpenPayload(in, tc.open)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if out != nil {
				t.Fatalf("returned output alongside error: %.100s", out)
			}
		})
	}
}

func TestOpenRejectsTruncatedPayload(t *testing.T) {
	priv := rsaKey(t, 2048)
	sealed := sealWith(t, customSession(t, priv), samplePayload(t, 100))
	for _, n := range []int{0, 1, len(sealed) / 3, len(sealed) / 2, len(sealed) - 1} {
		if _, err := OpenPayload(sealed[:n], CustomOpener(priv)); !errors.Is(err, ErrMalformed) {
			t.Errorf("payload cut to %d bytes: %v, want ErrMalformed", n, err)
		}
	}
}

// A member whose plaintext is not JSON (only a key holder could make one)
// is an error, never spliced into the output.
func TestOpenRejectsNonJSONPlaintext(t *testing.T) {
	priv := rsaKey(t, 2048)
	s := customSession(t, priv)
	m := decode(t, sealWith(t, s, samplePayload(t, 10)))
	env, err := s.SealMember(MemberLicenseData, []byte(`{"a":1}, "injected": true`))
	if err != nil {
		t.Fatal(err)
	}
	m["license_data"] = map[string]any{"version": env.Version, "alg": env.Alg,
		"iv": base64.StdEncoding.EncodeToString(env.IV), "ciphertext": base64.StdEncoding.EncodeToString(env.Ciphertext)}
	if _, err := OpenPayload(encode(t, m), CustomOpener(priv)); !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
}
