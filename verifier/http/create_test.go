package http

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestCreateVerification: both paths and both auth methods give the same
// answer; the url carries a 256-bit token distinct from the id whose hash
// alone is stored; defaults apply.
func TestCreateVerification(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t), func(d *Deps) { d.Config.Dev = true })
		a, bearer := h.owner()
		r := h.do("POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`, "Authorization", bearer)
		var key integrationKeyResponse
		r.json(t, &key)

		body := `{"external_id":"order-10423","requested_fields":["first_names","last_name"],"encryption_key_mode":"none","webhook_url":"https://hooks.example.com/x","webhook_headers":{"X-Shop":"42"},"message":"Hi"}`
		var got []verificationResponse
		for _, c := range []struct{ path, header, value string }{
			{"/verification", "Authorization", bearer},
			{"/create-verification", "Authorization", bearer},
			{"/verification", "X-API-Key", key.Key},
			{"/create-verification", "X-API-Key", key.Key},
		} {
			r := h.do("POST", c.path, body, c.header, c.value, "Origin", "https://shop.example.com")
			if r.status != 201 || r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%s via %s: %d %s", c.path, c.header, r.status, r.body)
			}
			var v verificationResponse
			r.json(t, &v)
			got = append(got, v)
		}
		seen := map[string]bool{}
		for _, v := range got {
			tok := token(t, v)
			if !verifier.WellFormedLinkToken(tok) || strings.Contains(v.URL, v.ID) || seen[tok] || seen[v.ID] {
				t.Fatalf("url %q for id %s", v.URL, v.ID)
			}
			seen[tok], seen[v.ID] = true, true
			if v.Status != verifier.StatusPending || v.Type != verifier.TypeBasic || v.ExternalID != "order-10423" ||
				!v.CreatedAt.Equal(t0) || !v.ExpiresAt.Equal(t0.AddDate(0, 0, 14)) || v.StartedAt != nil || v.Result != nil {
				t.Fatalf("%+v", v)
			}
			stored, err := h.srv.verifications.Store.GetVerificationByTokenHash(t.Context(), verifier.HashLinkToken(tok))
			if err != nil || stored.ID != v.ID || stored.AccountID != a.ID || stored.LifetimeDays != 14 || stored.Message != "Hi" ||
				stored.WebhookURL != "https://hooks.example.com/x" || stored.WebhookHeaders["X-Shop"] != "42" {
				t.Fatalf("stored %+v %v", stored, err)
			}
			if strings.Contains(string(stored.Options), tok) {
				t.Fatal("token stored in options")
			}
		}
		// Same members for both auth methods.
		k0, k2 := keysOf(t, got[0]), keysOf(t, got[2])
		if k0 != k2 {
			t.Fatalf("bearer answer %s, key answer %s", k0, k2)
		}
		// An empty body is a Core verification with every default.
		v := h.create(bearer, "")
		if v.Type != verifier.TypeCore || !v.ExpiresAt.Equal(t0.AddDate(0, 0, 14)) {
			t.Fatalf("empty body: %+v", v)
		}
		v = h.create(bearer, `{"lifetime_days":90}`)
		if !v.ExpiresAt.Equal(t0.AddDate(0, 0, 90)) {
			t.Fatalf("lifetime 90: %+v", v)
		}
	})
}

func keysOf(t *testing.T, v verificationResponse) string {
	t.Helper()
	b, _ := json.Marshal(v)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// TestCreateValidation: one details entry per problem, for every rule.
func TestCreateValidation(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		_, bearer := h.owner()
		weak, strong := rsaPEM(t, 1024), rsaPEM(t, 2048)
		js := func(s string) string { b, _ := json.Marshal(s); return string(b) }

		// Many problems at once: every one reported, each once.
		all := h.do("POST", "/verification", `{
			"webhook_url":"http://hooks.example.com/x",
			"webhook_headers":{"Host":"evil","Connection":"close","X-Ok":"1"},
			"lifetime_days":0,
			"requested_fields":["dob","shoe_size"],
			"external_id":"jane@example.com",
			"message":`+js(strings.Repeat("m", 1001))+`}`, "Authorization", bearer)
		codes := validationCodes(t, all)
		want := map[string]string{
			"webhook_url": "must_be_https", "webhook_headers.Host": "reserved_header", "webhook_headers.Connection": "reserved_header",
			"lifetime_days": "out_of_range", "requested_fields[1]": "unknown_field_name", "external_id": "looks_like_personal_data",
			"message": "too_long", "encryption_key_mode": "required",
		}
		if fmt.Sprint(codes) != fmt.Sprint(want) {
			t.Fatalf("details\n got %v\nwant %v", codes, want)
		}

		cases := []struct {
			name, body, field, code string
		}{
			{"lifetime 91", `{"lifetime_days":91}`, "lifetime_days", "out_of_range"},
			{"lifetime string", `{"lifetime_days":"7"}`, "lifetime_days", "wrong_type"},
			{"field not a string", `{"requested_fields":["dob",1],"encryption_key_mode":"none"}`, "requested_fields[1]", "wrong_type"},
			{"field an object", `{"requested_fields":["dob",{}],"encryption_key_mode":"none"}`, "requested_fields[1]", "wrong_type"},
			{"webhook not a URL", `{"webhook_url":"hooks"}`, "webhook_url", "invalid_url"},
			{"too many requested fields", `{"encryption_key_mode":"none","requested_fields":[` + strings.Repeat(`"dob",`, 500) + `"dob"]}`, "requested_fields", "too_many"},
			{"webhook loopback", `{"webhook_url":"https://127.0.0.1/"}`, "webhook_url", "private_address"},
			{"webhook metadata", `{"webhook_url":"https://169.254.169.254/latest/meta-data/"}`, "webhook_url", "private_address"},
			{"webhook mapped", `{"webhook_url":"https://[::ffff:127.0.0.1]/"}`, "webhook_url", "private_address"},
			{"webhook hex", `{"webhook_url":"https://0x7f000001/"}`, "webhook_url", "private_address"},
			{"webhook decimal", `{"webhook_url":"https://2130706433/"}`, "webhook_url", "private_address"},
			{"webhook metadata name", `{"webhook_url":"https://metadata.google.internal/"}`, "webhook_url", "private_address"},
			{"webhook localhost", `{"webhook_url":"https://localhost:8443/"}`, "webhook_url", "private_address"},
			{"external_id invalid UTF-8", "{\"external_id\":\"\xff\xfe\xc0\xaf\"}", "external_id", "invalid_utf8"},
			{"lone surrogate", `{"message":"\ud800"}`, "message", "invalid_utf8"},
			{"message NUL", `{"message":"hi\u0000there"}`, "message", "control_character"},
			{"message terminal escape", `{"message":"\u001b[2J\u0007"}`, "message", "control_character"},
			{"duplicate key", `{"external_id":"a","external_id":"b"}`, "external_id", "duplicate_key"},
			{"nested duplicate key", `{"webhook_headers":{"X-A":"1","X-A":"2"}}`, "webhook_headers.X-A", "duplicate_key"},
			{"too many headers", `{"webhook_headers":{` + manyHeaders(21) + `}}`, "webhook_headers", "too_many_headers"},
			{"header with newline", `{"webhook_headers":{"X-A":"a\r\nX-B: b"}}`, "webhook_headers.X-A", "invalid_header_value"},
			{"external_id phone", `{"external_id":"+1 555 123 4567"}`, "external_id", "looks_like_personal_data"},
			{"external_id dashed phone", `{"external_id":"555-123-4567"}`, "external_id", "looks_like_personal_data"},
			{"external_id name", `{"external_id":"Jane Doe"}`, "external_id", "looks_like_personal_data"},
			{"external_id too long", `{"external_id":"` + strings.Repeat("a", 129) + `"}`, "external_id", "out_of_range"},
			{"external_id empty", `{"external_id":""}`, "external_id", "out_of_range"},
			{"duplicate field", `{"requested_fields":["dob","dob"],"encryption_key_mode":"none"}`, "requested_fields[1]", "duplicate"},
			{"shared mode", `{"requested_fields":["dob"],"encryption_key_mode":"shared"}`, "encryption_key_mode", "legacy_mode"},
			{"unknown mode", `{"requested_fields":["dob"],"encryption_key_mode":"rot13"}`, "encryption_key_mode", "invalid_value"},
			{"custom without key", `{"requested_fields":["dob"],"encryption_key_mode":"custom"}`, "encryption_key", "required"},
			{"custom weak key", `{"requested_fields":["dob"],"encryption_key_mode":"custom","encryption_key":` + js(weak) + `}`, "encryption_key", "key_too_small"},
			{"custom not PEM", `{"requested_fields":["dob"],"encryption_key_mode":"custom","encryption_key":"ssh-rsa AAAA"}`, "encryption_key", "invalid_key"},
			{"passphrase unknown", `{"phone_verification":true,"encryption_key_mode":"passphrase","encryption_key":"6f1c2a7e-3b8d-4a55-9e0f-1d2c3b4a5f60"}`, "encryption_key", "unknown_key"},
			{"passphrase not a uuid", `{"include_license_photo":true,"encryption_key_mode":"passphrase","encryption_key":"x"}`, "encryption_key", "unknown_key"},
			{"none with a key", `{"requested_fields":["dob"],"encryption_key_mode":"none","encryption_key":"x"}`, "encryption_key", "not_allowed"},
			{"none with a key, no personal data", `{"encryption_key_mode":"none","encryption_key":"x"}`, "encryption_key", "not_allowed"},
			{"photo needs a mode", `{"include_license_photo":true}`, "encryption_key_mode", "required"},
			{"unknown template", `{"template_id":"6f1c2a7e-3b8d-4a55-9e0f-1d2c3b4a5f60"}`, "template_id", "unknown_template"},
			{"unknown member", `{"verification_type":"core"}`, "verification_type", "unknown_field"},
			{"null body", `null`, "body", "wrong_type"},
			{"array body", `[]`, "body", "wrong_type"},
			{"member in upper case", `{"LIFETIME_DAYS":7}`, "LIFETIME_DAYS", "unknown_field"},
			{"member twice, once in another case", `{"lifetime_days":7,"Lifetime_days":8}`, "Lifetime_days", "unknown_field"},
		}
		for _, c := range cases {
			codes := validationCodes(t, h.do("POST", "/verification", c.body, "Authorization", bearer))
			if len(codes) != 1 || codes[c.field] != c.code {
				t.Errorf("%s: details %v, want {%s: %s}", c.name, codes, c.field, c.code)
			}
		}

		// A private key pasted as the custom key: refused, and the message
		// tells its holder the key is exposed and how to send the public part.
		priv, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		privPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)}))
		e := expectError(t, h.do("POST", "/verification", `{"requested_fields":["dob"],"encryption_key_mode":"custom","encryption_key":`+js(privPEM)+`}`,
			"Authorization", bearer), 422, "VALIDATION_FAILED")
		if len(e.Details) != 1 || e.Details[0].Code != "invalid_key" || !strings.Contains(e.Details[0].Message, "private key") ||
			!strings.Contains(e.Details[0].Message, "-pubout") || !strings.Contains(e.Details[0].Message, "exposed") {
			t.Errorf("private key as custom key: %+v", e.Details)
		}

		// Accepted: a 2048-bit custom key; a bare digit run and a UUID as
		// external_id; a mode without personal data is ignored and stored as
		// none (shared is refused even then: it is never valid for new links).
		v := h.create(bearer, `{"requested_fields":["dob"],"encryption_key_mode":"custom","encryption_key":`+js(strong)+`,"encryption_key_name":"ops"}`)
		if v.Type != verifier.TypeFull {
			t.Fatalf("%+v", v)
		}
		h.create(bearer, `{"external_id":"5551234567"}`)
		h.create(bearer, `{"external_id":"3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b"}`)
		ignored := h.create(bearer, `{"encryption_key_mode":"custom"}`)
		stored, err := h.srv.verifications.Get(t.Context(), mustAccountID(t, h, bearer), ignored.ID)
		if err != nil || !strings.Contains(string(stored.Options), `"encryption_key_mode":"none"`) {
			t.Fatalf("mode without personal data not stored as none: %s %v", stored.Options, err)
		}
		validationCodes(t, h.do("POST", "/verification", `{"encryption_key_mode":"shared"}`, "Authorization", bearer))
		if r := h.do("POST", "/verification", `{"lifetime_days":`, "Authorization", bearer); r.status != 400 {
			t.Fatalf("malformed JSON: %d", r.status)
		}
	})
}

func manyHeaders(n int) string {
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, fmt.Sprintf(`"X-H%d":"v"`, i))
	}
	return strings.Join(parts, ",")
}

// mustAccountID resolves a bearer token's account through GET /me.
func mustAccountID(t *testing.T, h *harness, bearer string) string {
	t.Helper()
	var me accountResponse
	h.do("GET", "/me", "", "Authorization", bearer).json(t, &me)
	return me.ID
}

// TestCreateDerivesTypeOverHTTP spot-checks the derivation through the API
// (the full table is verifier.TestDeriveType).
func TestCreateDerivesTypeOverHTTP(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		_, bearer := h.owner()
		for body, want := range map[string]verifier.Type{
			`{}`:                            verifier.TypeCore,
			`{"location_consistency":true}`: verifier.TypeBasic,
			`{"requested_fields":["address_city"],"encryption_key_mode":"none"}`:                   verifier.TypeBasic,
			`{"requested_fields":["address_city","real_id"],"encryption_key_mode":"none"}`:         verifier.TypeFull,
			`{"address_verification":true}`:                                                        verifier.TypeFull,
			`{"phone_verification":true,"encryption_key_mode":"none","location_consistency":true}`: verifier.TypeFull,
		} {
			if v := h.create(bearer, body); v.Type != want {
				t.Errorf("%s: type %s, want %s", body, v.Type, want)
			}
		}
	})
}
