package e2ee

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The worked examples of docs/encryption.md are checked here, so the text an
// integrator implements from cannot drift from the code.
// values holds the "name: value" lines of a text block.
func docExamples(t *testing.T) (blocks map[string]string, values func(block string) map[string]string) {
	t.Helper()
	doc, err := os.ReadFile("../../docs/encryption.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks = map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```\\w+ (example-[a-z-]+)\n(.*?)\n```").FindAllStringSubmatch(string(doc), -1) {
		blocks[m[1]] = m[2]
	}
	values = func(block string) map[string]string {
		kv := map[string]string{}
		for _, line := range strings.Split(blocks[block], "\n") {
			k, v, _ := strings.Cut(line, ": ")
			kv[k] = v
		}
		return kv
	}
	for _, want := range []string{"example-private-key", "example-plaintext", "example-custom", "example-passphrase"} {
		if blocks[want] == "" {
			t.Fatalf("docs/encryption.md has no %s block", want)
		}
	}
	return blocks, values
}

func hexValue(t *testing.T, values map[string]string, name string) []byte {
	t.Helper()
	b, err := hex.DecodeString(values[name])
	if err != nil || len(b) != 32 {
		t.Fatalf("docs value %q = %q", name, values[name])
	}
	return b
}

func TestDocsCustomExample(t *testing.T) {
	blocks, valuesOf := docExamples(t)
	values := valuesOf("example-custom-values")
	priv, err := ParseRSAPrivateKey([]byte(blocks["example-private-key"]))
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(blocks["example-custom"])
	h, err := ReadHeader(payload)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := rsa.DecryptOAEP(sha256.New(), nil, priv, h.Encryption.WrappedKey, nil)
	if err != nil || !bytes.Equal(ck, hexValue(t, values, "content key")) {
		t.Fatalf("unwrapped %x (%v), docs say %s", ck, err, values["content key"])
	}
	opened, err := OpenPayload(payload, CustomOpener(priv))
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, []byte(blocks["example-plaintext"]), opened)
}

// Also the one e2ee test that runs Argon2id at the default costs: the docs'
// seed must be what the documented inputs give.
func TestDocsPassphraseExample(t *testing.T) {
	blocks, valuesOf := docExamples(t)
	values := valuesOf("example-passphrase-values")
	payload := []byte(blocks["example-passphrase"])
	h, err := ReadHeader(payload)
	if err != nil {
		t.Fatal(err)
	}
	info := *h.Passphrase
	if info.KDF.MemoryKiB != DefaultMemoryKiB || info.KDF.Iterations != DefaultIterations || info.KDF.Parallelism != DefaultParallelism {
		t.Fatalf("example KDF %+v is not the defaults", info.KDF)
	}
	seed := hexValue(t, values, "seed")
	if got := argonSeed([]byte(values["passphrase"]), info.KDF); !bytes.Equal(got, seed) {
		t.Fatalf("Argon2id seed %x, docs say %x", got, seed)
	}
	priv, err := scalarFromSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(priv.Bytes(), hexValue(t, values, "private scalar")) || !bytes.Equal(priv.PublicKey().Bytes(), info.PublicKey) {
		t.Fatalf("scalar %x, public %x", priv.Bytes(), priv.PublicKey().Bytes())
	}
	eph, err := ecdh.P256().NewPublicKey(info.EphemeralPublicKey)
	if err != nil {
		t.Fatal(err)
	}
	z, err := priv.ECDH(eph)
	if err != nil || !bytes.Equal(z, hexValue(t, values, "shared secret Z")) {
		t.Fatalf("Z %x (%v)", z, err)
	}
	ck, err := agreeContentKey(priv, eph, eph, priv.PublicKey())
	if err != nil || !bytes.Equal(ck, hexValue(t, values, "content key")) {
		t.Fatalf("content key %x (%v)", ck, err)
	}
	opened, err := OpenPayload(payload, func(h Header) (*Session, error) {
		return OpenPassphraseSession(priv, h.Encryption, *h.Passphrase)
	})
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, []byte(blocks["example-plaintext"]), opened)
}
