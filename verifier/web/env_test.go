package web_test

import (
	"crypto/rand"
	"encoding/json"
	"image"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	devphone "github.com/idgate/idgate/verifier/phone/dev"
	"github.com/idgate/idgate/verifier/verifiertest"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// env is the real verifier (SQLite, real HTTP) on loopback with one
// account signed in.
type env struct {
	t      *testing.T
	URL    string
	clock  *testkit.ShiftedClock
	store  verifier.Store
	bearer string
	logs   *testkit.LogBuffer
	// order seeds the next liveness challenges' step order.
	order *steps
	// hooks receives the webhooks of verifications created with its URL.
	hooks *webhooktest.Receiver
	// phoneLogs is the dev phone provider's log: the codes it "sends".
	phoneLogs *testkit.LogBuffer
	// roomy gives the next challenges more time per step and frames.
	roomy *roomy
}

// roomy is the engines with, once set, challenges whose steps last k times
// the server's step time. k > 1: their budget also holds k times its
// frames. A test that shoots a step's guidance at two sizes on a loaded
// machine (8 s for four shots under CI load, the step's whole time) uses
// it so the step does not run out while the shots are taken; what the page
// shows does not depend on these numbers, only when it moves on. k < 1: a
// test that walks an attempt meant to fail (a wrong order the page waits
// out step by step) gets its refusal sooner; the budget stays. Walks that
// check the page's pacing keep the server's own.
type roomy struct {
	flow.Engines
	mu sync.Mutex
	k  float64
}

func (r *roomy) Set(k float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.k = k
}

func (r *roomy) NewChallenge(rnd io.Reader, now time.Time) (liveness.Challenge, flow.FrameBudget, error) {
	ch, b, err := r.Engines.NewChallenge(rnd, now)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.k > 0 && r.k != 1 {
		ch.StepTimeoutMS = int64(float64(ch.StepTimeoutMS) * r.k)
	}
	if r.k > 1 {
		b.MaxFrames = int(float64(b.MaxFrames) * r.k)
	}
	return ch, b, err
}

// steps is the flow's random source: each challenge reads a fresh nonce,
// then one byte per step, whose low two bits pick blink (0), turn_left (1)
// or turn_right (2) (liveness.NewChallenge through crypto/rand.Int). Queue
// puts a challenge's order in front; without one it is random.
type steps struct {
	mu    sync.Mutex
	queue []byte
}

func (s *steps) Queue(order ...liveness.Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	s.queue = append(s.queue, nonce...)
	for _, st := range order {
		s.queue = append(s.queue, map[liveness.Step]byte{liveness.Blink: 0, liveness.TurnLeft: 1, liveness.TurnRight: 2}[st])
	}
}

func (s *steps) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := copy(p, s.queue)
	s.queue = s.queue[n:]
	if n < len(p) {
		_, _ = rand.Read(p[n:])
	}
	return len(p), nil
}

// start runs the verifier with the end-user flow on the real engines; the
// liveness challenges' step order comes from rnd.
func start(t *testing.T) *env {
	t.Helper()
	c := &testkit.ShiftedClock{}
	logs := &testkit.LogBuffer{}
	order := &steps{}
	eng := &roomy{Engines: enginestest.Memoized(t, 0)} // the same photo posted again is not judged again
	// The dev phone provider, as make run has it: links that ask for phone
	// verification get the step, and the code is read from its log.
	phoneLogs := &testkit.LogBuffer{}
	ph, err := devphone.New("dev", slog.New(slog.NewJSONHandler(phoneLogs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	v := verifiertest.Start(t, verifiertest.Options{Now: c.Now, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
		Config: verifierhttp.Config{WebhookAllowLoopback: true}, // the webhook receiver is on 127.0.0.1
		Flow:   &flow.Flow{Engines: eng, Rand: order, Phone: ph}})
	// Webhooks: the real worker and sender over the store's outbox, to a
	// real TLS receiver.
	hooks := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusNoContent))
	v.RunWebhooks(hooks.Pool, nil, webhook.WorkerOptions{})
	e := &env{t: t, URL: v.URL, clock: c, store: v.Store, logs: logs, order: order, hooks: hooks, phoneLogs: phoneLogs, roomy: eng}
	// A failed test shows the requests the server could not read, and why
	// (CI once showed such an answer's body in place of a page).
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `"unreadable"`) {
				t.Logf("the server could not read a request: %s", l)
			}
		}
	})
	_, e.bearer = v.Account("owner@example.com", "correct horse battery")
	return e
}

// signIn gets a fresh bearer token (after the clock moved past its life).
func (e *env) signIn() {
	e.t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.bearer = ""
	e.call("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery"}`, 200, &tok)
	e.bearer = "Bearer " + tok.AccessToken
}

// call sends a request as the account holder and decodes the answer.
func (e *env) call(method, path, body string, want int, out any) {
	e.t.Helper()
	testkit.CallJSON(e.t, method, e.URL+path, e.bearer, body, want, out)
}

type created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// create makes a verification (body: the create request) and returns it.
func (e *env) create(body string) created {
	e.t.Helper()
	var c created
	e.call("POST", "/verification", body, 201, &c)
	return c
}

// status reads a verification's status as the account holder.
func (e *env) status(id string) string {
	e.t.Helper()
	var v struct {
		Status string `json:"status"`
	}
	e.call("GET", "/verification?id="+id, "", 200, &v)
	return v.Status
}

// token is the link token in a verification's url.
func token(t *testing.T, c created) string {
	t.Helper()
	i := strings.LastIndex(c.URL, "/v/")
	if i < 0 {
		t.Fatalf("url %q has no /v/ token", c.URL)
	}
	return c.URL[i+3:]
}

// endUser sends one end-user API request with body of content type ct
// and checks the status.
func (e *env) endUser(c created, path, ct string, body []byte, want int) []byte {
	e.t.Helper()
	return testkit.Send(e.t, "POST", e.URL+"/v/"+token(e.t, c)+path, ct, "", body, want)
}

// throughAPI does the license steps (front with face) and passes liveness
// with Foreman's frames through the API, as a phone would, so a page can
// be opened at the review offer or a desktop can watch.
func (e *env) throughAPI(c created, face image.Image) {
	e.t.Helper()
	e.endUser(c, "/license/front", "image/jpeg", front(e.t, face), 200)
	e.endUser(c, "/license/back", "image/jpeg", back(e.t), 200)
	e.order.Queue(liveness.Blink, liveness.TurnLeft, liveness.TurnRight)
	var ch struct {
		ID string `json:"challenge_id"`
	}
	if err := json.Unmarshal(e.endUser(c, "/liveness", "", nil, 201), &ch); err != nil {
		e.t.Fatal(err)
	}
	frames, err := media(e.t).ForemanAnswer(36, 96)
	check(e.t, err)
	ct, body := flowtest.LivenessForm(frames)
	var ans struct {
		Passed bool `json:"passed"`
	}
	if err := json.Unmarshal(e.endUser(c, "/liveness/"+ch.ID, ct, body, 200), &ans); err != nil || !ans.Passed {
		e.t.Fatalf("liveness through the API did not pass (%v)", err)
	}
}
