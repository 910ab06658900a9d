package http

import (
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	addressdev "github.com/idgate/idgate/verifier/address/dev"
	"github.com/idgate/idgate/verifier/flow"
	phonedev "github.com/idgate/idgate/verifier/phone/dev"
)

// TestFlowDemoIndicators: a live link asking for every indicator, walked
// on make run's providers (the dev phone provider, whose code is read from
// the log as a developer does; the dev address stand-in; the dev
// subscriber records; IP intelligence on the connection's address), ends
// with every member computed by the real checks: phone_verification
// verified, address_verification deliverable with the names of the dev
// rule for the number's last digit, ip_found and location_consistency.
func TestFlowDemoIndicators(t *testing.T) {
	var logs testkit.LogBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ph, err := phonedev.New("dev", log)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := addressdev.New("dev", log)
	if err != nil {
		t.Fatal(err)
	}
	h := newFlowHarness(t, openSQLite, func(d *Deps) {
		d.Config.TrustedProxies = []string{"127.0.0.1"}
		d.Flow.Phone, d.Flow.Address, d.Flow.Subscribers, d.Flow.Log = ph, addr, ph, log
	})
	h.fwd = "203.0.113.9" // located by testIPIntel, as IDGATE_DEV_CLIENT_IP is by the IP data
	v, tok := h.link(`{"phone_verification":true,"address_verification":true,"location_consistency":true,"encryption_key_mode":"none"}`)
	lic := h.steps(tok, frontPhoto(t, foremanFace(t), 1))
	h.ok(h.sendCode(tok, "+1 201 555 0127"), 200, nil)
	m := regexp.MustCompile(`code=([0-9]{6})`).FindAllStringSubmatch(logs.String(), -1)
	if len(m) != 1 {
		t.Fatalf("the dev provider logged %d codes:\n%s", len(m), logs.String())
	}
	var ans flow.PhoneCheckAnswer
	h.ok(h.enterCode(tok, m[0][1]), 200, &ans)
	if !ans.Verified {
		t.Fatalf("the logged code: %+v", ans)
	}
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	var res struct {
		Verification struct {
			IPFound *bool `json:"ip_found"`
		} `json:"verification"`
		Phone    map[string]any  `json:"phone_verification"`
		Address  json.RawMessage `json:"address_verification"`
		Location map[string]any  `json:"location_consistency"`
	}
	if err := json.Unmarshal(h.get(h.bearer, v.ID).Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Phone["phone_verified"] != true || res.Phone["last_3_digits"] != "127" {
		t.Errorf("phone_verification %v", res.Phone)
	}
	// The number ends in 7: the dev record is a household member's.
	if got := string(res.Address); got != `{"address_deliverable":true,"name_at_address":false,"last_name_at_address":true}` {
		t.Errorf("address_verification %s", got)
	}
	if res.Verification.IPFound == nil || !*res.Verification.IPFound || res.Location["result"] == nil || res.Location["granularity"] == nil {
		t.Errorf("ip_found %v, location_consistency %v", res.Verification.IPFound, res.Location)
	}
	if out := logs.String(); strings.Contains(out, lic.LastName) || strings.Contains(out, lic.Address.Line1) {
		t.Errorf("the log carries the name or the address:\n%s", out)
	}
}
