package e2ee

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"testing"
)

func TestParseRSAKeysBothForms(t *testing.T) {
	priv := rsaKey(t, 2048)
	pkcs1 := pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&priv.PublicKey)})
	for name, in := range map[string][]byte{"PKIX": []byte(spkiPEM(t, &priv.PublicKey)), "PKCS#1": pkcs1} {
		pub, err := ParseRSAPublicKey(in)
		if err != nil || !pub.Equal(&priv.PublicKey) {
			t.Errorf("%s public: %v", name, err)
		}
	}
	pkcs1Priv := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)})
	for name, in := range map[string][]byte{"PKCS#8": []byte(pkcs8PEM(t, priv)), "PKCS#1": pkcs1Priv} {
		k, err := ParseRSAPrivateKey(in)
		if err != nil || !k.Equal(priv) {
			t.Errorf("%s private: %v", name, err)
		}
	}
}

func TestParseRSAKeysRejects(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	priv := rsaKey(t, 2048)
	pub := []byte(spkiPEM(t, &priv.PublicKey))
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"1024-bit key", []byte(spkiPEM(t, &small.PublicKey)), ErrWeakKey},
		{"EC key", []byte(spkiPEM(t, &ec.PublicKey)), ErrUnsupportedAlgorithm},
		{"no PEM", []byte("ssh-rsa AAAAB3NzaC1yc2E"), ErrMalformed},
		{"private key given", []byte(pkcs8PEM(t, priv)), ErrPrivateKey},
		{"PKCS#1 private key given", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)}), ErrPrivateKey},
		{"OpenSSH private key given", pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: []byte{1}}), ErrPrivateKey},
		{"certificate type", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), ErrMalformed},
		{"truncated DER", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: firstBlock(pem.Decode(pub)).Bytes[:100]}), ErrMalformed},
	} {
		if _, err := ParseRSAPublicKey(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("public %s: %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"1024-bit key", []byte(pkcs8PEM(t, small)), ErrWeakKey},
		{"EC key", []byte(pkcs8PEM(t, ec)), ErrUnsupportedAlgorithm},
		{"public key given", pub, ErrMalformed},
		{"encrypted PEM", pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1}}), ErrMalformed},
	} {
		if _, err := ParseRSAPrivateKey(tc.in); !errors.Is(err, tc.want) {
			t.Errorf("private %s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func firstBlock(b *pem.Block, _ []byte) *pem.Block { return b }
