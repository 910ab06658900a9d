package dashboard_test

import (
	"crypto/x509"
	"encoding/json"
	"image/png"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// env is the real verifier (SQLite, real HTTP on loopback, the end-user
// flow on the real engines, the webhook worker) with two accounts.
type env struct {
	t     *testing.T
	URL   string
	clock *testkit.ShiftedClock
	store *sqlstore.DB
	// hooks answers 204; failing answers 500 to its first three requests.
	hooks, failing *webhooktest.Receiver
	a, b           *account
}

// account is one tenant, signed in to the API with a bearer token.
type account struct {
	id, email, password, bearer string
	secret                      string // the webhook signing secret
}

const password = "correct horse battery staple"

func start(t *testing.T) *env {
	t.Helper()
	c := &testkit.ShiftedClock{}
	v := verifiertest.Start(t, verifiertest.Options{Now: c.Now, Webhooks: true,
		Config: verifierhttp.Config{AuthLimit: ratelimit.Limit{Rate: 50, Period: time.Minute}, WebhookAllowLoopback: true},
		Flow:   &flow.Flow{Engines: enginestest.Memoized(t, 1), Rand: &flowtest.OrderedRand{}}})
	hooks := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusNoContent))
	failing := webhooktest.NewReceiver(t, webhooktest.FailFirst(3, http.StatusInternalServerError))
	pool := x509.NewCertPool()
	pool.AddCert(hooks.Cert)
	pool.AddCert(failing.Cert)
	v.RunWebhooks(pool, c.Now, webhook.WorkerOptions{Now: c.Now, Log: slog.New(slog.DiscardHandler)})
	e2 := &env{t: t, URL: v.URL, clock: c, store: v.Store, hooks: hooks, failing: failing}
	e2.a = e2.account(v, "owner-a@example.com")
	e2.b = e2.account(v, "owner-b@example.com")
	return e2
}

// account creates an account, signs it in to the API and rotates its
// webhook signing secret (so the test can check signatures).
func (e *env) account(v *verifiertest.Verifier, email string) *account {
	e.t.Helper()
	a, bearer := v.Account(email, password)
	acct := &account{id: a.ID, email: email, password: password, bearer: bearer}
	var sec struct {
		Secret string `json:"secret"`
	}
	e.call(acct, "POST", "/webhook-secret", "", 201, &sec)
	acct.secret = sec.Secret
	return acct
}

// call sends a request as acct (nil: no credentials) and decodes the answer.
func (e *env) call(acct *account, method, path, body string, want int, out any) []byte {
	e.t.Helper()
	auth := ""
	if acct != nil {
		auth = acct.bearer
	}
	return testkit.CallJSON(e.t, method, e.URL+path, auth, body, want, out)
}

type created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

func (e *env) create(acct *account, body string) created {
	e.t.Helper()
	var c created
	e.call(acct, "POST", "/verification", body, 201, &c)
	return c
}

// endUser sends one end-user API request and checks the status.
func (e *env) endUser(c created, path, ct string, body []byte, want int) []byte {
	e.t.Helper()
	tok := c.URL[strings.LastIndex(c.URL, "/v/")+3:]
	return testkit.Send(e.t, "POST", e.URL+"/v/"+tok+path, ct, "", body, want)
}

// toReview walks c's link as a phone would, through the real flow: a
// license front carrying someone else's face (Sheldon), a rendered
// PDF417, Foreman's liveness frames; the match fails, review is offered
// and requested, so c ends in manual_review with its images kept.
func (e *env) toReview(c created) {
	e.t.Helper()
	data := flowtest.DataFor(e.t)
	f, err := os.Open(testkit.Data(e.t, "testdata", "faces", "labeled", "sheldon", "sheldon2.png"))
	if err != nil {
		e.t.Fatal(err)
	}
	face, err := png.Decode(f)
	f.Close()
	if err != nil {
		e.t.Fatal(err)
	}
	front, err := flowtest.FrontPhoto(face, 1600, 2)
	if err != nil {
		e.t.Fatal(err)
	}
	back, _, err := flowtest.BackPhoto(5, 0, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	e.endUser(c, "/license/front", "image/jpeg", front, 200)
	e.endUser(c, "/license/back", "image/jpeg", back, 200)
	var ch struct {
		ID string `json:"challenge_id"`
	}
	if err := json.Unmarshal(e.endUser(c, "/liveness", "", nil, 201), &ch); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Advance(5 * time.Second) // as long as a phone takes to film the answer
	frames, err := data.ForemanAnswer(36, 96)
	if err != nil {
		e.t.Fatal(err)
	}
	ct, body := flowtest.LivenessForm(frames)
	var ans struct {
		Passed bool `json:"passed"`
	}
	if err := json.Unmarshal(e.endUser(c, "/liveness/"+ch.ID, ct, body, 200), &ans); err != nil || !ans.Passed {
		e.t.Fatalf("liveness did not pass (%v)", err)
	}
	var sub struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(e.endUser(c, "/submit", "", nil, 200), &sub); err != nil || sub.Status != "review_offered" {
		e.t.Fatalf("submit: %s (%v), want review_offered", sub.Status, err)
	}
	e.endUser(c, "/review", "", nil, 200)
}
