package bigcommercetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// DefaultToken is the access token Start accepts unless told otherwise.
const DefaultToken = "bc-test-token-6f1d0c2a"

// Start serves a Double for the test's lifetime. Unset options get: the
// shared contracts (through testkit), DefaultToken, and t.Errorf for
// contract violations.
func Start(t testing.TB, opts Options) *Double {
	t.Helper()
	if opts.ContractsDir == "" {
		opts.ContractsDir = testkit.Data(t, "contracts", "bigcommerce")
	}
	if opts.Token == "" {
		opts.Token = DefaultToken
	}
	if opts.OnViolation == nil {
		opts.OnViolation = func(err error) { t.Errorf("%v", err) }
	}
	d, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := d.StartServer()
	t.Cleanup(srv.Close)
	return d
}

// Clock is a fake clock for the client and the double together: Sleep
// advances it at once and records the duration, so retry and rate-limit
// waits are tested without waiting.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

// NewClock starts a Clock at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Sleep advances the clock by d, unless ctx is already done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

// Slept lists every Sleep so far.
func (c *Clock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// CurrentCustomerJWT signs what the storefront's /customer/current.jwt
// would return for customer: HS256 with the app's client secret, valid for
// 15 minutes from issuedAt.
func CurrentCustomerJWT(customer bigcommerce.CurrentCustomer, clientID, clientSecret, storeHash string, issuedAt time.Time) (string, error) {
	claims := bigcommerce.CustomerClaims(customer, clientID, storeHash, issuedAt, 15*time.Minute)
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(clientSecret))
	if err != nil {
		return "", fmt.Errorf("sign current customer JWT: %w", err)
	}
	return token, nil
}

// Test app credentials StartControlPanel registers unless told otherwise.
const (
	AppClientID     = "idgate-app-client-id"
	AppClientSecret = "idgate-app-client-secret-4b1e"
)

// StartControlPanel serves a ControlPanel for the test's lifetime holding
// the given stores (each owned by a user of ID 1). Unset options get the
// test app's credentials and t.Errorf for contract violations; RedirectURI
// is required (the app's auth callback).
func StartControlPanel(t testing.TB, opts ControlPanelOptions, stores ...*Double) *ControlPanel {
	t.Helper()
	if opts.ClientID == "" {
		opts.ClientID = AppClientID
	}
	if opts.ClientSecret == "" {
		opts.ClientSecret = AppClientSecret
	}
	if opts.OnViolation == nil {
		opts.OnViolation = func(err error) { t.Errorf("%v", err) }
	}
	cp, err := NewControlPanel(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range stores {
		cp.AddStore(d, bigcommerce.AppUser{ID: 1, Email: "owner@" + d.StoreHash() + ".example"})
	}
	srv := cp.StartServer()
	t.Cleanup(srv.Close)
	return cp
}
