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
	"errors"
	"fmt"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// flowHarness is the API with the end-user flow on the real engines, a
// webhook worker on the same store and clock, and an HTTPS receiver.
type flowHarness struct {
	*harness
	flow   *flow.Flow
	fstore *sqlstore.DB
	worker *webhook.Worker
	rcv    *webhooktest.Receiver
	acct   verifier.Account
	bearer string
	sealer *seal.Sealer
	// fwd, when set, is sent as X-Forwarded-For on every step.
	fwd string
}

func newFlowHarness(t *testing.T, open func(t *testing.T) *sqlstore.DB, edit ...func(*Deps)) *flowHarness {
	t.Helper()
	eng := testEngines(t)
	store := open(t)
	sealer := seal.Ephemeral()
	h := &flowHarness{fstore: store, sealer: sealer}
	h.harness = newHarnessOn(t, store, append([]func(*Deps){func(d *Deps) {
		h.flow = parts.Flow(&flow.Flow{Engines: eng, Rand: &flowtest.OrderedRand{}, IP: testIPIntel()}, store, sealer, d.Now)
		d.Flow = h.flow
		d.Config.FlowUploadLimit, d.Config.FlowChallengeLimit = DefaultFlowUploadLimit, DefaultFlowChallengeLimit
		d.Config.WebhookAllowLoopback = true // the receiver below listens on loopback
	}}, edit...)...)
	h.rcv = webhooktest.NewReceiver(t, webhooktest.Always(nethttp.StatusOK))
	h.worker = h.deliveryWorker(store, h.rcv, verifier.WebhookSecrets{Store: store, Sealer: sealer, Now: h.clock.Now})
	h.acct, h.bearer = h.owner()
	return h
}

// link creates a verification through the API and returns it with its token.
func (h *flowHarness) link(body string) (verificationResponse, string) {
	h.t.Helper()
	v := h.create(h.bearer, body)
	return v, token(h.t, v)
}

func (h *flowHarness) post(tok, path, ctype string, body []byte) response {
	h.t.Helper()
	r := h.send("POST", "/v/"+tok+path, ctype, body, "X-Forwarded-For", h.fwd)
	h.flowHeaders(r)
	if r.status < 300 { // what the server took, the document describes
		req := httptest.NewRequest("POST", "/v/"+tok+path, nil)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if err := validator.Request(req, body); err != nil {
			h.t.Errorf("OpenAPI drift: %v", err)
		}
	}
	return r
}

func (h *flowHarness) session(tok string) flow.View {
	h.t.Helper()
	r := h.send("GET", "/v/"+tok+"/session", "", nil)
	h.flowHeaders(r)
	if r.status != 200 {
		h.t.Fatalf("session: %d %s", r.status, r.body)
	}
	var v flow.View
	r.json(h.t, &v)
	return v
}

// flowHeaders: every /v/ answer, errors included, is uncacheable and
// sends no Referer.
func (h *flowHarness) flowHeaders(r response) {
	h.t.Helper()
	if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Referrer-Policy") != "no-referrer" {
		h.t.Errorf("answer %d lacks no-store / no-referrer: %v", r.status, r.header)
	}
}

func (h *flowHarness) ok(r response, status int, v any) {
	h.t.Helper()
	if r.status != status {
		h.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if v != nil {
		r.json(h.t, v)
	}
}

// challenge issues one and moves the clock as a browser would take to
// capture the answer.
func (h *flowHarness) challenge(tok string) flow.ChallengeAnswer {
	h.t.Helper()
	var ch flow.ChallengeAnswer
	h.ok(h.post(tok, "/liveness", "", nil), 201, &ch)
	return ch
}

func (h *flowHarness) answer(tok, id string, frames [][]byte, ms []float64) response {
	h.t.Helper()
	ctype, body := multipartFrames(h.t, frames, ms)
	return h.post(tok, "/liveness/"+id, ctype, body)
}

// steps passes the three steps with the given front photo and returns
// the license on the back.
func (h *flowHarness) steps(tok string, front []byte) license.License {
	h.t.Helper()
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
	back, lic := backPhoto(h.t, 5)
	h.ok(h.post(tok, "/license/back", "image/jpeg", back), 200, nil)
	ch := h.challenge(tok)
	h.clock.Advance(5 * time.Second)
	frames, ms := foremanAnswer(h.t)
	var ans flow.LivenessAnswer
	h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &ans)
	if !ans.Passed {
		h.t.Fatalf("Foreman's answer failed: %+v", ans)
	}
	return lic
}

// delivered runs the worker and returns the bodies the receiver got.
func (h *flowHarness) delivered(want int) [][]byte {
	h.t.Helper()
	return h.deliver(h.worker, h.rcv, want)
}

// TestFlowCompletes walks a link from the first request to completed with
// real data: a card carrying Foreman's face, a rendered PDF417, Foreman's
// frames for a challenge drawn in their order; the webhook carries the
// same bytes as GET (verifier/flow's TestReviewImagesSealedAndPurged
// keeps the review images sealed and purges them after the retention).
func TestFlowCompletes(t *testing.T) {
	onBothBackends(t, testFlowCompletes)
}

func testFlowCompletes(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open, func(d *Deps) { d.Config.TrustedProxies = []string{"127.0.0.1"} })
	h.fwd = "198.51.100.1, 203.0.113.9" // the right-most entry is the client
	v, tok := h.link(fmt.Sprintf(`{"requested_fields":["first_names","last_name","dob"],"include_license_photo":true,
		"encryption_key_mode":"none","webhook_url":%q,"message":"Verify for order 42","location_consistency":true}`, h.rcv.URL))

	s := h.session(tok)
	if s.Status != "pending" || len(s.Steps) != 3 || s.Steps[0].Done || s.Message != "Verify for order 42" ||
		strings.Join(s.RequestedFields, ",") != "first_names,last_name,dob" || !s.LicensePhoto || s.EncryptionMode != "none" ||
		s.ReviewAvailable || s.LivenessAttemptsLeft != 5 {
		t.Fatalf("first session %+v", s)
	}

	front := frontPhoto(t, foremanFace(t), 1)
	var fa flow.FrontAnswer
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, &fa)
	if !fa.Accepted || !fa.Checks.CardFound || !fa.Checks.FacePresent || !fa.Checks.ProportionsOK {
		t.Fatalf("front %+v", fa)
	}
	if got := h.get(h.bearer, v.ID); got.Status != "started" {
		t.Fatalf("after the first step the verification is %s, want started", got.Status)
	}
	// A retried upload answers the same without being judged again (the
	// Content-Type is not trusted: the bytes are sniffed).
	var again flow.FrontAnswer
	h.ok(h.post(tok, "/license/front", "application/octet-stream", front), 200, &again)
	if again != fa {
		t.Fatalf("retry answered %+v, want %+v", again, fa)
	}
	// Submit before the other steps is out of order.
	expectError(t, h.post(tok, "/submit", "", nil), 409, "CONFLICT")

	lic := h.steps(tok, front)
	s = h.session(tok)
	for _, st := range s.Steps {
		if !st.Done {
			t.Fatalf("step %s not done: %+v", st.Name, s)
		}
	}
	if s.LivenessAttemptsLeft != 4 {
		t.Errorf("attempts left %d, want 4", s.LivenessAttemptsLeft)
	}
	// No personal data in the session answer, and none at rest in plain.
	sr := h.send("GET", "/v/"+tok+"/session", "", nil)
	sealed, err := h.fstore.GetFlowSession(context.Background(), v.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, pii := range []string{lic.FirstNames, lic.LastName, lic.DOB.String(), lic.DocumentNumber, "203.0.113.9"} {
		if testkit.HoldsPlain(sr.body, pii) || testkit.HoldsPlain(sealed, pii) {
			t.Errorf("%q in the session answer or the stored session", pii)
		}
	}
	// The client IP of the barcode step is recorded (through the trusted
	// proxy) inside the sealed session.
	plain, err := h.sealer.Open(string(sealed), "flow-session:"+v.ID)
	if err != nil || !bytes.Contains(plain, []byte(`"back_ip":"203.0.113.9"`)) || !bytes.Contains(plain, []byte(lic.LastName)) {
		t.Errorf("session (%v) lacks the client IP or the license", err)
	}

	var done flow.SubmitAnswer
	h.ok(h.post(tok, "/submit", "", nil), 200, &done)
	if done.Status != "completed" {
		t.Fatalf("submit answered %s, want completed (Foreman on his card)", done.Status)
	}
	// A retried submit answers the same; every other step is gone.
	h.ok(h.post(tok, "/submit", "", nil), 200, &done)
	expectError(t, h.post(tok, "/license/front", "image/jpeg", front), 410, "GONE")
	expectError(t, h.post(tok, "/review", "", nil), 410, "GONE")

	got := h.get(h.bearer, v.ID)
	var res struct {
		Verification map[string]any       `json:"verification"`
		LicenseData  map[string]any       `json:"license_data"`
		LicensePhoto string               `json:"license_photo"`
		Location     *ipintel.Consistency `json:"location_consistency"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if got.Status != "completed" || ver["webcam_appears_live"] != true || ver["webcam_face_matches_license_photo"] != true ||
		ver["license_appears_real"] != true || ver["ip_found"] != true || ver["is_proxy"] != false {
		t.Fatalf("result %s", got.Result)
	}
	// IP intelligence ran on the recorded client IP (203.0.113.9 through
	// the trusted proxy, at the barcode step and at submit); the location
	// check ran because it was requested (the synthetic license's address
	// is random: the scoring itself is ipintel's tables).
	if _, has := ver["proxy_type"]; has || res.Location == nil || res.Location.ConnectionChanged ||
		res.Location.AnonymizedConnection != nil || res.Location.Reasons == nil {
		t.Fatalf("IP members %s", got.Result)
	}
	if res.LicenseData["first_names"] != lic.FirstNames || res.LicenseData["last_name"] != lic.LastName || res.LicenseData["dob"] != lic.DOB.String() {
		t.Errorf("license_data %v, want %s %s %s", res.LicenseData, lic.FirstNames, lic.LastName, lic.DOB)
	}
	if photo, err := base64.StdEncoding.DecodeString(res.LicensePhoto); err != nil || !bytes.HasPrefix(photo, []byte{0xFF, 0xD8, 0xFF}) {
		t.Errorf("license_photo is not a JPEG (%v)", err)
	}
	if bodies := h.delivered(1); !bytes.Equal(bodies[0], got.Result) {
		t.Errorf("webhook body differs from GET's result:\n%s\n%s", bodies[0], got.Result)
	}

	if s := h.session(tok); s.Status != "completed" || !s.Steps[2].Done || s.Message != "" {
		t.Errorf("finished session %+v", s)
	}
}

// TestPurgeEndpoint: POST /verification/purge removes a finished
// verification's personal data at once, its flow data too; unfinished
// ones are 409, other accounts' 404, a second purge changes nothing.
func TestPurgeEndpoint(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		h := newFlowHarness(t, open)
		ctx := context.Background()
		pending, _ := h.link(`{}`)
		expectError(t, h.do("POST", "/verification/purge?id="+pending.ID, "", "Authorization", h.bearer), 409, "CONFLICT")
		complete := func(id, result string) {
			t.Helper()
			for _, st := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
				if _, err := h.store.UpdateVerification(ctx, h.acct.ID, id, func(x *verifier.Verification) error {
					x.Status = st
					if st == verifier.StatusCompleted {
						x.CompletedAt, x.Result = h.clock.Now(), []byte(result)
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
		}
		done, _ := h.link(`{"requested_fields":["dob"],"include_license_photo":true,"encryption_key_mode":"none"}`)
		complete(done.ID, `{"request_id":"`+done.ID+`","verification":{"over_21":true},"license_data":{"dob":"1990-01-02"},"license_photo":"/9j/4AAQ"}`)
		// A sealed photo (passphrase and custom modes) and a phone lookup
		// the purge removes: both answers match the document (harness).
		sealed, _ := h.link(`{"phone_verification":true,"include_license_photo":true,"encryption_key_mode":"none"}`)
		complete(sealed.ID, `{"request_id":"`+sealed.ID+`","verification":{"over_21":true},"license_data":{},
			"license_photo":{"version":1,"alg":"A256GCM","iv":"aXY=","ciphertext":"Y3Q="},
			"phone_verification":{"phone_areacode":"217","last_3_digits":"199","phone_verified":true,"line_type":"mobile",
				"lookup":{"phone_number":"+12175550199","caller_name":"","carrier_name":""}}}`)
		h.get(h.bearer, sealed.ID)
		var purged verificationResponse
		h.ok(h.do("POST", "/verification/purge?id="+sealed.ID, "", "Authorization", h.bearer), 200, &purged)
		if bytes.Contains(purged.Result, []byte("lookup")) || bytes.Contains(purged.Result, []byte("license_photo")) ||
			!bytes.Contains(purged.Result, []byte(`"phone_verified":true`)) {
			t.Fatalf("purged %s", purged.Result)
		}
		h.get(h.bearer, sealed.ID)
		if err := h.fstore.PutReviewImage(ctx, h.acct.ID, done.ID, flow.ReviewSelfie, []byte("sealed"), h.clock.Now()); err != nil {
			t.Fatal(err)
		}
		_, otherBearer := h.owner()
		expectError(t, h.do("POST", "/verification/purge?id="+done.ID, "", "Authorization", otherBearer), 404, "NOT_FOUND")
		expectError(t, h.do("POST", "/verification/purge", "", "Authorization", h.bearer), 422, "VALIDATION_FAILED")
		var first verificationResponse
		h.ok(h.do("POST", "/verification/purge?id="+done.ID, "", "Authorization", h.bearer), 200, &first)
		if first.PIIPurgedAt == nil || string(first.Result) != `{"license_data":{},"request_id":"`+done.ID+`","verification":{"over_21":true}}` {
			t.Fatalf("purged %+v %s", first, first.Result)
		}
		if imgs, err := h.fstore.ReviewImages(ctx, h.acct.ID, done.ID); err != nil || len(imgs) != 0 {
			t.Errorf("review images after the purge: %d, %v", len(imgs), err)
		}
		h.clock.Advance(time.Hour)
		var second verificationResponse
		h.ok(h.do("POST", "/verification/purge?id="+done.ID, "", "Authorization", h.bearer), 200, &second)
		if !second.PIIPurgedAt.Equal(*first.PIIPurgedAt) || !bytes.Equal(second.Result, first.Result) {
			t.Errorf("a second purge changed %+v", second)
		}
	})
}

// detailCodes are the codes of a 422's details, each with a sentence.
func detailCodes(t *testing.T, r response, field string) []string {
	t.Helper()
	e := expectError(t, r, 422, "VALIDATION_FAILED")
	var out []string
	for _, d := range e.Details {
		if d.Field != field || len(d.Message) < 20 {
			t.Errorf("detail %+v: want field %s and a sentence", d, field)
		}
		out = append(out, d.Code)
	}
	return out
}

// TestFlowRefuses: every refusal of the end-user API, in the one error
// format.
func TestFlowRefuses(t *testing.T) {
	onBothBackends(t, testFlowRefuses)
}

func testFlowRefuses(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open, func(d *Deps) {
		d.Config.FlowChallengeLimit = ratelimit.Limit{Rate: 4, Period: time.Hour}
		d.Config.FlowBodyLimit = 12 << 20
	})
	_, tok := h.link(`{}`)

	t.Run("unknown links", func(t *testing.T) {
		unknown := strings.Repeat("A", 43)
		for _, tk := range []string{unknown, "short"} {
			expectError(t, h.send("GET", "/v/"+tk+"/session", "", nil), 404, "NOT_FOUND")
			for _, p := range []string{"/license/front", "/license/back", "/liveness", "/liveness/x", "/submit", "/review", "/decline-review"} {
				expectError(t, h.post(tk, p, "", nil), 404, "NOT_FOUND")
			}
		}
	})

	t.Run("images", func(t *testing.T) {
		if got := detailCodes(t, h.post(tok, "/license/front", "image/gif", []byte("GIF89a\x01\x00\x01\x00")), "license_front"); strings.Join(got, ",") != "image_unsupported" {
			t.Errorf("GIF: %v", got)
		}
		if got := detailCodes(t, h.post(tok, "/license/front", "", nil), "license_front"); strings.Join(got, ",") != "image_unsupported" {
			t.Errorf("empty: %v", got)
		}
		big := append(frontPhoto(t, nil, 3), make([]byte, 10<<20)...)
		if got := detailCodes(t, h.post(tok, "/license/back", "image/jpeg", big), "license_back"); strings.Join(got, ",") != "image_too_large" {
			t.Errorf("over 10 MB: %v", got)
		}
		// Other endpoints keep the JSON body limit.
		expectError(t, h.do("POST", "/verification", `{"message":"`+strings.Repeat("x", 5000)+`"}`, "Authorization", h.bearer), 413, "PAYLOAD_TOO_LARGE")
		noCard := noCardPhoto(t)
		if got := detailCodes(t, h.post(tok, "/license/front", "image/jpeg", noCard), "license_front"); strings.Join(got, ",") != "card_not_found" {
			t.Errorf("no card: %v", got)
		}
		if got := detailCodes(t, h.post(tok, "/license/back", "image/jpeg", noCard), "license_back"); len(got) != 1 || !strings.HasPrefix(got[0], "barcode_") {
			t.Errorf("no barcode: %v", got)
		}
		// A back photographed from too far: the symbol is found, its
		// modules measure about 1 px, and the answer says to move closer.
		far := farBackPhoto(t)
		if got := detailCodes(t, h.post(tok, "/license/back", "image/jpeg", far), "license_back"); strings.Join(got, ",") != "barcode_too_small" {
			t.Errorf("barcode too far: %v", got)
		}
		// Failed uploads do not start the verification.
		if s := h.session(tok); s.Status != "pending" {
			t.Errorf("after refused uploads the verification is %s", s.Status)
		}
	})

	t.Run("order", func(t *testing.T) {
		for _, p := range []string{"/submit", "/review", "/decline-review"} {
			expectError(t, h.post(tok, p, "", nil), 409, "CONFLICT")
		}
	})

	t.Run("challenges", func(t *testing.T) {
		_, otherTok := h.link(`{}`)
		foreign := h.challenge(otherTok)
		first := h.challenge(tok)
		second := h.challenge(tok)
		frames, ms := foremanAnswer(t)
		expectError(t, h.answer(tok, foreign.ChallengeID, frames, ms), 404, "NOT_FOUND")
		expectError(t, h.answer(tok, first.ChallengeID, frames, ms), 409, "CONFLICT") // voided by the second
		expectError(t, h.post(tok, "/liveness/"+second.ChallengeID, "text/plain", []byte("frames")), 400, "BAD_REQUEST")
		if got := detailCodes(t, h.answer(tok, second.ChallengeID, frames[:1], ms[:1]), "liveness"); strings.Join(got, ",") != "frames_count" {
			t.Errorf("one frame: %v", got)
		}
		if got := detailCodes(t, h.answer(tok, second.ChallengeID, frames, ms[:3]), "liveness"); strings.Join(got, ",") != "timestamps_invalid" {
			t.Errorf("timestamps short: %v", got)
		}
		h.clock.Advance(3 * time.Minute)
		expectError(t, h.answer(tok, second.ChallengeID, frames, ms), 409, "CONFLICT") // expired
		// The per-link challenge limit (4 an hour here): two used so far.
		h.challenge(tok)
		h.challenge(tok)
		r := h.post(tok, "/liveness", "", nil)
		expectError(t, r, 429, "RATE_LIMITED")
		if r.header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})

	t.Run("ended links", func(t *testing.T) {
		canceled, ctok := h.link(`{}`)
		h.ok(h.do("POST", "/verification/cancel?id="+canceled.ID, "", "Authorization", h.bearer), 200, nil)
		_, etok := h.link(`{"lifetime_days":1}`)
		h.clock.Advance(25 * time.Hour)
		for tk, status := range map[string]string{ctok: "canceled", etok: "expired"} {
			for _, p := range []string{"/license/front", "/license/back", "/liveness", "/liveness/x", "/submit", "/review", "/decline-review"} {
				expectError(t, h.post(tk, p, "image/jpeg", []byte{0xFF, 0xD8, 0xFF}), 410, "GONE")
			}
			if s := h.session(tk); s.Status != status || s.Message != "" {
				t.Errorf("session of a %s link: %+v", status, s)
			}
		}
	})
}

// TestFlowBodyLimit: an upload over the flow's body limit is 413 in the
// one format, with the link's headers.
func TestFlowBodyLimit(t *testing.T) {
	h := newFlowHarness(t, openSQLite, func(d *Deps) { d.Config.FlowBodyLimit = 64 << 10 })
	_, tok := h.link(`{}`)
	expectError(t, h.post(tok, "/license/front", "image/jpeg", make([]byte, 100<<10)), 413, "PAYLOAD_TOO_LARGE")
}

// TestFlowBusy: with the only engine worker held, a request that needs it
// is answered 503 with Retry-After instead of piling up; sent again, it
// is judged. A liveness answer (seconds of work) and license fronts race
// for the worker until one of them is refused.
func TestFlowBusy(t *testing.T) {
	modelstest.Set(t)
	busy, err := engines.Load(engines.Config{Workers: 1, QueueWait: time.Millisecond, MaxWaiting: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := newFlowHarness(t, openSQLite, func(d *Deps) { d.Flow.Engines = busy })
	_, tok := h.link(`{}`)
	_, other := h.link(`{}`)
	ch := h.challenge(tok)
	h.clock.Advance(5 * time.Second)
	frames, ms := foremanAnswer(t)
	ctype, body := multipartFrames(t, frames, ms)
	url := h.url() + "/v/" + tok + "/liveness/" + ch.ChallengeID
	type outcome struct{ code, refused int }
	done := make(chan outcome, 1)
	go func() { // the same answer again after every 503: nothing was judged
		refused := 0
		for {
			resp, err := nethttp.Post(url, ctype, bytes.NewReader(body))
			if err != nil {
				done <- outcome{0, refused}
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != busyRetryAfter {
				done <- outcome{resp.StatusCode, refused}
				return
			}
			refused++
		}
	}()
	front := frontPhoto(t, nil, 4)
	seen := false
	var live outcome
	for finished := false; !finished; {
		r := h.post(other, "/license/front", "image/jpeg", front)
		if r.status == 503 {
			expectError(t, r, 503, "UNAVAILABLE")
			if r.header.Get("Retry-After") != busyRetryAfter {
				t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
			}
			seen = true
		}
		select {
		case live = <-done:
			finished = true
		default:
		}
	}
	if live.code != 200 {
		t.Fatalf("the liveness answer ended with %d", live.code)
	}
	if !seen && live.refused == 0 {
		t.Fatal("neither the fronts nor the liveness answer were ever refused while the worker was held")
	}
}

// TestFlowReviewImagesForTheAccount: under custom encryption the license
// front kept for review is sealed for the account's own RSA key: the
// server cannot open it, the key holder can.
func TestFlowReviewImagesForTheAccount(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	body, _ := json.Marshal(map[string]any{"requested_fields": []string{"dob"}, "encryption_key_mode": "custom", "encryption_key": pemKey})
	v, tok := h.link(string(body))
	front := frontPhoto(t, foremanFace(t), 6)
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
	imgs, err := h.fstore.ReviewImages(context.Background(), h.acct.ID, v.ID)
	if err != nil || len(imgs) != 1 {
		t.Fatalf("review images %d, %v", len(imgs), err)
	}
	doc := imgs[flow.ReviewLicenseFront]
	if _, err := h.flow.OpenReviewImage(v.ID, flow.ReviewLicenseFront, doc); err == nil {
		t.Fatal("the server opened an image sealed for the account")
	}
	hdr, err := e2ee.ReadHeader(doc)
	if err != nil {
		t.Fatal(err)
	}
	session, err := e2ee.CustomOpener(priv)(hdr)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		t.Fatal(err)
	}
	env, err := e2ee.ParseSealedMember(members[string(flow.ReviewLicenseFront)])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := session.OpenMember(string(flow.ReviewLicenseFront), env); err != nil || !bytes.Equal(got, front) {
		t.Fatalf("the account's key opened %d bytes, %v; want the upload", len(got), err)
	}

	// Canceled, the link's flow data goes at the next sweep, even with the
	// scheduled purge of results off (retention 0).
	h.ok(h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", h.bearer), 200, nil)
	if n, err := h.flow.PurgeDue(context.Background(), 0); err != nil || n != 1 {
		t.Fatalf("PurgeDue = %d, %v; want the canceled link's flow data", n, err)
	}
	if imgs, err := h.fstore.ReviewImages(context.Background(), h.acct.ID, v.ID); err != nil || len(imgs) != 0 {
		t.Errorf("review images of a canceled link after the sweep: %d, %v", len(imgs), err)
	}
	if _, err := h.fstore.GetFlowSession(context.Background(), v.ID); !errors.Is(err, verifier.ErrNotFound) {
		t.Errorf("session of a canceled link after the sweep: %v", err)
	}
}

// TestFlowUploadLimit: one per-link upload allowance covers photos and
// liveness answers alike; another link has its own.
func TestFlowUploadLimit(t *testing.T) {
	h := newFlowHarness(t, openSQLite, func(d *Deps) { d.Config.FlowUploadLimit = ratelimit.Limit{Rate: 2, Period: time.Hour} })
	_, tok := h.link(`{}`)
	_, other := h.link(`{}`)
	gif := []byte("GIF89a\x01\x00\x01\x00")
	expectError(t, h.post(tok, "/license/front", "image/gif", gif), 422, "VALIDATION_FAILED")
	expectError(t, h.post(tok, "/license/back", "image/gif", gif), 422, "VALIDATION_FAILED")
	r := h.post(tok, "/liveness/x", "text/plain", []byte("x"))
	expectError(t, r, 429, "RATE_LIMITED")
	if r.header.Get("Retry-After") == "" || r.header.Get("RateLimit-Limit") != "2" {
		t.Errorf("429 headers %v", r.header)
	}
	expectError(t, h.post(other, "/license/front", "image/gif", gif), 422, "VALIDATION_FAILED")
}

// TestFlowTooManyFrames: an answer of more parts than any budget is the
// frame-count problem (422 frames_count, the page's own words), with the
// flow's headers like every /v/ answer, not a bare 400.
func TestFlowTooManyFrames(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	_, tok := h.link(`{}`)
	ch := h.challenge(tok)
	frames, ms := make([][]byte, maxFrameParts+1), make([]float64, maxFrameParts+1)
	for i := range frames {
		frames[i], ms[i] = []byte{0xff}, float64(i*10)
	}
	r := h.answer(tok, ch.ChallengeID, frames, ms)
	if codes := detailCodes(t, r, "liveness"); r.status != 422 || len(codes) != 1 || codes[0] != string(flow.ProblemFramesCount) {
		t.Fatalf("%d %s", r.status, r.body)
	}
}
