package http

import (
	"fmt"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// signInMode is signIn asking for a token of mode ("live" or "test").
func (h *harness) signInMode(email, mode string) string {
	h.t.Helper()
	r := h.do("POST", "/auth", fmt.Sprintf(`{"email":%q,"password":"correct horse battery staple","mode":%q}`, email, mode))
	if r.status != 200 {
		h.t.Fatalf("sign in (%s): %d %s", mode, r.status, r.body)
	}
	var out struct {
		AccessToken string `json:"access_token"`
		Livemode    bool   `json:"livemode"`
	}
	r.json(h.t, &out)
	if out.Livemode != (mode == "live") {
		h.t.Fatalf("sign in (%s) answered livemode %v", mode, out.Livemode)
	}
	return "Bearer " + out.AccessToken
}

// TestTestModeIsolation: test credentials (a test-mode token, the test
// integration key) create test verifications that use no allowance, and
// neither mode's credentials reach the other mode's verifications through
// any endpoint that names one or lists them (docs/test-mode.md).
func TestTestModeIsolation(t *testing.T) {
	onBothBackends(t, testTestModeIsolation)
}

func testTestModeIsolation(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	store := open(t)
	h := newHarnessOn(t, store, func(d *Deps) {
		d.Config.Plan = verifier.Plan{verifier.TypeCore: 1, verifier.TypeBasic: 0, verifier.TypeFull: 0}
		d.Config.Dev = true // integration keys from http://localhost origins
		d.Webhooks = WebhookDeps{Queue: store}
		d.Flow = &flow.Flow{Store: store, Verifications: store, Now: d.Now}
	})
	a, live := h.owner()
	test := h.signInMode(a.Email, "test")

	var me accountResponse
	r := h.do("GET", "/me", "", "Authorization", test)
	r.json(t, &me)
	if r.status != 200 || me.Livemode {
		t.Fatalf("GET /me with a test token: %d %s", r.status, r.body)
	}
	expectError(t, h.do("POST", "/auth", fmt.Sprintf(`{"email":%q,"password":"x","mode":"sandbox"}`, a.Email)),
		422, httperr.ValidationFailed)

	// The live allowance is one core verification; test creates are beyond it.
	lv := h.create(live, `{}`)
	expectError(t, h.do("POST", "/verification", `{}`, "Authorization", live), 402, httperr.QuotaExceeded)
	var tvs []verificationResponse
	for range 3 {
		tvs = append(tvs, h.create(test, `{"external_id":"ci-run-1"}`))
	}
	if !lv.Livemode || tvs[0].Livemode {
		t.Fatalf("livemode: live create %v, test create %v", lv.Livemode, tvs[0].Livemode)
	}
	var q quotaResponse
	h.do("GET", "/quota", "", "Authorization", live).json(t, &q)
	if used := q.Allowances[verifier.TypeCore].Used; used != 1 {
		t.Errorf("core used %d with one live and three test verifications; want 1", used)
	}

	// Reads by id: each mode sees its own, the other's is 404.
	if got := h.get(test, tvs[0].ID); got.Livemode || got.ID != tvs[0].ID {
		t.Errorf("test GET %+v", got)
	}
	if got := h.get(live, lv.ID); !got.Livemode {
		t.Errorf("live GET %+v", got)
	}
	cross := []struct {
		bearer, id, who string
	}{{live, tvs[0].ID, "live token, test verification"}, {test, lv.ID, "test token, live verification"}}
	for _, c := range cross {
		for _, req := range []struct{ method, path, body string }{
			{"GET", "/verification?id=" + c.id, ""},
			{"POST", "/verification/cancel?id=" + c.id, ""},
			{"POST", "/verification/review?id=" + c.id, `{"approved":true}`},
			{"POST", "/verification/purge?id=" + c.id, ""},
			{"GET", "/verification/webhook/deliveries?id=" + c.id, ""},
			{"POST", "/verification/webhook/retry?id=" + c.id, ""},
			{"DELETE", "/verification?id=" + c.id, ""},
		} {
			r := h.do(req.method, req.path, req.body, "Authorization", c.bearer)
			if r.status != 404 {
				t.Errorf("%s: %s %s = %d %s; want 404", c.who, req.method, req.path, r.status, r.body)
			}
		}
	}
	// Nothing above changed either: the live one is still pending.
	if got := h.get(live, lv.ID); got.Status != verifier.StatusPending {
		t.Errorf("live verification is %s after the test token's attempts", got.Status)
	}
	if got := h.get(test, tvs[0].ID); got.Status != verifier.StatusPending {
		t.Errorf("test verification is %s after the live token's attempts", got.Status)
	}

	// Lists are apart.
	list := func(bearer, query string) []string {
		var l verificationList
		r := h.do("GET", "/verifications"+query, "", "Authorization", bearer)
		if r.status != 200 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		r.json(t, &l)
		var ids []string
		for _, v := range l.Items {
			ids = append(ids, v.ID)
		}
		return ids
	}
	if ids := list(live, ""); len(ids) != 1 || ids[0] != lv.ID {
		t.Errorf("live list %v; want only %s", ids, lv.ID)
	}
	if ids := list(test, "?external_id=ci-run-1"); len(ids) != 3 {
		t.Errorf("test list %v; want the three test verifications", ids)
	}
	if ids := list(live, "?external_id=ci-run-1"); len(ids) != 0 {
		t.Errorf("live list by the test runs' external_id: %v", ids)
	}

	// Each mode changes its own: the test token cancels and deletes test ones.
	if r := h.do("POST", "/verification/cancel?id="+tvs[1].ID, "", "Authorization", test); r.status != 200 {
		t.Errorf("test cancel: %d %s", r.status, r.body)
	}
	if r := h.do("DELETE", "/verification?id="+tvs[2].ID, "", "Authorization", test); r.status != 204 {
		t.Errorf("test delete: %d %s", r.status, r.body)
	}

	// Integration keys: one per mode, each with its own allowlist; the
	// test key creates test verifications, the live key live ones.
	var tk, lk integrationKeyResponse
	r = h.do("POST", "/integration-key", `{"allowed_domains":["localhost:8082"]}`, "Authorization", test)
	if r.status != 201 {
		t.Fatalf("test key: %d %s", r.status, r.body)
	}
	r.json(t, &tk)
	if !strings.HasPrefix(tk.Key, verifier.TestIntegrationKeyPrefix) || tk.Livemode || !strings.HasPrefix(tk.Prefix, "idgk_test_") {
		t.Fatalf("test key %+v", tk)
	}
	expectError(t, h.do("GET", "/integration-key", "", "Authorization", live), 404, httperr.NotFound)
	h.do("POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`, "Authorization", live).json(t, &lk)
	if strings.HasPrefix(lk.Key, verifier.TestIntegrationKeyPrefix) || !lk.Livemode {
		t.Fatalf("live key %+v", lk)
	}
	var got integrationKeyResponse
	h.do("GET", "/integration-key", "", "Authorization", test).json(t, &got)
	if got.ID != tk.ID || len(got.AllowedDomains) != 1 || got.AllowedDomains[0] != "localhost:8082" {
		t.Errorf("test key after the live key's generation: %+v", got)
	}
	byKey := func(key, origin string) response {
		return h.do("POST", "/verification", `{}`, "X-API-Key", key, "Origin", origin)
	}
	r = byKey(tk.Key, "http://localhost:8082")
	var kv verificationResponse
	r.json(t, &kv)
	if r.status != 201 || kv.Livemode {
		t.Fatalf("create with the test key: %d %s", r.status, r.body)
	}
	expectError(t, byKey(tk.Key, "https://shop.example.com"), 403, httperr.OriginNotAllowed)
	// The live key is on its allowance (used up above).
	expectError(t, byKey(lk.Key, "https://shop.example.com"), 402, httperr.QuotaExceeded)
	expectError(t, h.do("GET", "/verification?id="+kv.ID, "", "Authorization", live), 404, httperr.NotFound)
	if got := h.get(test, kv.ID); got.Livemode {
		t.Errorf("the test key's verification read back as live")
	}
	// Revoking the test key leaves the live key.
	if r := h.do("DELETE", "/integration-key", "", "Authorization", test); r.status != 204 {
		t.Fatalf("revoke test key: %d %s", r.status, r.body)
	}
	expectError(t, byKey(tk.Key, "http://localhost:8082"), 401, httperr.Unauthenticated)
	if r := h.do("GET", "/integration-key", "", "Authorization", live); r.status != 200 {
		t.Errorf("live key after the test key's revocation: %d %s", r.status, r.body)
	}
}
