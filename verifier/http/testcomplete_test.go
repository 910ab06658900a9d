package http

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// testModeHarness is the server with the end-user flow (no engines: test
// links never reach them), the webhook worker and a TLS receiver, and an
// account signed in live and in test mode.
type testModeHarness struct {
	*harness
	worker     *webhook.Worker
	rcv        *webhooktest.Receiver
	live, test string // bearers
}

func newTestModeHarness(t *testing.T, open func(t *testing.T) *sqlstore.DB) *testModeHarness {
	t.Helper()
	store := open(t)
	sealer := seal.Ephemeral()
	h := &testModeHarness{}
	h.harness = newHarnessOn(t, store, func(d *Deps) {
		d.Flow = &flow.Flow{Store: store, Verifications: store, Sealer: flow.SealWith(sealer), Now: d.Now, Limits: flow.DefaultLimits}
		d.Webhooks = WebhookDeps{Queue: store}
		d.Config.WebhookAllowLoopback = true // the receiver listens on loopback
	})
	h.rcv = webhooktest.NewReceiver(t, webhooktest.Always(nethttp.StatusOK))
	h.worker = h.deliveryWorker(store, h.rcv, verifier.WebhookSecrets{Store: store, Sealer: sealer, Now: h.clock.Now})
	a, live := h.owner()
	h.live, h.test = live, h.signInMode(a.Email, "test")
	return h
}

// pick posts a test outcome to the link and returns the answer's status.
func (h *testModeHarness) pick(tok, body string, want int) string {
	h.t.Helper()
	r := h.do("POST", "/v/"+tok+"/test/complete", body)
	if r.status != want {
		h.t.Fatalf("test/complete %s: %d %s; want %d", body, r.status, r.body, want)
	}
	if want != 200 {
		return ""
	}
	var a flow.SubmitAnswer
	r.json(h.t, &a)
	return a.Status
}

// TestTestComplete: every outcome through POST /v/{token}/test/complete
// builds the result from the fixture identity through verifier.Complete:
// requested_fields and the license photo applied, livemode false, the
// webhook signed with the same bytes as GET, quotas untouched (docs/test-mode.md).
func TestTestComplete(t *testing.T) {
	onBothBackends(t, testTestComplete)
}

func testTestComplete(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newTestModeHarness(t, open)
	type want struct {
		status                              verifier.Status
		real, expired, over18, over21, live bool
		score, verdict                      string
	}
	ok := want{verifier.StatusCompleted, true, false, true, true, true, "definite_match", "true"}
	with := func(edit func(*want)) want { w := ok; edit(&w); return w }
	cases := map[flow.TestOutcome]want{
		flow.TestVerified:          ok,
		flow.TestLicenseExpired:    with(func(w *want) { w.expired = true }),
		flow.TestUnder18:           with(func(w *want) { w.over18, w.over21 = false, false }),
		flow.TestUnder21:           with(func(w *want) { w.over21 = false }),
		flow.TestLicenseNotGenuine: with(func(w *want) { w.real = false }),
		flow.TestLivenessFailed:    with(func(w *want) { w.live = false }),
		flow.TestLikelyMatch:       with(func(w *want) { w.score = "likely_match" }),
		flow.TestPossibleMatch:     with(func(w *want) { w.score, w.verdict = "possible_match", "false" }),
		flow.TestNoMatch:           with(func(w *want) { w.score, w.verdict = "no_match", "false" }),
		flow.TestManualReview: with(func(w *want) {
			w.status, w.score, w.verdict = verifier.StatusManualReview, "possible_match", `"undetermined"`
		}),
	}
	if len(cases) != len(flow.TestOutcomes)-1 { // inconclusive is TestTestCompleteReview's
		t.Fatalf("%d outcomes tested of %d", len(cases), len(flow.TestOutcomes))
	}
	deliveries := 0
	for outcome, w := range cases {
		v := h.create(h.test, fmt.Sprintf(`{"requested_fields":["first_names","last_name","dob","expiry_date"],
			"include_license_photo":true,"front_barcode_match":true,"encryption_key_mode":"none","webhook_url":%q,"external_id":"ci-%s"}`, h.rcv.URL, outcome))
		if got := h.pick(token(t, v), fmt.Sprintf(`{"outcome":%q}`, outcome), 200); got != string(w.status) {
			t.Fatalf("%s answered %s, want %s", outcome, got, w.status)
		}
		got := h.get(h.test, v.ID)
		if got.Status != w.status || got.Livemode || got.StartedAt == nil || got.CompletedAt == nil {
			t.Fatalf("%s: verification %+v", outcome, got)
		}
		var res struct {
			RequestID    string                     `json:"request_id"`
			ExternalID   string                     `json:"external_id"`
			Livemode     *bool                      `json:"livemode"`
			Verification map[string]json.RawMessage `json:"verification"`
			LicenseData  map[string]any             `json:"license_data"`
			LicensePhoto string                     `json:"license_photo"`
			Phone        json.RawMessage            `json:"phone_verification"`
		}
		if err := json.Unmarshal(got.Result, &res); err != nil {
			t.Fatal(err)
		}
		vb := func(name string) string { return string(res.Verification[name]) }
		if res.RequestID != v.ID || res.ExternalID != "ci-"+string(outcome) || res.Livemode == nil || *res.Livemode ||
			vb("license_appears_real") != fmt.Sprint(w.real) || vb("license_expired") != fmt.Sprint(w.expired) ||
			vb("over_18") != fmt.Sprint(w.over18) || vb("over_21") != fmt.Sprint(w.over21) ||
			vb("webcam_appears_live") != fmt.Sprint(w.live) || vb("face_match_score") != `"`+w.score+`"` ||
			vb("webcam_face_matches_license_photo") != w.verdict {
			t.Errorf("%s: result %s", outcome, got.Result)
		}
		// The fixture's front reads as its barcode: a match, every field.
		if m := vb("front_barcode_match"); !strings.HasPrefix(m, `{"result":"match"`) || strings.Contains(m, "unreadable") {
			t.Errorf("%s: front_barcode_match %s, want a match of every field", outcome, m)
		}
		if (w.status == verifier.StatusManualReview) != (vb("manual_review_requested") == "true") {
			t.Errorf("%s: manual_review_requested %q", outcome, vb("manual_review_requested"))
		}
		if len(res.LicenseData) != 4 || res.LicenseData["first_names"] != "ALEX" || res.LicenseData["last_name"] != "SAMPLE" {
			t.Errorf("%s: license_data %v; want exactly the four requested fields of the fixture", outcome, res.LicenseData)
		}
		if photo, err := base64.StdEncoding.DecodeString(res.LicensePhoto); err != nil || !bytes.HasPrefix(photo, []byte{0xFF, 0xD8, 0xFF}) {
			t.Errorf("%s: license_photo is not a base64 JPEG (%v)", outcome, err)
		}
		if res.Phone != nil || bytes.Contains(got.Result, []byte("location_consistency")) {
			t.Errorf("%s: phone_verification or location_consistency present though not requested", outcome)
		}
		// The webhook carries GET's result byte for byte, signed.
		deliveries++
		bodies := h.delivered(deliveries)
		if !bytes.Equal(bodies[len(bodies)-1], got.Result) {
			t.Errorf("%s: webhook body differs from GET's result", outcome)
		}
		// A retry answers the same; the live token does not see it.
		if again := h.pick(token(t, v), fmt.Sprintf(`{"outcome":%q}`, outcome), 200); again != string(w.status) {
			t.Errorf("%s: retry answered %s", outcome, again)
		}
		// A malformed pick is refused on a finished link too.
		h.pick(token(t, v), `{"outcome":"bogus"}`, 422)
		expectError(t, h.do("GET", "/verification?id="+v.ID, "", "Authorization", h.live), 404, httperr.NotFound)
	}
	for _, r := range h.rcv.Requests() {
		if r.Header.Get("Idgate-Signature") == "" || r.Header.Get("Idgate-Delivery-Id") == "" {
			t.Errorf("webhook without signature or delivery id: %v", r.Header)
		}
	}
	var q quotaResponse
	h.do("GET", "/quota", "", "Authorization", h.live).json(t, &q)
	for typ, l := range q.Allowances {
		if l.Used != 0 {
			t.Errorf("%s used %d after only test verifications", typ, l.Used)
		}
	}

	// A live link is not a test resource: 404, and it stays pending.
	lv := h.create(h.live, `{}`)
	expectError(t, h.do("POST", "/v/"+token(t, lv)+"/test/complete", `{"outcome":"verified"}`), 404, httperr.NotFound)
	if got := h.get(h.live, lv.ID); got.Status != verifier.StatusPending {
		t.Errorf("live verification is %s after test/complete on its link", got.Status)
	}
	// Bad picks are 422, one detail per problem; the link is untouched.
	tv := h.create(h.test, `{}`)
	r := h.do("POST", "/v/"+token(t, tv)+"/test/complete", `{"outcome":"approved","phone":"maybe","address":"somewhere"}`)
	codes := validationCodes(t, r)
	if codes["outcome"] != "unknown_outcome" || codes["phone"] != "unknown_indicator" || codes["address"] != "unknown_indicator" {
		t.Errorf("bad pick details %v", codes)
	}
	// No outcome at all is a missing member, not an unknown one.
	if codes := validationCodes(t, h.do("POST", "/v/"+token(t, tv)+"/test/complete", `{}`)); codes["outcome"] != "required" {
		t.Errorf("empty pick details %v", codes)
	}
	if got := h.get(h.test, tv.ID); got.Status != verifier.StatusPending {
		t.Errorf("test verification is %s after a refused pick", got.Status)
	}
	expectError(t, h.do("POST", "/v/"+strings.Repeat("A", 43)+"/test/complete", `{"outcome":"verified"}`), 404, httperr.NotFound)
}

// delivered runs the worker once and returns every body the receiver has.
func (h *testModeHarness) delivered(want int) [][]byte {
	h.t.Helper()
	return h.deliver(h.worker, h.rcv, want)
}

// TestTestCompleteReview: inconclusive offers review on the session API
// like a real inconclusive match; /review then sends it to manual_review,
// /decline-review completes it; the phone indicator follows the pick; the
// custom encryption mode seals the result as in live mode.
func TestTestCompleteReview(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		h := newTestModeHarness(t, open)
		priv, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		pubDER, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
		privDER, _ := x509.MarshalPKCS8PrivateKey(priv)
		pub := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
		key, err := client.PrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER}))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"requested_fields": []string{"last_name"}, "phone_verification": true,
			"location_consistency": true, "address_verification": true, "encryption_key_mode": "custom", "encryption_key": pub})
		for _, c := range []struct {
			path, phone string
			status      verifier.Status
		}{{"/review", "negative", verifier.StatusManualReview}, {"/decline-review", "absent", verifier.StatusCompleted}} {
			v := h.create(h.test, string(body))
			tok := token(t, v)
			if got := h.pick(tok, fmt.Sprintf(`{"outcome":"inconclusive","phone":%q,"location":%q,"address":%q}`, c.phone, c.phone, c.phone), 200); got != flow.StatusReviewOffered {
				t.Fatalf("inconclusive answered %s", got)
			}
			r := h.do("GET", "/v/"+tok+"/session", "")
			var s flow.View
			r.json(t, &s)
			if s.Status != flow.StatusReviewOffered || !s.ReviewAvailable || s.Livemode {
				t.Fatalf("session after inconclusive: %+v", s)
			}
			h.pick(tok, `{"outcome":"verified"}`, 409) // review is offered: choose first
			var a flow.SubmitAnswer
			r = h.do("POST", "/v/"+tok+c.path, "")
			r.json(t, &a)
			if r.status != 200 || a.Status != string(c.status) {
				t.Fatalf("%s: %d %s", c.path, r.status, r.body)
			}
			got := h.get(h.test, v.ID)
			if got.Status != c.status || bytes.Contains(got.Result, []byte("SAMPLE")) {
				t.Fatalf("%s: %s %s (plaintext must not appear under custom mode)", c.path, got.Status, got.Result)
			}
			plain, err := client.Decrypt(got.Result, key)
			if err != nil {
				t.Fatalf("decrypt: %v", err)
			}
			var res struct {
				Livemode    bool              `json:"livemode"`
				LicenseData map[string]string `json:"license_data"`
				Phone       *struct {
					Verified bool `json:"phone_verified"`
				} `json:"phone_verification"`
				Verification map[string]any `json:"verification"`
				Location     *struct {
					Result string `json:"result"`
				} `json:"location_consistency"`
				Address *struct {
					Deliverable bool `json:"address_deliverable"`
				} `json:"address_verification"`
			}
			if err := json.Unmarshal(plain, &res); err != nil {
				t.Fatal(err)
			}
			if res.Livemode || res.LicenseData["last_name"] != "SAMPLE" || len(res.LicenseData) != 1 ||
				res.Verification["face_match_score"] != "possible_match" {
				t.Errorf("%s: decrypted result %s", c.path, plain)
			}
			if (c.phone == "absent") != (res.Phone == nil) || (res.Phone != nil && res.Phone.Verified) {
				t.Errorf("%s: phone %q gave %+v", c.path, c.phone, res.Phone)
			}
			if (c.phone == "absent") != (res.Location == nil) || (res.Location != nil && res.Location.Result != "inconsistent") {
				t.Errorf("%s: location %q gave %+v", c.path, c.phone, res.Location)
			}
			if (c.phone == "absent") != (res.Address == nil) || (res.Address != nil && res.Address.Deliverable) {
				t.Errorf("%s: address %q gave %+v", c.path, c.phone, res.Address)
			}
			if res.Verification["ip_found"] != true || res.Verification["is_proxy"] != false {
				t.Errorf("%s: ip_found %v, is_proxy %v", c.path, res.Verification["ip_found"], res.Verification["is_proxy"])
			}
		}
	})
}

// TestTestFailingWebhook: the documented failing target fails every
// attempt without a connection, so a test verification's webhook goes
// through the three attempts to webhook_status failed and can be retried;
// a live verification may not use it.
func TestTestFailingWebhook(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		h := newTestModeHarness(t, open)
		body := fmt.Sprintf(`{"webhook_url":%q}`, webhook.FailingTestURL)
		codes := validationCodes(t, h.do("POST", "/verification", body, "Authorization", h.live))
		if codes["webhook_url"] != "test_only" {
			t.Fatalf("live create with the failing target: %v", codes)
		}
		v := h.create(h.test, body)
		h.pick(token(t, v), `{"outcome":"verified"}`, 200)
		for _, wait := range []time.Duration{0, 5 * time.Second, 15 * time.Second} {
			h.clock.Advance(wait)
			if _, err := h.worker.RunOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		got := h.get(h.test, v.ID)
		if got.WebhookStatus != "failed" {
			t.Fatalf("webhook_status %q after three attempts; want failed", got.WebhookStatus)
		}
		var logs struct {
			Deliveries []deliveryResponse `json:"deliveries"`
		}
		h.do("GET", "/verification/webhook/deliveries?id="+v.ID, "", "Authorization", h.test).json(t, &logs)
		if log := logs.Deliveries; len(log) != 1 || len(log[0].Attempts) != 3 || log[0].Attempts[2].StatusCode != webhook.FailingTestStatus {
			t.Fatalf("delivery log %+v", logs)
		}
		if r := h.do("POST", "/verification/webhook/retry?id="+v.ID, "", "Authorization", h.test); r.status != 202 {
			t.Fatalf("retry: %d %s", r.status, r.body)
		}
		if got := h.get(h.test, v.ID); got.WebhookStatus != "pending" {
			t.Errorf("webhook_status %q after a retry; want pending", got.WebhookStatus)
		}
		if n := len(h.rcv.Requests()); n != 0 {
			t.Errorf("the failing target reached a receiver %d times", n)
		}
	})
}
