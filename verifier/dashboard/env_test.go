package dashboard_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

var (
	enginesOnce sync.Once
	sharedEng   *engines.Engines
	enginesErr  error
)

func loadEngines(t *testing.T) *engines.Engines {
	t.Helper()
	set := modelstest.Set(t)
	enginesOnce.Do(func() { sharedEng, enginesErr = engines.Load(engines.Config{ModelsDir: set.Dir, Workers: 1}) })
	if enginesErr != nil {
		t.Fatal(enginesErr)
	}
	return sharedEng
}

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
	ctx := context.Background()
	store, e := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "idgate.db"))
	if e != nil {
		t.Fatal(e)
	}
	t.Cleanup(func() { store.Close() })
	c := &testkit.ShiftedClock{}
	auth, e := verifier.NewAuthenticator(store, verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour,
		Keys: []verifier.SigningKey{{ID: "k", Secret: []byte("0123456789abcdef0123456789abcdef")}}}, c.Now)
	if e != nil {
		t.Fatal(e)
	}
	ln, base := testkit.Listen(t)
	sealer, e := seal.New(bytes.Repeat([]byte{7}, 32))
	if e != nil {
		t.Fatal(e)
	}
	secrets := verifier.WebhookSecrets{Store: store, Sealer: sealer, Now: c.Now}
	srv, e := verifierhttp.New(verifierhttp.Deps{
		Store: store, Limiter: memory.New(c.Now), Auth: auth, Now: c.Now,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Config: verifierhttp.Config{BodyLimit: 1 << 20, ReadTimeout: 30 * time.Second, IdleTimeout: 30 * time.Second, PublicURL: base,
			AuthLimit: ratelimit.Limit{Rate: 50, Period: time.Minute}, WebhookAllowLoopback: true},
		Flow: &flow.Flow{Engines: loadEngines(t), Store: store, Verifications: store, Sealer: flow.SealWith(sealer),
			Now: c.Now, Limits: flow.DefaultLimits, Rand: &flowtest.OrderedRand{}},
		Webhooks: verifierhttp.WebhookDeps{Queue: store, Secrets: secrets},
	})
	if e != nil {
		t.Fatal(e)
	}
	testkit.Serve(t, srv, ln)
	hooks := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusNoContent))
	failing := webhooktest.NewReceiver(t, webhooktest.FailFirst(3, http.StatusInternalServerError))
	pool := x509.NewCertPool()
	pool.AddCert(hooks.Cert)
	pool.AddCert(failing.Cert)
	webhooktest.RunWorker(t, webhook.NewWorker(store, webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: pool, Secrets: secrets, Now: c.Now}),
		webhook.WorkerOptions{Now: c.Now, Log: slog.New(slog.DiscardHandler)}), store.OnWebhookEnqueued)
	e2 := &env{t: t, URL: base, clock: c, store: store, hooks: hooks, failing: failing}
	e2.a = e2.account("owner-a@example.com")
	e2.b = e2.account("owner-b@example.com")
	return e2
}

// account creates an account, signs it in to the API and rotates its
// webhook signing secret (so the test can check signatures).
func (e *env) account(email string) *account {
	e.t.Helper()
	a, err := verifier.NewAccount(email, password, e.clock.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.store.CreateAccount(context.Background(), a); err != nil {
		e.t.Fatal(err)
	}
	acct := &account{id: a.ID, email: email, password: password}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.call(nil, "POST", "/auth", fmt.Sprintf(`{"email":%q,"password":%q}`, email, password), 200, &tok)
	acct.bearer = "Bearer " + tok.AccessToken
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
	data := flowtest.Data{Repo: testkit.RepoRoot(e.t)}
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
