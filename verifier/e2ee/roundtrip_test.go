package e2ee

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

func TestCustomRoundTrip(t *testing.T) {
	priv := rsaKey(t, 2048)
	plain := samplePayload(t, 2000)
	sealed := sealWith(t, customSession(t, priv), plain)
	assertSealed(t, plain, sealed)

	h, err := ReadHeader(sealed)
	if err != nil {
		t.Fatal(err)
	}
	if h.Custom == nil || h.Passphrase != nil || h.Encryption.Mode != ModeCustom || len(h.Encryption.WrappedKey) != 256 {
		t.Fatalf("header = %+v", h)
	}
	wantFP, _ := FingerprintSHA256(&priv.PublicKey)
	if h.Custom.Name != "ops team key" || h.Custom.FingerprintSHA256 != wantFP || h.Custom.FingerprintSSH != FingerprintSSH(&priv.PublicKey) {
		t.Fatalf("encryption_key = %+v", h.Custom)
	}
	opened, err := OpenPayload(sealed, CustomOpener(priv))
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, plain, opened)
}

func TestPassphraseRoundTrip(t *testing.T) {
	key, _ := testPassphraseKey(t, testPassphrase)
	plain := samplePayload(t, 2000)
	sealed := sealWith(t, passphraseSession(t, key), plain)
	assertSealed(t, plain, sealed)

	h, err := ReadHeader(sealed)
	if err != nil {
		t.Fatal(err)
	}
	if h.Passphrase == nil || h.Encryption.Mode != ModePassphrase || h.Encryption.WrappedKey != nil {
		t.Fatalf("header = %+v", h)
	}
	if h.Passphrase.ID != key.ID || !bytes.Equal(h.Passphrase.PublicKey, key.PublicKey) ||
		!reflect.DeepEqual(h.Passphrase.KDF, key.KDF) || len(h.Passphrase.EphemeralPublicKey) != 65 {
		t.Fatalf("encryption_key = %+v, key %+v", h.Passphrase, key)
	}
	opened, err := OpenPayload(sealed, PassphraseOpener([]byte(testPassphrase)))
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, plain, opened)
}

// Each verification gets its own ephemeral key and content key, and each
// member its own nonce.
func TestFreshKeysAndNonces(t *testing.T) {
	key, _ := testPassphraseKey(t, testPassphrase)
	plain := samplePayload(t, 10)
	a := decode(t, sealWith(t, passphraseSession(t, key), plain))
	b := decode(t, sealWith(t, passphraseSession(t, key), plain))
	if member(a, "encryption_key.ephemeral_public_key") == member(b, "encryption_key.ephemeral_public_key") {
		t.Fatal("two sessions share an ephemeral key")
	}
	ivs := map[any]bool{}
	for _, m := range []map[string]any{a, b} {
		for _, name := range Members {
			ivs[member(m, name).(map[string]any)["iv"]] = true
		}
	}
	if len(ivs) != 2*len(Members) {
		t.Fatalf("%d distinct nonces over %d members", len(ivs), 2*len(Members))
	}
	priv := rsaKey(t, 2048)
	c := decode(t, sealWith(t, customSession(t, priv), plain))
	d := decode(t, sealWith(t, customSession(t, priv), plain))
	if member(c, "encryption.wrapped_key") == member(d, "encryption.wrapped_key") {
		t.Fatal("two custom sessions share a wrapped key")
	}
}

// Members absent from the payload stay absent; nothing else is touched.
func TestSealOnlyPresentMembers(t *testing.T) {
	priv := rsaKey(t, 2048)
	plain := []byte(`{"request_id":"r1","verification":{"over_18":false},"license_data":{},"phone_verification":{"phone_verified":false}}`)
	sealed := decode(t, sealWith(t, customSession(t, priv), plain))
	if _, ok := sealed["license_photo"]; ok {
		t.Fatal("license_photo appeared")
	}
	if _, ok := sealed["phone_verification"].(map[string]any)["lookup"]; ok {
		t.Fatal("lookup appeared")
	}
	opened, err := OpenPayload(encode(t, sealed), CustomOpener(priv))
	if err != nil {
		t.Fatal(err)
	}
	assertOpened(t, plain, opened)
}

func TestSharedPlaceholder(t *testing.T) {
	out, err := ApplySharedPlaceholder(samplePayload(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	m := decode(t, out)
	for _, name := range Members {
		if member(m, name) != SharedPlaceholder {
			t.Errorf("%s = %v", name, member(m, name))
		}
	}
	if member(m, "phone_verification.phone_areacode") != "555" || member(m, "request_id") == nil {
		t.Fatalf("unprotected members changed: %s", out)
	}
	if _, err := OpenPayload(out, CustomOpener(rsaKey(t, 2048))); !errors.Is(err, ErrNotEncrypted) {
		t.Fatalf("open placeholder payload: %v, want ErrNotEncrypted", err)
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"passphrase", "custom", "none", "shared"} {
		m, err := ParseMode(s)
		if err != nil || string(m) != s {
			t.Errorf("ParseMode(%q) = %q, %v", s, m, err)
		}
		if m.Sealed() != (s == "passphrase" || s == "custom") {
			t.Errorf("%s.Sealed() = %v", s, m.Sealed())
		}
	}
	if _, err := ParseMode("aes"); !errors.Is(err, ErrUnsupportedAlgorithm) {
		t.Errorf("ParseMode(aes) = %v", err)
	}
}

func TestSealTwiceRefused(t *testing.T) {
	s := customSession(t, rsaKey(t, 2048))
	once := sealWith(t, s, samplePayload(t, 10))
	if _, err := s.SealPayload(once); !errors.Is(err, ErrMalformed) {
		t.Fatalf("second seal: %v, want ErrMalformed", err)
	}
}

// assertSealed checks no protected plaintext survives in the sealed payload
// and every unprotected member is unchanged.
func assertSealed(t *testing.T, plain, sealed []byte) {
	t.Helper()
	p, s := decode(t, plain), decode(t, sealed)
	for _, name := range Members {
		raw, _ := json.Marshal(member(p, name))
		if bytes.Contains(sealed, raw) {
			t.Errorf("%s plaintext %.40s found in sealed payload", name, raw)
		}
		env, ok := member(s, name).(map[string]any)
		if !ok || env["alg"] != AlgContent || env["version"] != float64(Version) {
			t.Errorf("%s = %.80v, want a sealed envelope", name, member(s, name))
		}
	}
	for _, leak := range []string{"Jane", "5555550123", "JANE DOE", "1990-01-02"} {
		if testkit.HoldsPlain(sealed, leak) {
			t.Errorf("sealed payload contains %q", leak)
		}
	}
	for _, name := range []string{"request_id", "verification", "phone_verification.phone_areacode", "phone_verification.phone_verified"} {
		if !reflect.DeepEqual(member(p, name), member(s, name)) {
			t.Errorf("%s changed: %v → %v", name, member(p, name), member(s, name))
		}
	}
}

// assertOpened checks the opened payload equals the plaintext one apart from
// the encryption_key kept for provenance.
func assertOpened(t *testing.T, plain, opened []byte) {
	t.Helper()
	o := decode(t, opened)
	if _, ok := o["encryption"]; ok {
		t.Error("opened payload still has encryption")
	}
	if _, ok := o["encryption_key"]; !ok {
		t.Error("opened payload lost encryption_key")
	}
	delete(o, "encryption_key")
	if p := decode(t, plain); !reflect.DeepEqual(p, o) {
		t.Errorf("opened payload differs:\n got %.300v\nwant %.300v", o, p)
	}
}
