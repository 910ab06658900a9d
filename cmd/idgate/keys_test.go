package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/e2ee"
)

func TestKeysFingerprintCommand(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	code, out, errOut := runIdgate(t, "", "keys", "fingerprint", decryptTestFile(t, "pub.pem", pemBytes))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got keyFingerprints
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want, err := e2ee.NewCustomKeyInfo(&priv.PublicKey, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Bits != 2048 || got.FingerprintSSH != want.FingerprintSSH || got.FingerprintSHA256 != want.FingerprintSHA256 {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if code, _, errOut := runIdgate(t, "garbage", "keys", "fingerprint", "-"); code == 0 || !strings.Contains(errOut, "no PEM block") {
		t.Fatalf("garbage key: exit %d, %s", code, errOut)
	}
}

// The created key's public part re-derives from the same passphrase, and a
// result sealed for it decrypts with `idgate decrypt`. Default Argon2id costs
// (the floor for new keys), so this test takes a few tenths of a second.
func TestKeysPassphraseCreateCommand(t *testing.T) {
	const pass = "a long enough passphrase"
	passFile := decryptTestFile(t, "pass", []byte(pass+"\n"))
	code, out, errOut := runIdgate(t, "", "keys", "passphrase", "create", "--name", "ops laptop", "--passphrase-file", passFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var key e2ee.PassphraseKey
	if err := json.Unmarshal([]byte(out), &key); err != nil {
		t.Fatal(err)
	}
	if err := key.Validate(); err != nil {
		t.Fatal(err)
	}
	if key.ID != "" || key.Name != "ops laptop" || key.KDF.MemoryKiB != e2ee.DefaultMemoryKiB || key.KDF.Iterations != e2ee.DefaultIterations {
		t.Fatalf("key = %+v", key)
	}
	sealed := decryptTestSeal(t)(e2ee.NewPassphraseSession(key))
	code, dec, errOut := runIdgate(t, string(sealed), "decrypt", "--passphrase-file", passFile)
	if code != 0 {
		t.Fatalf("decrypt: exit %d: %s", code, errOut)
	}
	decryptTestCheck(t, dec)
}

func TestKeysPassphraseCreateRefuses(t *testing.T) {
	saved := promptPassphrase
	t.Cleanup(func() { promptPassphrase = saved })
	answers := []string{"first passphrase", "second passphrase"}
	promptPassphrase = func(string) (string, error) { a := answers[0]; answers = answers[1:]; return a, nil }
	short := decryptTestFile(t, "short", []byte("short\n"))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"prompted twice, differing", []string{"--name", "k"}, "differ"},
		{"short passphrase", []string{"--name", "k", "--passphrase-file", short}, "characters"},
		{"no name", []string{"--passphrase-file", short}, "--name is required"},
		{"cheap costs", []string{"--name", "k", "--memory-kib", "1024", "--passphrase-file", short}, "below the minimum"},
		{"huge costs", []string{"--name", "k", "--memory-kib", "99999999", "--passphrase-file", short}, "above"},
	} {
		code, out, errOut := runIdgate(t, "", append([]string{"keys", "passphrase", "create"}, tc.args...)...)
		if code == 0 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want %q)", tc.name, code, out, errOut, tc.want)
		}
	}
}

// --upload sends the public part to a running verifier with the token from
// IDGATE_TOKEN; the stored key (with its id) is printed and listed.
func TestKeysPassphraseCreateUploads(t *testing.T) {
	inTempDir(t)
	base, lines, stop := startServe(t)
	defer stop()
	var demoPassword string
	for _, l := range lines {
		if _, after, ok := strings.Cut(l, "demo account created: email demo@idgate.local password "); ok {
			demoPassword = after
		}
	}
	if demoPassword == "" {
		t.Fatalf("no demo password in %q", lines)
	}
	code, token := signIn(t, base, "demo@idgate.local", demoPassword)
	if code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	passFile := decryptTestFile(t, "pass", []byte("a long enough passphrase\n"))

	t.Setenv("IDGATE_TOKEN", "")
	if code, _, errOut := runIdgate(t, "", "keys", "passphrase", "create", "--name", "laptop", "--passphrase-file", passFile, "--upload", base); code == 0 || !strings.Contains(errOut, "IDGATE_TOKEN") {
		t.Fatalf("upload without token: exit %d, %s", code, errOut)
	}

	t.Setenv("IDGATE_TOKEN", token)
	code, out, errOut := runIdgate(t, "", "keys", "passphrase", "create", "--name", "laptop", "--passphrase-file", passFile, "--upload", base)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var stored struct{ ID, Name string }
	if err := json.Unmarshal([]byte(out), &stored); err != nil || stored.ID == "" || stored.Name != "laptop" {
		t.Fatalf("stored key %q: %v", out, err)
	}
	req, _ := http.NewRequest("GET", base+"/passphrase-keys", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	listed, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(listed), stored.ID) {
		t.Fatalf("list: %d %s", resp.StatusCode, listed)
	}
	http.DefaultClient.CloseIdleConnections()
}
