package e2ee

import (
	"bytes"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"os/exec"
	"reflect"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// runNode runs one job of testdata/interop.mjs, an independent
// implementation of the format on Node's WebCrypto.
func runNode(t *testing.T, job map[string]any) map[string]any {
	t.Helper()
	node := testkit.Tool(t, "node")
	in, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/interop.mjs")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", job["op"], err, stderr.Bytes())
	}
	return decode(t, out)
}

func pkcs8PEM(t testing.TB, priv any) string {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

func spkiPEM(t testing.TB, pub any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// assertMembers compares Node's decrypted members with the plaintext payload.
func assertMembers(t *testing.T, plain []byte, got any) {
	t.Helper()
	p := decode(t, plain)
	gm, _ := got.(map[string]any)
	if len(gm) != len(Members) {
		t.Fatalf("node opened %d members, want %d", len(gm), len(Members))
	}
	for _, name := range Members {
		if !reflect.DeepEqual(gm[name], member(p, name)) {
			t.Errorf("%s: node got %.80v, want %.80v", name, gm[name], member(p, name))
		}
	}
}

func TestNodeWebCryptoInterop(t *testing.T) {
	plain := samplePayload(t, 3000)
	priv := rsaKey(t, 2048)
	pkey, _ := testPassphraseKey(t, testPassphrase)

	t.Run("node opens custom", func(t *testing.T) {
		sealed := sealWith(t, customSession(t, priv), plain)
		res := runNode(t, map[string]any{"op": "open-custom", "private_key_pem": pkcs8PEM(t, priv), "payload": json.RawMessage(sealed)})
		assertMembers(t, plain, res["members"])
	})
	t.Run("node opens passphrase", func(t *testing.T) {
		// Node has no Argon2id: it gets the seed and does the rest of
		// the key rule (HKDF candidates, range check, PKCS#8 import).
		sealed := sealWith(t, passphraseSession(t, pkey), plain)
		seed := argonSeed([]byte(testPassphrase), pkey.KDF)
		res := runNode(t, map[string]any{"op": "open-passphrase", "seed_hex": hex.EncodeToString(seed), "payload": json.RawMessage(sealed)})
		assertMembers(t, plain, res["members"])
	})
	t.Run("node opens the docs examples", func(t *testing.T) {
		blocks, valuesOf := docExamples(t)
		res := runNode(t, map[string]any{"op": "open-custom", "private_key_pem": blocks["example-private-key"],
			"payload": json.RawMessage(blocks["example-custom"])})
		assertMembers(t, []byte(blocks["example-plaintext"]), res["members"])
		res = runNode(t, map[string]any{"op": "open-passphrase", "seed_hex": valuesOf("example-passphrase-values")["seed"],
			"payload": json.RawMessage(blocks["example-passphrase"])})
		assertMembers(t, []byte(blocks["example-plaintext"]), res["members"])
	})
	t.Run("go opens node custom", func(t *testing.T) {
		res := runNode(t, map[string]any{"op": "seal-custom", "public_key_pem": spkiPEM(t, &priv.PublicKey), "name": "node key", "payload": json.RawMessage(plain)})
		sealed := encode(t, res["payload"].(map[string]any))
		assertSealed(t, plain, sealed)
		opened, err := OpenPayload(sealed, CustomOpener(priv))
		if err != nil {
			t.Fatal(err)
		}
		assertOpened(t, plain, opened)
	})
	t.Run("go opens node passphrase", func(t *testing.T) {
		keyJSON, err := json.Marshal(pkey)
		if err != nil {
			t.Fatal(err)
		}
		res := runNode(t, map[string]any{"op": "seal-passphrase", "key": json.RawMessage(keyJSON), "payload": json.RawMessage(plain)})
		sealed := encode(t, res["payload"].(map[string]any))
		assertSealed(t, plain, sealed)
		opened, err := OpenPayload(sealed, PassphraseOpener([]byte(testPassphrase)))
		if err != nil {
			t.Fatal(err)
		}
		assertOpened(t, plain, opened)
	})
}
