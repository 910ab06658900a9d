package e2ee

import (
	"fmt"
	"testing"
)

// A 200 KB payload: the license photo dominates (150 000 JPEG bytes are
// 200 000 base64 characters).
func benchPayload(b *testing.B) []byte { return samplePayload(b, 150_000) }

func BenchmarkSealCustom(b *testing.B) {
	for _, bits := range []int{2048, 4096} {
		b.Run(fmt.Sprintf("rsa%d", bits), func(b *testing.B) {
			priv := rsaKey(b, bits)
			plain := benchPayload(b)
			b.SetBytes(int64(len(plain)))
			for b.Loop() {
				s, err := NewCustomSession(&priv.PublicKey, "bench")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.SealPayload(plain); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOpenCustom(b *testing.B) {
	for _, bits := range []int{2048, 4096} {
		b.Run(fmt.Sprintf("rsa%d", bits), func(b *testing.B) {
			priv := rsaKey(b, bits)
			plain := benchPayload(b)
			sealed := sealWith(b, customSession(b, priv), plain)
			open := CustomOpener(priv)
			b.SetBytes(int64(len(plain)))
			for b.Loop() {
				if _, err := OpenPayload(sealed, open); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSealPassphrase(b *testing.B) {
	key, _ := testPassphraseKey(b, testPassphrase)
	plain := benchPayload(b)
	b.SetBytes(int64(len(plain)))
	for b.Loop() {
		s, err := NewPassphraseSession(key)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.SealPayload(plain); err != nil {
			b.Fatal(err)
		}
	}
}

// Opening with the key already derived (PassphraseOpener caches it); the
// Argon2id cost is BenchmarkArgon2idDefault.
func BenchmarkOpenPassphrase(b *testing.B) {
	key, _ := testPassphraseKey(b, testPassphrase)
	plain := benchPayload(b)
	sealed := sealWith(b, passphraseSession(b, key), plain)
	open := PassphraseOpener([]byte(testPassphrase))
	if _, err := OpenPayload(sealed, open); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(plain)))
	for b.Loop() {
		if _, err := OpenPayload(sealed, open); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkArgon2idDefault(b *testing.B) {
	p, err := DefaultKDFParams()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := DerivePrivateKey([]byte(testPassphrase), p); err != nil {
			b.Fatal(err)
		}
	}
}
