package verifiertest

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// Options configure Start. The zero value is the API and the dashboard on
// SQLite, on real time, with no flow and no webhook endpoints.
type Options struct {
	// Store defaults to a fresh SQLite file in the test's directory.
	Store *sqlstore.DB
	// Now is every part's clock (default time.Now).
	Now func() time.Time
	// Tokens default to parts.Tokens().
	Tokens *verifier.TokenConfig
	// Sealer seals secrets and flow sessions (default a fixed test key).
	Sealer *seal.Sealer
	// Logger defaults to one that discards.
	Logger *slog.Logger
	// Config is the server's; a zero BodyLimit, ReadTimeout or IdleTimeout
	// is 1 MiB, 30 s, 30 s, and an empty PublicURL the server's own URL.
	Config vhttp.Config
	// Flow, when set, serves the end-user flow; a nil Store, Verifications,
	// Sealer, Now or zero Limits take the verifier's (flow.DefaultLimits).
	// Engines is the caller's (enginestest.Load).
	Flow *flow.Flow
	// Webhooks serves the webhook endpoints (delivery log, retries, secret
	// rotation) over the store's outbox.
	Webhooks bool
}

// Verifier is a running verifier.
type Verifier struct {
	URL     string // its base URL, http://127.0.0.1:port
	Store   *sqlstore.DB
	Server  *vhttp.Server
	Sealer  *seal.Sealer
	Auth    *verifier.Authenticator // issues the API's tokens (the benchmarks sign in without POST /auth)
	Secrets verifier.WebhookSecrets // the accounts' webhook secrets
	Now     func() time.Time
	t       testing.TB // set by Start: the helpers fail the test on error
	stop    func()
}

// Start serves the verifier on loopback until the test ends.
func Start(t testing.TB, opts Options) *Verifier {
	t.Helper()
	if opts.Store == nil {
		opts.Store = parts.OpenSQLite(t)
	}
	v, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	v.t = t
	t.Cleanup(v.Close)
	return v
}

// New serves the verifier on loopback until Close (the benchmarks; tests
// use Start). Options.Store is required.
func New(opts Options) (*Verifier, error) {
	if opts.Store == nil {
		return nil, errors.New("verifiertest: New needs a store")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Tokens == nil {
		tokens := parts.Tokens()
		opts.Tokens = &tokens
	}
	if opts.Sealer == nil {
		s, err := seal.New(bytes.Repeat([]byte{7}, 32))
		if err != nil {
			return nil, err
		}
		opts.Sealer = s
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	cfg := opts.Config
	if cfg.BodyLimit == 0 {
		cfg.BodyLimit = 1 << 20
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 30 * time.Second
	}
	if cfg.PublicURL == "" {
		cfg.PublicURL = base
	}
	store := opts.Store
	auth, err := verifier.NewAuthenticator(store, *opts.Tokens, opts.Now)
	if err != nil {
		ln.Close()
		return nil, err
	}
	v := &Verifier{URL: base, Store: store, Sealer: opts.Sealer, Auth: auth, Now: opts.Now,
		Secrets: verifier.WebhookSecrets{Store: store, Sealer: opts.Sealer, Now: opts.Now}}
	d := vhttp.Deps{Store: store, Limiter: memory.New(opts.Now), Auth: auth, Now: opts.Now, Logger: opts.Logger, Config: cfg}
	if opts.Flow != nil {
		d.Flow = parts.Flow(opts.Flow, store, opts.Sealer, opts.Now)
	}
	if opts.Webhooks {
		d.Webhooks = vhttp.WebhookDeps{Queue: store, Secrets: v.Secrets}
	}
	if v.Server, err = vhttp.New(d); err != nil {
		ln.Close()
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- v.Server.Serve(ln) }()
	v.stop = func() {
		// As testkit.Serve: 5 s for requests in flight.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = v.Server.Shutdown(ctx)
		<-done
	}
	return v, nil
}

// Close stops the server (not the store, which is the caller's).
func (v *Verifier) Close() { v.stop() }

// Account creates an account in the store and signs it in through POST
// /auth (after Start: it fails the test); it returns the account and the
// Authorization header's value.
func (v *Verifier) Account(email, password string) (verifier.Account, string) {
	v.t.Helper()
	a := parts.Account(v.t, v.Store, email, password, v.Now())
	return a, v.SignIn(email, password)
}

// SignIn signs in through POST /auth and returns "Bearer …".
func (v *Verifier) SignIn(email, password string) string {
	v.t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	testkit.CallJSON(v.t, "POST", v.URL+"/auth", "", fmt.Sprintf(`{"email":%q,"password":%q}`, email, password), 200, &tok)
	return "Bearer " + tok.AccessToken
}

// RunWebhooks runs the real worker and sender over the store's outbox
// until the test ends, trusting roots (the receivers' certificates) and
// delivering to loopback; opts are the worker's (its Now and Log the
// caller's to set).
func (v *Verifier) RunWebhooks(roots *x509.CertPool, senderNow func() time.Time, opts webhook.WorkerOptions) {
	v.t.Helper()
	webhooktest.RunWorker(v.t, parts.Worker(v.Store, roots, v.Secrets, senderNow, opts), v.Store.OnWebhookEnqueued)
}
