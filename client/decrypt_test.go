package client

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"reflect"
	"testing"

	"github.com/idgate/idgate/verifier/e2ee"
)

const plainResult = `{"request_id":"0b9d6a52-6f63-4d2e-9f3c-7d1d4c1e2a55","verification":{"over_21":true},` +
	`"license_data":{"first_names":"Jane","last_name":"Doe","dob":"1990-01-02"},` +
	`"phone_verification":{"phone_verified":true,"lookup":{"phone_number":"+15555550123","caller_name":"JANE DOE","carrier_name":"Acme"}},` +
	`"license_photo":"/9j/4AAQSkZJRg=="}`

func rsaPEM(t testing.TB) (*rsa.PrivateKey, []byte) {
	t.Helper()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// seal(t)(session, err) seals plainResult in a new session.
func seal(t *testing.T) func(*e2ee.Session, error) []byte {
	return func(s *e2ee.Session, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.SealPayload([]byte(plainResult))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// passphraseKey uses cheap Argon2id costs to keep the test fast.
func passphraseKey(t *testing.T, passphrase string) e2ee.PassphraseKey {
	t.Helper()
	p, err := e2ee.NewKDFParams(64, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := e2ee.DerivePrivateKey([]byte(passphrase), p)
	if err != nil {
		t.Fatal(err)
	}
	return e2ee.PassphraseKey{ID: "k1", Name: "laptop", PublicKey: priv.PublicKey().Bytes(), KDF: p}
}

func getBody(t *testing.T, result []byte) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"status": "completed", "result": json.RawMessage(result)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertPlain checks the decrypted result equals plainResult, apart from
// encryption_key which stays.
func assertPlain(t *testing.T, got []byte) {
	t.Helper()
	var g, w map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(plainResult), &w); err != nil {
		t.Fatal(err)
	}
	if _, ok := g["encryption_key"]; !ok {
		t.Error("encryption_key dropped")
	}
	delete(g, "encryption_key")
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("decrypted\n %s\nwant\n %s", got, plainResult)
	}
}

func TestDecryptCustom(t *testing.T) {
	priv, pemBytes := rsaPEM(t)
	sealed := seal(t)(e2ee.NewCustomSession(&priv.PublicKey, "ops"))
	key, err := PrivateKey(pemBytes)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Decrypt(sealed, key)
	if err != nil {
		t.Fatal(err)
	}
	assertPlain(t, out)

	out, err = Decrypt(getBody(t, sealed), key)
	if err != nil {
		t.Fatal(err)
	}
	var get map[string]json.RawMessage
	if err := json.Unmarshal(out, &get); err != nil {
		t.Fatal(err)
	}
	if string(get["status"]) != `"completed"` {
		t.Fatalf("status = %s", get["status"])
	}
	assertPlain(t, get["result"])
}

func TestDecryptPassphrase(t *testing.T) {
	pk := passphraseKey(t, "correct horse battery staple")
	key := Passphrase("correct horse battery staple")
	// Two results for the same key: the second reuses the derived key.
	for range 2 {
		out, err := Decrypt(seal(t)(e2ee.NewPassphraseSession(pk)), key)
		if err != nil {
			t.Fatal(err)
		}
		assertPlain(t, out)
	}
}

func TestDecryptErrors(t *testing.T) {
	priv, _ := rsaPEM(t)
	_, otherPEM := rsaPEM(t)
	other, err := PrivateKey(otherPEM)
	if err != nil {
		t.Fatal(err)
	}
	custom := seal(t)(e2ee.NewCustomSession(&priv.PublicKey, "ops"))
	pass := seal(t)(e2ee.NewPassphraseSession(passphraseKey(t, "correct horse battery staple")))
	for _, tc := range []struct {
		name    string
		payload []byte
		key     Key
		want    error
	}{
		{"wrong private key", custom, other, ErrWrongKey},
		{"wrong private key, GET body", getBody(t, custom), other, ErrWrongKey},
		{"wrong passphrase", pass, Passphrase("correct horse battery stapler"), ErrWrongPassphrase},
		{"private key for passphrase result", pass, other, ErrUnsupportedAlgorithm},
		{"plaintext result", []byte(plainResult), other, ErrNotEncrypted},
		{"pending GET body", []byte(`{"status":"pending"}`), other, ErrNotEncrypted},
		{"not JSON", []byte(`{"encryption":`), other, ErrMalformed},
		{"JSON array", []byte(`[1]`), other, ErrMalformed},
		{"zero key", custom, Key{}, ErrMalformed},
	} {
		out, err := Decrypt(tc.payload, tc.key)
		if !errors.Is(err, tc.want) || out != nil {
			t.Errorf("%s: %v (output %d bytes), want %v", tc.name, err, len(out), tc.want)
		}
	}
	if _, err := PrivateKey([]byte("-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n")); !errors.Is(err, ErrMalformed) {
		t.Errorf("PrivateKey(public PEM) = %v", err)
	}
}

// FuzzDecrypt: arbitrary bodies (webhook or GET shape) never panic, every
// error is one of the exported ones, and output is only ever a JSON object.
func FuzzDecrypt(f *testing.F) {
	priv, pemBytes := rsaPEM(f)
	key, err := PrivateKey(pemBytes)
	if err != nil {
		f.Fatal(err)
	}
	s, err := e2ee.NewCustomSession(&priv.PublicKey, "ops")
	if err != nil {
		f.Fatal(err)
	}
	sealed, err := s.SealPayload([]byte(plainResult))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sealed)
	f.Add([]byte(`{"status":"completed","result":` + string(sealed) + `}`))
	f.Add([]byte(`{"status":"pending"}`))
	exported := []error{ErrNotEncrypted, ErrWrongPassphrase, ErrWrongKey, ErrAuthentication, ErrMalformed,
		ErrUnsupportedVersion, ErrUnsupportedAlgorithm}
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := Decrypt(body, key)
		if err != nil {
			for _, e := range exported {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("unexported error: %v", err)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(out, &obj) != nil || obj == nil {
			t.Fatalf("output is not a JSON object: %.200s", out)
		}
	})
}
