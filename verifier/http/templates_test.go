package http

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestTemplates: CRUD, inheritance at creation (explicit fields override,
// external_id never inherited), later edits never reach existing
// verifications, rules stored and returned but not enforced.
func TestTemplates(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		_, other := h.owner()

		body := `{"name":"Age 21+","requested_fields":["dob"],"encryption_key_mode":"none","webhook_url":"https://hooks.example.com/t",
			"webhook_headers":{"X-Secret":"s"},"message":"Verify your age","lifetime_days":3,"rules":{"require_external_id":true,"require_message_change":true}}`
		r := h.do("POST", "/templates", body, "Authorization", bearer)
		var tpl templateResponse
		r.json(t, &tpl)
		if r.status != 201 || tpl.Name != "Age 21+" || !tpl.Rules.RequireExternalID || !tpl.Rules.RequireMessageChange ||
			*tpl.LifetimeDays != 3 || (*tpl.RequestedFields)[0] != "dob" || tpl.PhoneVerification != nil {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		// external_id is not a template field.
		codes := validationCodes(t, h.do("POST", "/templates", `{"name":"x","external_id":"ref"}`, "Authorization", bearer))
		if codes["external_id"] != "unknown_field" {
			t.Fatalf("%v", codes)
		}
		for _, u := range []string{"https://127.1/", "https://0177.0.0.1/", "https://[64:ff9b::a9fe:a9fe]/", "https://metadata.google.internal/"} {
			codes = validationCodes(t, h.do("POST", "/templates", `{"name":"t","webhook_url":"`+u+`"}`, "Authorization", bearer))
			if len(codes) != 1 || codes["webhook_url"] != "private_address" {
				t.Fatalf("%s: %v", u, codes)
			}
		}
		codes = validationCodes(t, h.do("POST", "/templates", `{"name":"","webhook_url":"http://x.example","encryption_key_mode":"shared","lifetime_days":100}`, "Authorization", bearer))
		if len(codes) != 4 || codes["name"] != "out_of_range" || codes["webhook_url"] != "must_be_https" || codes["encryption_key_mode"] != "legacy_mode" || codes["lifetime_days"] != "out_of_range" {
			t.Fatalf("%v", codes)
		}
		for _, name := range []string{`a\u0000b`, `x\u001b[2J\u0007`, `two\nlines`} {
			codes = validationCodes(t, h.do("POST", "/templates", `{"name":"`+name+`"}`, "Authorization", bearer))
			if len(codes) != 1 || codes["name"] != "control_character" {
				t.Fatalf("name %s: %v", name, codes)
			}
		}
		// A template may leave the mode to its requests.
		h.clock.Advance(time.Second)
		r = h.do("POST", "/templates", `{"name":"Photo","include_license_photo":true}`, "Authorization", bearer)
		var photo templateResponse
		r.json(t, &photo)
		if r.status != 201 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		validationCodes(t, h.do("POST", "/verification", `{"template_id":"`+photo.ID+`"}`, "Authorization", bearer))
		if v := h.create(bearer, `{"template_id":"`+photo.ID+`","encryption_key_mode":"none"}`); v.Type != verifier.TypeFull {
			t.Fatalf("%+v", v)
		}

		// Inheritance: omitted fields come from the template; explicit override.
		inherited := h.create(bearer, `{"template_id":"`+tpl.ID+`"}`)
		overridden := h.create(bearer, `{"template_id":"`+tpl.ID+`","requested_fields":[],"message":"Hello","lifetime_days":10,"external_id":"order-9"}`)
		si, _ := h.srv.verifications.Get(t.Context(), a.ID, inherited.ID)
		so, _ := h.srv.verifications.Get(t.Context(), a.ID, overridden.ID)
		if inherited.Type != verifier.TypeFull || inherited.TemplateID != tpl.ID || !inherited.ExpiresAt.Equal(inherited.CreatedAt.AddDate(0, 0, 3)) ||
			si.Message != "Verify your age" || si.WebhookURL != "https://hooks.example.com/t" || si.WebhookHeaders["X-Secret"] != "s" || si.ExternalID != "" {
			t.Fatalf("inherited: %+v %+v", inherited, si)
		}
		if overridden.Type != verifier.TypeCore || so.Message != "Hello" || !overridden.ExpiresAt.Equal(overridden.CreatedAt.AddDate(0, 0, 10)) || so.ExternalID != "order-9" {
			t.Fatalf("overridden: %+v %+v", overridden, so)
		}
		// Rules are not enforced: no external_id and the template's message.
		if inherited.ExternalID != "" {
			t.Fatal("external_id inherited")
		}

		// Saving a private webhook target is refused and changes nothing.
		if codes := validationCodes(t, h.do("PUT", "/templates/"+tpl.ID, `{"name":"x","webhook_url":"https://[::1]/"}`, "Authorization", bearer)); codes["webhook_url"] != "private_address" {
			t.Fatalf("PUT private webhook: %v", codes)
		}
		// Replace: existing verifications keep what they copied.
		r = h.do("PUT", "/templates/"+tpl.ID, `{"name":"Renamed","message":"New text","lifetime_days":30}`, "Authorization", bearer)
		var replaced templateResponse
		r.json(t, &replaced)
		if r.status != 200 || replaced.Name != "Renamed" || replaced.RequestedFields != nil || replaced.Rules.RequireExternalID || !replaced.CreatedAt.Equal(tpl.CreatedAt) {
			t.Fatalf("replace: %d %s", r.status, r.body)
		}
		after, _ := h.srv.verifications.Get(t.Context(), a.ID, inherited.ID)
		if after.Message != "Verify your age" || after.Type != verifier.TypeFull || string(after.Options) != string(si.Options) {
			t.Fatalf("template edit reached a verification: %+v", after)
		}
		if v := h.create(bearer, `{"template_id":"`+tpl.ID+`"}`); v.Type != verifier.TypeCore || !v.ExpiresAt.Equal(v.CreatedAt.AddDate(0, 0, 30)) {
			t.Fatalf("new verification from the replaced template: %+v", v)
		}

		// Read and list; another account sees nothing.
		r = h.do("GET", "/templates/"+tpl.ID, "", "Authorization", bearer)
		if r.status != 200 || !strings.Contains(string(r.body), `"Renamed"`) {
			t.Fatalf("get: %d %s", r.status, r.body)
		}
		var list struct{ Items []templateResponse }
		h.do("GET", "/templates", "", "Authorization", bearer).json(t, &list)
		if len(list.Items) != 2 || list.Items[0].ID != tpl.ID || list.Items[1].ID != photo.ID {
			t.Fatalf("list %+v", list)
		}
		h.do("GET", "/templates", "", "Authorization", other).json(t, &list)
		if len(list.Items) != 0 {
			t.Fatal("another account lists the templates")
		}
		expectError(t, h.do("GET", "/templates/"+tpl.ID, "", "Authorization", other), 404, httperr.NotFound)
		expectError(t, h.do("PUT", "/templates/"+tpl.ID, `{"name":"x"}`, "Authorization", other), 404, httperr.NotFound)
		expectError(t, h.do("DELETE", "/templates/"+tpl.ID, "", "Authorization", other), 404, httperr.NotFound)
		validationCodes(t, h.do("POST", "/verification", `{"template_id":"`+tpl.ID+`"}`, "Authorization", other))
		expectError(t, h.do("GET", "/templates", "", "X-API-Key", "idgk_x"), 403, httperr.Forbidden)

		// Delete: verifications keep their settings, lose the reference.
		if r := h.do("DELETE", "/templates/"+tpl.ID, "", "Authorization", bearer); r.status != 204 {
			t.Fatalf("delete: %d", r.status)
		}
		expectError(t, h.do("GET", "/templates/"+tpl.ID, "", "Authorization", bearer), 404, httperr.NotFound)
		if g := h.get(bearer, inherited.ID); g.TemplateID != "" || g.Type != verifier.TypeFull {
			t.Fatalf("after template delete: %+v", g)
		}
		var raw map[string]json.RawMessage
		h.do("GET", "/templates/"+photo.ID, "", "Authorization", bearer).json(t, &raw)
		if _, ok := raw["rules"]; !ok {
			t.Fatal("rules missing from a template without rules")
		}
	})
}
