package verifier_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
)

// A review image sealed for the account opens with the account's RSA key
// (custom) or passphrase, as a result does, and with nothing else; none
// and shared leave sealing to the server key.
func TestSealForAccount(t *testing.T) {
	priv, pubPEM, passKey := encryptionKeys(t)
	img := []byte("\xFF\xD8\xFF a selfie")
	for _, tc := range []struct {
		name     string
		settings verifier.Settings
		opener   e2ee.Opener
	}{
		{"custom", verifier.Settings{EncryptionKeyMode: e2ee.ModeCustom, EncryptionKey: pubPEM}, e2ee.CustomOpener(priv)},
		{"passphrase", verifier.Settings{EncryptionKeyMode: e2ee.ModePassphrase, EncryptionKey: passKey.ID, PassphraseKey: &passKey},
			e2ee.PassphraseOpener([]byte(testPassphrase))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := withSettings(t, tc.settings, "")
			doc, ok, err := verifier.SealForAccount(context.Background(), nil, v, "selfie", img)
			if err != nil || !ok {
				t.Fatalf("SealForAccount = %v, %v", ok, err)
			}
			if bytes.Contains(doc, []byte("a selfie")) {
				t.Fatal("sealed document holds the plaintext")
			}
			h, err := e2ee.ReadHeader(doc)
			if err != nil {
				t.Fatal(err)
			}
			session, err := tc.opener(h)
			if err != nil {
				t.Fatal(err)
			}
			var members map[string]json.RawMessage
			if err := json.Unmarshal(doc, &members); err != nil {
				t.Fatal(err)
			}
			env, err := e2ee.ParseSealedMember(members["selfie"])
			if err != nil {
				t.Fatal(err)
			}
			if got, err := session.OpenMember("selfie", env); err != nil || !bytes.Equal(got, img) {
				t.Fatalf("opened %q, %v", got, err)
			}
			if _, err := session.OpenMember("license_front", env); err == nil {
				t.Fatal("the envelope opened under another member name")
			}
		})
	}
	for _, mode := range []e2ee.Mode{e2ee.ModeNone, e2ee.ModeShared} {
		doc, ok, err := verifier.SealForAccount(context.Background(), nil, withSettings(t, verifier.Settings{EncryptionKeyMode: mode}, ""), "selfie", img)
		if err != nil || ok || doc != nil {
			t.Errorf("%s: SealForAccount = %q, %v, %v; want the server to seal", mode, doc, ok, err)
		}
	}
}
