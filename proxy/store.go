package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// Defaults for a Store's optional settings.
const (
	// DefaultApprovalTTL is how long a passing verification keeps a cart or
	// customer verified.
	DefaultApprovalTTL = 30 * 24 * time.Hour
	// DefaultWebhookHeader is the custom header the verifier is asked to
	// send with every delivery (webhook_headers), beside its signature.
	DefaultWebhookHeader = "X-Idgate-Proxy-Auth"
)

// DefaultCheckoutSelectors match the checkout buttons of BigCommerce's
// Cornerstone theme: the cart page's "Check out" button, the cart preview's
// (header dropdown) and the wallet buttons (PayPal, Apple Pay...) under the
// cart.
var DefaultCheckoutSelectors = []string{
	".cart-actions .button--primary",
	".previewCartAction-checkout .button",
	".cart-additionalCheckoutButtons",
}

// testKeyPrefix starts the verifier's test integration keys.
const testKeyPrefix = "idgk_test_"

// isTestKey reports whether key has the shape of the verifier's test keys
// (the prefix and 43 base64url characters).
func isTestKey(key string) bool {
	return strings.HasPrefix(key, testKeyPrefix) && len(key) == len(testKeyPrefix)+43
}

// ErrInvalidStore is wrapped by every configuration validation failure.
var ErrInvalidStore = errors.New("invalid store configuration")

// ErrUnknownStore is returned for a store hash nobody configured.
var ErrUnknownStore = errors.New("unknown store")

// Store is one storefront's configuration, secrets decrypted (in memory
// only: they are sealed at rest). Secret fields print as [redacted].
type Store struct {
	Hash string // BigCommerce store hash
	URL  string // the storefront URL, https://store-{hash}.mybigcommerce.com or a custom domain
	// AccessToken is the storeAccessToken of a store-level API account with
	// read/write on carts and customers (and orders for the order guard).
	AccessToken bigcommerce.Secret
	// APIBaseURL overrides the Management API (tests and the demo); empty is
	// bigcommerce.DefaultBaseURL.
	APIBaseURL string
	// AppClientID and AppClientSecret verify the Current Customer JWT.
	AppClientID     string
	AppClientSecret bigcommerce.Secret
	// IntegrationKey is the verifier's publishable key; its allowlist must
	// hold the storefront's origins. Used by the proxy, server side.
	IntegrationKey string
	// WebhookSecret is the verifier's signing secret (whsec_...) for the
	// Idgate-Signature header.
	WebhookSecret bigcommerce.Secret
	// VerifierAccountID and VerifierAccountEmail name the verifier account
	// the settings page linked the store to (empty for a store linked by
	// hand): stores of one account share its webhook secret and its key.
	VerifierAccountID, VerifierAccountEmail string
	// WebhookHeader and WebhookHeaderValue are the custom header every
	// delivery must carry (sent as webhook_headers at creation).
	WebhookHeader      string
	WebhookHeaderValue bigcommerce.Secret
	Ruleset            rulesets.Ruleset
	// HoldCheckout disables the checkout buttons until verified.
	HoldCheckout bool
	// TestMode accepts test verifications' results (livemode false), which a
	// store not in test mode refuses, and marks their outcomes test; its
	// integration key should be the verifier's test key (idgk_test_...),
	// which a store not in test mode may not hold. Off by default: only the
	// demo store and stores being set up use it.
	TestMode bool
	// OrderGuard puts orders placed without a passing verification into
	// status 12 "Manual Verification Required" (a footer script alone can
	// be bypassed); needs the store/order/created webhook (store install).
	OrderGuard bool
	// Triggers say which orders the order guard holds (none: every order).
	Triggers Triggers
	// ReleaseStatus is the status a held order moves on to once verified
	// or approved: one of ReleaseChoices, or ReleaseAsBefore (0), the
	// status it was held from.
	ReleaseStatus     int
	CheckoutSelectors []string
	// AllowedOrigins are the storefront origins (scheme://host[:port]) the
	// widget runs on; CORS allows exactly these. The store's URL's origin
	// is one; a custom domain is another (the settings page's addresses).
	AllowedOrigins []string
	// KeyHosts are the hosts the integration key was made for, when the
	// settings page made it (LinkAccount): an address added since is not
	// on the key's allowlist, so the verifier refuses its shoppers, until
	// the merchant makes a new key (the page says so: HostsOffKey). Empty
	// for a key made by hand.
	KeyHosts    []string
	ApprovalTTL time.Duration
	// GuestToAccount carries a guest's verification to the customer
	// account their order names (an account made at checkout): the order
	// guard, or a result settling a held order, writes the cart's outcome
	// on that customer, so the customer skips the next verification while
	// it lasts (carry.go). Off by default: the merchant chooses.
	GuestToAccount bool
	// AppInstalled: the store installed the single-click app (its token came
	// from the auth callback, and the uninstall callback removes it). Such a
	// store may be unlinked (no integration key and webhook secret yet, see
	// Linked) until the merchant links it on the settings page.
	AppInstalled bool
	// Users are the control panel users (BigCommerce user IDs) the app's
	// callbacks vouched for: the installer and owner, and every user a load
	// callback named; remove_user takes one out. Only they open the
	// settings page.
	Users []int64
}

// Linked reports whether the store can start verifications: it has the
// verifier account's integration key and webhook signing secret.
func (s *Store) Linked() bool { return s.IntegrationKey != "" && s.WebhookSecret != "" }

// HostsOffKey are the storefront's hosts that the integration key the
// settings page made does not allow (none when the key was made by hand,
// whose allowlist the proxy does not know).
func (s *Store) HostsOffKey() []string {
	if !s.Linked() || len(s.KeyHosts) == 0 {
		return nil
	}
	var off []string
	for _, h := range StorefrontHosts(s) {
		if !slices.Contains(s.KeyHosts, h) {
			off = append(off, h)
		}
	}
	return off
}

// HasUser reports whether the control panel user id may use the app.
func (s *Store) HasUser(id int64) bool { return slices.Contains(s.Users, id) }

// Normalize fills defaults (hash from URL, selectors, header, TTL, origin
// of the URL) and validates. It is what `store add` and the loader call.
func (s *Store) Normalize() error {
	if s.Hash == "" && s.URL != "" {
		h, err := bigcommerce.StoreHashFromURL(s.URL)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInvalidStore, err)
		}
		s.Hash = h
	}
	if err := bigcommerce.ValidateStoreHash(s.Hash); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidStore, err)
	}
	if s.URL == "" {
		s.URL = "https://store-" + s.Hash + ".mybigcommerce.com"
	}
	origin, err := Origin(s.URL)
	if err != nil {
		return fmt.Errorf("%w: store URL: %v", ErrInvalidStore, err)
	}
	if len(s.AllowedOrigins) == 0 {
		s.AllowedOrigins = []string{origin}
	}
	for i, o := range s.AllowedOrigins {
		n, err := Origin(o)
		if err != nil || n != strings.TrimSuffix(o, "/") {
			return fmt.Errorf("%w: allowed origin %q: want scheme://host[:port] with no path", ErrInvalidStore, o)
		}
		s.AllowedOrigins[i] = n
	}
	if len(s.CheckoutSelectors) == 0 {
		s.CheckoutSelectors = append([]string(nil), DefaultCheckoutSelectors...)
	}
	if s.WebhookHeader == "" {
		s.WebhookHeader = DefaultWebhookHeader
	}
	if s.ApprovalTTL <= 0 {
		s.ApprovalTTL = DefaultApprovalTTL
	}
	if s.Ruleset == (rulesets.Ruleset{}) {
		s.Ruleset = rulesets.Default()
	}
	var missing []string
	required := []struct{ name, value string }{
		{"access token", string(s.AccessToken)}, {"app client ID", s.AppClientID},
		{"app client secret", string(s.AppClientSecret)}, {"webhook header value", string(s.WebhookHeaderValue)},
	}
	if !s.AppInstalled || s.IntegrationKey != "" || s.WebhookSecret != "" {
		// An app-installed store may wait for its link, but not half of it.
		required = append(required, []struct{ name, value string }{
			{"integration key", s.IntegrationKey}, {"webhook secret", string(s.WebhookSecret)},
		}...)
	}
	for _, f := range required {
		if f.value == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: store %s: missing %s", ErrInvalidStore, s.Hash, strings.Join(missing, ", "))
	}
	if isTestKey(s.IntegrationKey) && !s.TestMode {
		// Its verifications would be test ones, whose results this store
		// would refuse: set test_mode, or use the live key.
		return fmt.Errorf("%w: store %s: a test integration key (%s...) needs test_mode", ErrInvalidStore, s.Hash, testKeyPrefix)
	}
	if err := s.Ruleset.Validate(); err != nil {
		return fmt.Errorf("%w: store %s: %v", ErrInvalidStore, s.Hash, err)
	}
	if err := s.Triggers.normalize(); err != nil {
		return fmt.Errorf("%w: store %s: %v", ErrInvalidStore, s.Hash, err)
	}
	if err := validReleaseStatus(s.ReleaseStatus); err != nil {
		return fmt.Errorf("%w: store %s: %v", ErrInvalidStore, s.Hash, err)
	}
	return nil
}

// AllowsOrigin reports whether origin is one of the storefront's.
func (s *Store) AllowsOrigin(origin string) bool {
	for _, o := range s.AllowedOrigins {
		if o == origin {
			return true
		}
	}
	return false
}

// Origin returns the scheme://host[:port] of an http(s) URL, lowercased.
func Origin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return "", fmt.Errorf("%q is not an absolute http(s) URL", raw)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return "", fmt.Errorf("%q: storefronts are https (http only for localhost)", raw)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// Stores finds a store's configuration by hash.
type Stores interface {
	// Store returns the store, or ErrUnknownStore.
	Store(ctx context.Context, hash string) (*Store, error)
}

// Registry is the stores the app adds, changes and removes while the proxy
// runs; every proxy instance sharing it sees the change on its next lookup
// (proxy/storefile).
type Registry interface {
	Stores
	// Put validates and saves st, replacing the store with its hash.
	Put(ctx context.Context, st *Store) error
	// Update changes the saved store hash atomically: change gets the store
	// as saved now (a copy of its own), and what it leaves is validated and
	// saved; an error from change saves nothing. ErrUnknownStore if absent.
	Update(ctx context.Context, hash string, change func(*Store) error) (*Store, error)
	// List returns every store, by hash.
	List() ([]*Store, error)
	// Delete removes the store and its secrets; ErrUnknownStore if absent.
	Delete(ctx context.Context, hash string) error
}
