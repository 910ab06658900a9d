package http

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// passphraseKeyBody is a valid upload: a real P-256 point and default
// Argon2id costs (the passphrase derivation itself is e2ee's to test).
func passphraseKeyBody(t *testing.T, name string) (string, []byte) {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	kdf, err := e2ee.DefaultKDFParams()
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.PublicKey().Bytes()
	b, _ := json.Marshal(e2ee.PassphraseKey{Name: name, PublicKey: pub, KDF: kdf})
	return string(b), pub
}

// TestPassphraseKeys: upload, list, read, delete; validation; tenant
// isolation; use as the key of passphrase-mode verifications.
func TestPassphraseKeys(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		_, other := h.owner()
		body, pub := passphraseKeyBody(t, "Finance team")
		r := h.do("POST", "/passphrase-keys", body, "Authorization", bearer)
		var k passphraseKeyResponse
		r.json(t, &k)
		if r.status != 201 || k.Name != "Finance team" || k.PublicKey != base64.StdEncoding.EncodeToString(pub) ||
			k.KDF.MemoryKiB != e2ee.DefaultMemoryKiB || k.KDF.Alg != e2ee.AlgPassphrase || !k.CreatedAt.Equal(t0) {
			t.Fatalf("create: %d %s", r.status, r.body)
		}

		bad := map[string]string{
			`{"name":"x","public_key":"!!","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":3,"parallelism":1}}`:                       "public_key:invalid_base64",
			`{"name":"x","public_key":"BAAA","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":3,"parallelism":1}}`:                     "public_key:invalid_key",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":1024,"iterations":3,"parallelism":1}}`:       "kdf.memory_kib:out_of_range",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":-1,"iterations":3,"parallelism":1}}`:         "kdf.memory_kib:out_of_range",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":5000000000,"iterations":3,"parallelism":1}}`: "kdf.memory_kib:out_of_range",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":1,"parallelism":1}}`:      "kdf.iterations:out_of_range",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":3,"parallelism":300}}`:    "kdf.parallelism:out_of_range",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"pbkdf2","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":3,"parallelism":1}}`:                     "kdf.alg:invalid_value",
			`{"name":"","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAAAAAAAAAAAAAAAAAAAA==","memory_kib":65536,"iterations":3,"parallelism":1}}`:       "name:invalid_value",
			`{"name":"x","public_key":"` + k.PublicKey + `","kdf":{"alg":"argon2id-hkdf-p256-v1","salt":"AAAA","memory_kib":65536,"iterations":3,"parallelism":1}}`:                          "kdf.salt:invalid_value",
		}
		for b, want := range bad {
			codes := validationCodes(t, h.do("POST", "/passphrase-keys", b, "Authorization", bearer))
			got := ""
			for f, c := range codes {
				got = f + ":" + c
			}
			if len(codes) != 1 || got != want {
				t.Errorf("%s: %v, want %s", b, codes, want)
			}
		}

		var list struct{ Items []passphraseKeyResponse }
		h.do("GET", "/passphrase-keys", "", "Authorization", bearer).json(t, &list)
		if len(list.Items) != 1 || list.Items[0].ID != k.ID {
			t.Fatalf("list %+v", list)
		}
		if r := h.do("GET", "/passphrase-keys/"+k.ID, "", "Authorization", bearer); r.status != 200 {
			t.Fatalf("get %d", r.status)
		}
		expectError(t, h.do("GET", "/passphrase-keys/"+k.ID, "", "Authorization", other), 404, httperr.NotFound)
		expectError(t, h.do("DELETE", "/passphrase-keys/"+k.ID, "", "Authorization", other), 404, httperr.NotFound)
		expectError(t, h.do("GET", "/passphrase-keys", "", "X-API-Key", "idgk_x"), 403, httperr.Forbidden)

		// The key ID is the encryption_key of passphrase mode, in this account only.
		create := `{"requested_fields":["dob"],"encryption_key_mode":"passphrase","encryption_key":"` + k.ID + `"}`
		v := h.create(bearer, create)
		if codes := validationCodes(t, h.do("POST", "/verification", create, "Authorization", other)); codes["encryption_key"] != "unknown_key" {
			t.Fatalf("%v", codes)
		}
		// Deleting the key strands nothing: the verification copied the public part.
		if r := h.do("DELETE", "/passphrase-keys/"+k.ID, "", "Authorization", bearer); r.status != 204 {
			t.Fatalf("delete %d", r.status)
		}
		expectError(t, h.do("GET", "/passphrase-keys/"+k.ID, "", "Authorization", bearer), 404, httperr.NotFound)
		stored, err := h.srv.verifications.Get(t.Context(), a.ID, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		st, err := verifier.ParseSettings(stored.Options)
		if err != nil || st.PassphraseKey == nil || string(st.PassphraseKey.PublicKey) != string(pub) || st.EncryptionKey != k.ID {
			t.Fatalf("settings %+v %v", st, err)
		}
		if codes := validationCodes(t, h.do("POST", "/verification", create, "Authorization", bearer)); codes["encryption_key"] != "unknown_key" {
			t.Fatalf("after delete: %v", codes)
		}
	})
}
