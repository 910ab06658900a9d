package http

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/address/lob"
	"github.com/idgate/idgate/verifier/address/lob/lobtest"
)

// TestFlowAddressVerification: a link that asks for address verification
// has the license's address checked by Lob (the double, every call checked
// against Lob's OpenAPI document) at completion: address_deliverable from
// Lob, the name members null (Lob does not match names), and only the
// address sent. When Lob fails the member is absent, not false; a link
// that did not ask never calls Lob.
func TestFlowAddressVerification(t *testing.T) {
	d, err := lobtest.New(lobtest.Options{Dir: testkit.Data(t, "testdata", "lob"), APIKey: "live_flowtest",
		OnViolation: func(m string) { t.Error(m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	c, err := lob.New(lob.Config{APIKey: "live_flowtest", BaseURL: d.URL})
	if err != nil {
		t.Fatal(err)
	}
	h := newFlowHarness(t, openSQLite, func(dp *Deps) { dp.Flow.Address = c })
	result := func(id string) map[string]json.RawMessage {
		t.Helper()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(h.get(h.bearer, id).Result, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	v, tok := h.link(`{"address_verification":true}`)
	lic := h.steps(tok, frontPhoto(t, foremanFace(t), 1))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	if got := string(result(v.ID)["address_verification"]); got != `{"address_deliverable":true,"name_at_address":null,"last_name_at_address":null}` {
		t.Errorf("address_verification %s", got)
	}
	reqs := d.Requests()
	if len(reqs) != 1 || reqs[0]["primary_line"] != lic.Address.Line1 || reqs[0]["recipient"] != nil {
		t.Fatalf("Lob got %v; want the license's address %q and no name", reqs, lic.Address.Line1)
	}
	for _, v := range reqs[0] {
		if s, _ := v.(string); s != "" && (strings.Contains(s, lic.FirstNames) || strings.Contains(s, lic.LastName)) {
			t.Errorf("a name went to Lob: %v", reqs[0])
		}
	}

	d.Set(lic.Address.Line1, "undeliverable")
	v, tok = h.link(`{"address_verification":true}`)
	h.steps(tok, frontPhoto(t, foremanFace(t), 2))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	if got := string(result(v.ID)["address_verification"]); !strings.HasPrefix(got, `{"address_deliverable":false`) {
		t.Errorf("undeliverable: address_verification %s", got)
	}

	d.FailNext(500)
	v, tok = h.link(`{"address_verification":true}`)
	h.steps(tok, frontPhoto(t, foremanFace(t), 3))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	if got, ok := result(v.ID)["address_verification"]; ok {
		t.Errorf("Lob down: address_verification %s, want absent", got)
	}

	v, tok = h.link(`{}`)
	h.steps(tok, frontPhoto(t, foremanFace(t), 4))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	if _, ok := result(v.ID)["address_verification"]; ok || len(d.Requests()) != 3 {
		t.Errorf("not requested: Lob called %d times in all, member present %v", len(d.Requests()), ok)
	}
}
