package e2ee

import (
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
)

// RSA key sizes accepted for custom mode. The ceiling bounds the cost of
// wrapping (and of a hostile key in a create request).
const (
	MinRSABits = 2048
	MaxRSABits = 8192
)

// ParseRSAPublicKey reads a PEM RSA public key: PKIX "PUBLIC KEY" or PKCS#1
// "RSA PUBLIC KEY". Text after the first PEM block is ignored. A private key
// is refused with ErrPrivateKey.
func ParseRSAPublicKey(pemBytes []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, fmt.Errorf("parse RSA public key: no PEM block: %w", ErrMalformed)
	}
	var pub *rsa.PublicKey
	switch block.Type {
	case "PUBLIC KEY":
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse RSA public key: %w: %v", ErrMalformed, err)
		}
		var ok bool
		if pub, ok = k.(*rsa.PublicKey); !ok {
			return nil, fmt.Errorf("parse RSA public key: %T is not RSA: %w", k, ErrUnsupportedAlgorithm)
		}
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse RSA public key: %w: %v", ErrMalformed, err)
		}
		pub = k
	default:
		if strings.HasSuffix(block.Type, "PRIVATE KEY") { // PKCS#8, PKCS#1, encrypted, EC, OpenSSH
			return nil, fmt.Errorf("parse RSA public key: PEM type %q: %w", block.Type, ErrPrivateKey)
		}
		return nil, fmt.Errorf("parse RSA public key: PEM type %q: %w", block.Type, ErrMalformed)
	}
	if err := checkRSASize(pub); err != nil {
		return nil, fmt.Errorf("parse RSA public key: %w", err)
	}
	return pub, nil
}

// ParseRSAPrivateKey reads an unencrypted PEM RSA private key: PKCS#8
// "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY".
func ParseRSAPrivateKey(pemBytes []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, fmt.Errorf("parse RSA private key: no PEM block: %w", ErrMalformed)
	}
	var priv *rsa.PrivateKey
	switch block.Type {
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse RSA private key: %w: %v", ErrMalformed, err)
		}
		var ok bool
		if priv, ok = k.(*rsa.PrivateKey); !ok {
			return nil, fmt.Errorf("parse RSA private key: %T is not RSA: %w", k, ErrUnsupportedAlgorithm)
		}
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse RSA private key: %w: %v", ErrMalformed, err)
		}
		priv = k
	default:
		return nil, fmt.Errorf("parse RSA private key: PEM type %q (encrypted keys must be decrypted first): %w",
			block.Type, ErrMalformed)
	}
	if err := checkRSASize(&priv.PublicKey); err != nil {
		return nil, fmt.Errorf("parse RSA private key: %w", err)
	}
	return priv, nil
}

func checkRSASize(pub *rsa.PublicKey) error {
	if bits := pub.N.BitLen(); bits < MinRSABits || bits > MaxRSABits {
		return fmt.Errorf("%d-bit key, need %d to %d: %w", bits, MinRSABits, MaxRSABits, ErrWeakKey)
	}
	return nil
}

// FingerprintSSH is the fingerprint `ssh-keygen -l -E sha256` prints:
// "SHA256:" and the unpadded base64 of SHA-256 over the SSH wire encoding
// (RFC 4253 §6.6: string "ssh-rsa", mpint e, mpint n).
func FingerprintSSH(pub *rsa.PublicKey) string {
	var wire []byte
	wire = appendSSHString(wire, []byte("ssh-rsa"))
	wire = appendSSHString(wire, mpint(big.NewInt(int64(pub.E))))
	wire = appendSSHString(wire, mpint(pub.N))
	sum := sha256.Sum256(wire)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// FingerprintSHA256 is the lower-case hex SHA-256 of the DER
// SubjectPublicKeyInfo (what `openssl pkey -pubin -outform DER | sha256sum`
// gives), the same whichever PEM form the key arrived in.
func FingerprintSHA256(pub *rsa.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("fingerprint: %w: %v", ErrMalformed, err)
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:]), nil
}

// NewCustomKeyInfo is the `encryption_key` object for a custom key labelled
// name by its holder.
func NewCustomKeyInfo(pub *rsa.PublicKey, name string) (CustomKeyInfo, error) {
	sha, err := FingerprintSHA256(pub)
	if err != nil {
		return CustomKeyInfo{}, err
	}
	return CustomKeyInfo{Name: name, FingerprintSSH: FingerprintSSH(pub), FingerprintSHA256: sha}, nil
}

func appendSSHString(b, s []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// mpint is the SSH encoding of a non-negative integer: big-endian, with a
// leading zero byte when the top bit is set so it does not read as negative.
func mpint(n *big.Int) []byte {
	b := n.Bytes()
	if len(b) > 0 && b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	return b
}
