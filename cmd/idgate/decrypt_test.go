package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/e2ee"
)

const decryptTestResult = `{"request_id":"r-1","verification":{"over_18":true},` +
	`"license_data":{"first_names":"Jane","last_name":"Doe","dob":"1990-01-02"},` +
	`"phone_verification":{"phone_verified":true,"lookup":{"phone_number":"+15555550123","caller_name":"JANE DOE","carrier_name":"Acme"}}}`

// runIdgate runs the CLI in-process and returns exit code, stdout, stderr.
func runIdgate(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func decryptTestFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// decryptTestSeal(t)(session, err) seals decryptTestResult.
func decryptTestSeal(t *testing.T) func(*e2ee.Session, error) []byte {
	return func(s *e2ee.Session, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.SealPayload([]byte(decryptTestResult))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// decryptTestCheck asserts the CLI printed the plaintext members.
func decryptTestCheck(t *testing.T, stdout string) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if got["result"] != nil {
		got = got["result"].(map[string]any)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(decryptTestResult), &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"license_data", "phone_verification", "request_id"} {
		g, _ := json.Marshal(got[k])
		w, _ := json.Marshal(want[k])
		if !bytes.Equal(g, w) {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
}

func TestDecryptCommandCustom(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)})
	keyFile := decryptTestFile(t, "key.pem", keyPEM)
	sealed := decryptTestSeal(t)(e2ee.NewCustomSession(&priv.PublicKey, "ops"))

	code, out, errOut := runIdgate(t, "", "decrypt", "--key", keyFile, decryptTestFile(t, "hook.json", sealed))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	decryptTestCheck(t, out)

	// A GET body on stdin.
	get := `{"status":"completed","result":` + string(sealed) + `}`
	code, out, errOut = runIdgate(t, get, "decrypt", "--key", keyFile, "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	decryptTestCheck(t, out)
}

func decryptTestPassphraseKey(t *testing.T, passphrase string) e2ee.PassphraseKey {
	t.Helper()
	p, err := e2ee.NewKDFParams(64, 1, 1) // cheap costs: a test, not a real key
	if err != nil {
		t.Fatal(err)
	}
	priv, err := e2ee.DerivePrivateKey([]byte(passphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	return e2ee.PassphraseKey{Name: "cli", PublicKey: priv.PublicKey().Bytes(), KDF: p}
}

func TestDecryptCommandPassphrase(t *testing.T) {
	sealed := decryptTestSeal(t)(e2ee.NewPassphraseSession(decryptTestPassphraseKey(t, "tr0ub4dor & 3 horses")))
	for name, content := range map[string]string{"LF": "tr0ub4dor & 3 horses\n", "CRLF": "tr0ub4dor & 3 horses\r\n", "none": "tr0ub4dor & 3 horses"} {
		code, out, errOut := runIdgate(t, string(sealed), "decrypt", "--passphrase-file", decryptTestFile(t, "pass", []byte(content)))
		if code != 0 {
			t.Fatalf("%s newline: exit %d: %s", name, code, errOut)
		}
		decryptTestCheck(t, out)
	}

	// The terminal prompt, with a stand-in user.
	saved := promptPassphrase
	t.Cleanup(func() { promptPassphrase = saved })
	var prompts []string
	promptPassphrase = func(p string) (string, error) { prompts = append(prompts, p); return "tr0ub4dor & 3 horses", nil }
	code, out, errOut := runIdgate(t, string(sealed), "decrypt")
	if code != 0 || len(prompts) != 1 {
		t.Fatalf("exit %d after %d prompts: %s", code, len(prompts), errOut)
	}
	decryptTestCheck(t, out)
}

func TestDecryptCommandErrors(t *testing.T) {
	sealed := decryptTestSeal(t)(e2ee.NewPassphraseSession(decryptTestPassphraseKey(t, "tr0ub4dor & 3 horses")))
	wrong := decryptTestFile(t, "wrong", []byte("tr0ub4dor & 4 horses\n"))
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"wrong passphrase", string(sealed), []string{"decrypt", "--passphrase-file", wrong}, "wrong passphrase"},
		{"both keys", string(sealed), []string{"decrypt", "--key", wrong, "--passphrase-file", wrong}, "not both"},
		{"two inputs", "", []string{"decrypt", "--passphrase-file", wrong, "a", "b"}, "at most one"},
		{"missing file", "", []string{"decrypt", "--passphrase-file", wrong, "/nonexistent/x.json"}, "no such file"},
		{"not encrypted", decryptTestResult, []string{"decrypt", "--passphrase-file", wrong}, "not encrypted"},
		{"key is not PEM", string(sealed), []string{"decrypt", "--key", wrong}, "no PEM block"},
	} {
		code, out, errOut := runIdgate(t, tc.stdin, tc.args...)
		if code == 0 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want %q)", tc.name, code, out, errOut, tc.want)
		}
	}
}
