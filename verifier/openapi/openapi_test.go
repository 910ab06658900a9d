package openapi

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
)

func TestDocumentIsValidOpenAPI3(t *testing.T) {
	doc, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/auth", "/me", "/integration-key", "/healthz", "/readyz", "/metrics", "/openapi.json",
		"/verification", "/create-verification", "/verification/cancel", "/verifications", "/quota",
		"/templates", "/templates/{id}", "/passphrase-keys", "/passphrase-keys/{id}", "/v/{token}"} {
		if doc.Paths.Value(p) == nil {
			t.Errorf("path %s missing", p)
		}
	}
}

// TestErrorCodesMatchTheTable keeps the documented code enum equal to the
// codes the server can send.
func TestErrorCodesMatchTheTable(t *testing.T) {
	doc, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	enum := doc.Components.Schemas["Error"].Value.Properties["error"].Value.Properties["code"].Value.Enum
	documented := map[string]bool{}
	for _, c := range enum {
		documented[c.(string)] = true
	}
	for code := range httperr.Codes() {
		if !documented[string(code)] {
			t.Errorf("code %s not documented", code)
		}
		delete(documented, string(code))
	}
	for c := range documented {
		t.Errorf("documented code %s does not exist", c)
	}
}

func TestValidatorRejectsDrift(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	h := map[string][]string{"Content-Type": {"application/json"}}
	req := httptest.NewRequest("GET", "/me", nil)
	good := `{"id":"0b9f5e7c-2f3a-4d1e-8c6b-5a4f3e2d1c0b","email":"a@example.com","created_at":"2026-11-22T04:20:00Z","livemode":true,` +
		`"branding":{"display_name":null,"accent_color":null,"support_contact":null,"privacy_policy_url":null,"logo":null}}`
	if err := v.Response(req, 200, h, []byte(good)); err != nil {
		t.Fatalf("conforming response refused: %v", err)
	}
	drifted := map[string]struct {
		status int
		body   string
	}{
		"extra field":         {200, strings.TrimSuffix(good, "}") + `,"password_hash":"x"}`},
		"missing field":       {200, `{"id":"0b9f5e7c-2f3a-4d1e-8c6b-5a4f3e2d1c0b","email":"a@example.com"}`},
		"undocumented status": {418, `{"error":{"code":"INTERNAL","message":"x"}}`},
		"unknown error code":  {401, `{"error":{"code":"NOPE","message":"x"}}`},
		"not the error shape": {401, `{"message":"x"}`},
	}
	for name, d := range drifted {
		if err := v.Response(req, d.status, h, []byte(d.body)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if err := v.Response(httptest.NewRequest("GET", "/nowhere", nil), 200, h, []byte(`{}`)); err == nil {
		t.Error("undocumented path accepted")
	}
	left := map[string]bool{}
	for _, op := range v.Unexercised() {
		left[op] = true
	}
	if left["GET /me"] || !left["POST /auth"] {
		t.Errorf("unexercised: %v", left)
	}
	var any map[string]any
	if err := json.Unmarshal(Document(), &any); err != nil || any["openapi"] != "3.0.3" {
		t.Errorf("served document: %v", err)
	}
}
