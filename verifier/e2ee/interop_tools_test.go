package e2ee

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

var rsaSizes = []int{2048, 3072, 4096}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(testkit.Tool(t, name), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Both PEM forms of a key, as files: PKIX "PUBLIC KEY" and PKCS#1 "RSA PUBLIC KEY".
func publicPEMFiles(t *testing.T, dir string, pub *rsa.PublicKey) (pkix, pkcs1 string) {
	t.Helper()
	pkix = writeFile(t, dir, "pub.pem", []byte(spkiPEM(t, pub)))
	pkcs1 = writeFile(t, dir, "pub1.pem", pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(pub)}))
	return pkix, pkcs1
}

func TestFingerprintsMatchSSHKeygenAndOpenSSL(t *testing.T) {
	for _, bits := range rsaSizes {
		t.Run(fmt.Sprint(bits), func(t *testing.T) {
			dir := t.TempDir()
			priv := rsaKey(t, bits)
			pkixFile, pkcs1File := publicPEMFiles(t, dir, &priv.PublicKey)
			for _, file := range []string{pkixFile, pkcs1File} {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				pub, err := ParseRSAPublicKey(raw)
				if err != nil {
					t.Fatalf("parse %s: %v", filepath.Base(file), err)
				}
				info, err := NewCustomKeyInfo(pub, "k")
				if err != nil {
					t.Fatal(err)
				}

				// ssh-keygen converts the PEM to its own format, then prints
				// "<bits> SHA256:<base64> <comment> (RSA)".
				format := map[string]string{pkixFile: "PKCS8", pkcs1File: "PEM"}[file]
				sshPub := writeFile(t, dir, "key.pub", run(t, "ssh-keygen", "-i", "-m", format, "-f", file))
				fields := strings.Fields(string(run(t, "ssh-keygen", "-l", "-E", "sha256", "-f", sshPub)))
				if len(fields) < 2 || fields[0] != fmt.Sprint(bits) || fields[1] != info.FingerprintSSH {
					t.Errorf("%s: ssh-keygen printed %q, we computed %s", filepath.Base(file), fields, info.FingerprintSSH)
				}

				// openssl re-encodes either form as DER SubjectPublicKeyInfo.
				in := []string{"pkey", "-pubin"}
				if file == pkcs1File {
					in = []string{"rsa", "-RSAPublicKey_in", "-pubout"}
				}
				der := filepath.Join(dir, "pub.der")
				run(t, "openssl", append(in, "-in", file, "-outform", "DER", "-out", der)...)
				digest := strings.Fields(string(run(t, "openssl", "dgst", "-sha256", "-r", der)))
				if len(digest) == 0 || digest[0] != info.FingerprintSHA256 {
					t.Errorf("%s: openssl digest %q, we computed %s", filepath.Base(file), digest, info.FingerprintSHA256)
				}
			}
		})
	}
}

// openssl unwraps our wrapped key with the exact OAEP parameters the docs
// give, and the key it recovers opens our members.
func TestOpenSSLUnwrapsContentKey(t *testing.T) {
	for _, bits := range rsaSizes {
		t.Run(fmt.Sprint(bits), func(t *testing.T) {
			dir := t.TempDir()
			priv := rsaKey(t, bits)
			keyFile := writeFile(t, dir, "key.pem", []byte(pkcs8PEM(t, priv)))
			s := customSession(t, priv)
			obj, err := parseObject(sealWith(t, s, samplePayload(t, 10)))
			if err != nil {
				t.Fatal(err)
			}
			sealed, err := ParseSealedMember(obj[MemberLicenseData])
			if err != nil {
				t.Fatal(err)
			}
			wrapped := writeFile(t, dir, "wrapped.bin", s.Encryption.WrappedKey)
			key := run(t, "openssl", "pkeyutl", "-decrypt", "-inkey", keyFile, "-in", wrapped,
				"-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256")
			if len(key) != 32 {
				t.Fatalf("openssl recovered %d bytes", len(key))
			}
			viaOpenSSL, err := newSession(key, s.Encryption, nil)
			if err != nil {
				t.Fatal(err)
			}
			pt, err := viaOpenSSL.OpenMember(MemberLicenseData, sealed)
			if err != nil {
				t.Fatalf("key from openssl does not open license_data: %v", err)
			}
			if !bytes.Contains(pt, []byte(`"last_name":"Doé"`)) {
				t.Fatalf("license_data plaintext %s", pt)
			}
		})
	}
}
