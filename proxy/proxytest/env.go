package proxytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/memory"
	rlmemory "github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/verifierapi"
	"github.com/idgate/idgate/rulesets"
)

// Fixed credentials of every test store (the hash makes them differ).
const (
	IntegrationKey = "idgk_test_publishable"
	ClientID       = "app-client-id"
	webhookValue   = "hdr-secret-"
	webhookSecret  = "whsec_test_"
	clientSecret   = "app-client-secret-"
)

// Options configure an Env.
type Options struct {
	// Stores to serve (hashes, lowercase alphanumeric). Default one store,
	// bigcommercetest.DefaultStoreHash.
	Stores []string
	// Origins allowed for every store. Default https://shop.example.
	Origins      []string
	HoldCheckout bool
	// TestMode puts every store in test mode (proxy.Store.TestMode); with
	// Real, its TestMode does.
	TestMode   bool
	OrderGuard bool
	// Unlinked stores (hashes among Stores) were installed through the
	// BigCommerce app and are not linked to a verifier account yet.
	Unlinked []string
	// Triggers say which orders the order guard holds (default every one).
	Triggers proxy.Triggers
	// ReleaseStatus is where held orders go once verified (default the
	// status they were held from).
	ReleaseStatus int
	// GuestToAccount: a guest's verification carries to the account their
	// order names.
	GuestToAccount bool
	Ruleset        rulesets.Ruleset
	// Now is the proxy's clock (default time.Now).
	Now func() time.Time
	// Cache defaults to the in-process cache.
	Cache cache.Cache
	// ContractsDir holds BigCommerce's documents (Start: the test data);
	// empty runs the doubles unchecked (the demo).
	ContractsDir string
	// OnViolation gets the doubles' contract violations (Start: t.Errorf).
	OnViolation func(error)
	// Addr is where the proxy listens (default a free loopback port).
	Addr   string
	Logger *slog.Logger
	// Real, when set, is a running verifier the proxy creates
	// verifications on (the local demo): the stand-in is not started, and
	// every store uses Real's integration key and webhook secret.
	Real *RealVerifier
	// WebhookBase is the base URL the verifier delivers results to
	// (default the proxy's own URL); a real verifier delivers only over
	// https.
	WebhookBase string
	// App, when set, adds a store that installs through the BigCommerce
	// app (the demo's merchant path; Env.App).
	App *AppOptions
}

// RealVerifier is a running verifier and the credentials of the account
// the demo store uses on it.
type RealVerifier struct {
	URL            string
	IntegrationKey string
	WebhookSecret  string
	// TestMode: IntegrationKey is the account's test key (the demo's), so
	// the stores are in test mode.
	TestMode bool
}

// Env is a running proxy.
type Env struct {
	t        testing.TB // set by Start: the helpers fail the test on error
	URL      string     // the proxy's base URL
	Service  *proxy.Service
	Verifier *Verifier // the stand-in; nil with Options.Real
	Doubles  map[string]*bigcommercetest.Double
	Stores   Stores
	App      *AppEnv // with Options.App
	now      func() time.Time
	closers  []func()
}

// Start runs an Env for the test's lifetime, its doubles reporting
// contract violations as test errors.
func Start(t testing.TB, opts Options) *Env {
	t.Helper()
	if opts.ContractsDir == "" {
		opts.ContractsDir = testkit.Data(t, "contracts", "bigcommerce")
	}
	if opts.OnViolation == nil {
		opts.OnViolation = func(err error) { t.Errorf("%v", err) }
	}
	env, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	env.t = t
	t.Cleanup(env.Close)
	return env
}

// New runs an Env until Close (the local demo; tests use Start).
func New(opts Options) (*Env, error) {
	if len(opts.Stores) == 0 {
		opts.Stores = []string{bigcommercetest.DefaultStoreHash}
	}
	if len(opts.Origins) == 0 {
		opts.Origins = []string{"https://shop.example"}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Cache == nil {
		opts.Cache = memory.New(opts.Now)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	sealer := seal.Ephemeral()
	env := &Env{Doubles: map[string]*bigcommercetest.Double{}, Stores: Stores{}, now: opts.Now}
	verifierURL, apiKey, secret := "", IntegrationKey, func(hash string) string { return webhookSecret + hash }
	if r := opts.Real; r != nil {
		verifierURL, apiKey = r.URL, r.IntegrationKey
		secret = func(string) string { return r.WebhookSecret }
	} else {
		v := &Verifier{Key: IntegrationKey, Allowlist: opts.Origins, deliver: env.deliver}
		env.Verifier = v
		env.closers = append(env.closers, v.start().Close)
		verifierURL = v.URL
	}
	vc, err := verifierapi.New(verifierURL, 5*time.Second)
	if err != nil {
		env.Close()
		return nil, err
	}
	for _, hash := range opts.Stores {
		d, err := bigcommercetest.New(bigcommercetest.Options{
			ContractsDir: opts.ContractsDir, StoreHash: hash, Token: bigcommercetest.DefaultToken, OnViolation: opts.OnViolation,
		})
		if err != nil {
			env.Close()
			return nil, err
		}
		env.closers = append(env.closers, d.StartServer().Close)
		env.Doubles[hash] = d
		st := &proxy.Store{
			Hash: hash, AccessToken: bigcommercetest.DefaultToken, APIBaseURL: d.BaseURL(),
			AppClientID: ClientID, AppClientSecret: bigcommerce.Secret(clientSecret + hash),
			IntegrationKey: apiKey, WebhookSecret: bigcommerce.Secret(secret(hash)),
			WebhookHeaderValue: bigcommerce.Secret(webhookValue + hash), Ruleset: opts.Ruleset,
			HoldCheckout: opts.HoldCheckout, TestMode: opts.TestMode || (opts.Real != nil && opts.Real.TestMode), OrderGuard: opts.OrderGuard, Triggers: opts.Triggers, ReleaseStatus: opts.ReleaseStatus, AllowedOrigins: append([]string(nil), opts.Origins...),
			GuestToAccount: opts.GuestToAccount,
		}
		if slices.Contains(opts.Unlinked, hash) {
			st.AppInstalled, st.IntegrationKey, st.WebhookSecret = true, "", ""
		}
		if err := st.Normalize(); err != nil {
			env.Close()
			return nil, err
		}
		env.Stores[hash] = st
	}
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		env.Close()
		return nil, err
	}
	env.URL = "http://" + ln.Addr().String()
	webhookBase := env.URL
	if opts.WebhookBase != "" {
		webhookBase = opts.WebhookBase
	}
	var stores proxy.Stores = env.Stores
	var appOpts []proxyhttp.Option
	if opts.App != nil {
		app, err := env.startApp(opts.App, env.URL, sealer, verifierURL, opts)
		if err != nil {
			ln.Close()
			env.Close()
			return nil, err
		}
		stores = either{env.Stores, app.Registry}
		appOpts = append(appOpts, proxyhttp.WithApp(app))
	}
	env.Service = &proxy.Service{
		Stores: stores, Sealer: sealer, Cache: opts.Cache, Verifier: vc,
		PublicURL: webhookBase, Now: opts.Now, Limiter: rlmemory.New(opts.Now),
	}
	app, err := proxyhttp.New(env.Service, opts.Logger, appOpts...)
	if err != nil {
		ln.Close()
		env.Close()
		return nil, err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = app.Listener(ln)
	}()
	env.closers = append(env.closers, func() {
		_ = app.ShutdownWithTimeout(5 * time.Second)
		// A Shutdown that runs before the goroutine above reached Serve
		// finds no server to stop, and Serve then accepts forever: CI hung
		// here for 14 minutes once (fasthttp 1.51). Closing the listener
		// ends Serve in either order.
		_ = ln.Close()
		wg.Wait()
	})
	return env, nil
}

// Close stops everything New started, the proxy first.
func (e *Env) Close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
	e.closers = nil
}

// CustomerJWT is what the store's /customer/current.jwt would return for
// customer id, valid from now.
func (e *Env) CustomerJWT(hash string, id int64) string {
	e.t.Helper()
	st := e.Stores[hash]
	tok, err := bigcommercetest.CurrentCustomerJWT(e.customer(id), st.AppClientID, string(st.AppClientSecret), hash, e.now())
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// customer is the test customer with ID id.
func (e *Env) customer(id int64) bigcommerce.CurrentCustomer {
	return bigcommerce.CurrentCustomer{ID: id, Email: "c" + strconv.FormatInt(id, 10) + "@example.com"}
}

// Ref is the external_id the proxy would give a verification for shopper.
func (e *Env) Ref(hash string, sh proxy.Shopper) string {
	e.t.Helper()
	ref, err := proxy.SealRef(e.Service.Sealer, hash, sh)
	if err != nil {
		e.t.Fatal(err)
	}
	return ref
}

// Result builds a webhook body: verification members over a passing base.
func Result(requestID, externalID string, verification map[string]any) []byte {
	v := map[string]any{
		"license_appears_real": true, "license_expired": false, "over_18": true, "over_21": true,
		"webcam_appears_live": true, "webcam_face_matches_license_photo": true,
		"face_match_score": "definite_match", "face_match_confidence": 0.97,
		"face_match_cosine_similarity": 0.8, "ip_found": true, "is_proxy": false,
	}
	for k, val := range verification {
		v[k] = val
	}
	b, _ := json.Marshal(map[string]any{
		"request_id": requestID, "external_id": externalID, "verification": v, "license_data": map[string]any{},
	})
	return b
}

// NewRequestID is a fresh verification ID.
func NewRequestID() string { return uuid.NewString() }

// Sign returns the Idgate-Signature of body at t with the store's secret,
// made by the signer the verifier's sender uses (client.Sign).
func (e *Env) Sign(hash string, body []byte, at time.Time) string {
	return client.Sign([][]byte{[]byte(e.Stores[hash].WebhookSecret)}, at, body)
}

// Deliver posts body to the store's webhook as the verifier would: the
// custom header and a signature made now.
func (e *Env) Deliver(hash string, body []byte) *http.Response {
	e.t.Helper()
	return e.DeliverWith(hash, body, string(e.Stores[hash].WebhookHeaderValue), e.Sign(hash, body, e.now()))
}

// DeliverWith posts body with the given custom header value and signature.
func (e *Env) DeliverWith(hash string, body []byte, header, signature string) *http.Response {
	e.t.Helper()
	resp, err := e.post(hash, body, header, signature)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// deliver is Deliver for the demo: no test to fail.
func (e *Env) deliver(hash string, body []byte) error {
	resp, err := e.post(hash, body, string(e.Stores[hash].WebhookHeaderValue), e.Sign(hash, body, e.now()))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("webhook answered %d: %s", resp.StatusCode, b)
	}
	return nil
}

func (e *Env) post(hash string, body []byte, header, signature string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, e.URL+proxy.WebhookPath(hash), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "idgate-webhook/1")
	if header != "" {
		req.Header.Set(e.Stores[hash].WebhookHeader, header)
	}
	if signature != "" {
		req.Header.Set("Idgate-Signature", signature)
	}
	return http.DefaultClient.Do(req)
}
