package proxy

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Coded errors the HTTP layer maps to statuses.
var (
	// ErrInvalidInput: a malformed cart ID, body or reference.
	ErrInvalidInput = errors.New("invalid input")
	// ErrMalformedJSON: a body that is not JSON at all (truncated, not
	// JSON), as opposed to JSON with a bad member (ErrInvalidInput).
	ErrMalformedJSON = errors.New("malformed JSON")
	// ErrCustomerToken: the Current Customer JWT was refused.
	ErrCustomerToken = bigcommerce.ErrCustomerToken
	// ErrOriginNotAllowed: the request came from no origin of the store.
	ErrOriginNotAllowed = errors.New("origin not allowed for this store")
	// ErrNotLinked: an app-installed store has no verifier account yet.
	ErrNotLinked = errors.New("the store is not linked to a verifier account yet")
	// ErrUpstream: BigCommerce or the verifier failed.
	ErrUpstream = errors.New("upstream service failed")
)

// DefaultCacheTTL bounds how long a status is served from the cache. The
// webhook overwrites the entry at once, so the TTL only matters for other
// instances' in-process caches and for changes made outside the proxy.
const DefaultCacheTTL = 30 * time.Second

// Platform is what the proxy needs of a store's Management API
// (*bigcommerce.Client).
type Platform interface {
	LoadOutcome(ctx context.Context, res bigcommerce.Resource) (bigcommerce.Outcome, error)
	SaveOutcome(ctx context.Context, res bigcommerce.Resource, o bigcommerce.Outcome) error
	GetOrder(ctx context.Context, orderID int64) (bigcommerce.OrderSummary, error)
	ShippingAddresses(ctx context.Context, orderID int64) ([]bigcommerce.ShipTo, error)
	SetOrderStatus(ctx context.Context, orderID int64, statusID int) error
	HeldOrders(ctx context.Context, cartID string) ([]bigcommerce.OrderSummary, error)
	GetCart(ctx context.Context, cartID string) (bigcommerce.CartSummary, error)
}

// Verifier creates verifications (proxy/verifierapi over HTTP).
type Verifier interface {
	CreateVerification(ctx context.Context, r CreateRequest) (Created, error)
}

// CreateRequest is a verification the proxy asks the verifier for, with
// the store's publishable integration key and the shopper's storefront
// origin (the key's allowlist is checked against it).
type CreateRequest struct {
	IntegrationKey string
	Origin         string
	ExternalID     string
	WebhookURL     string
	WebhookHeaders map[string]string
}

// Created is the verifier's answer: the verification and its end-user link.
type Created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// Service is the proxy's logic, independent of HTTP.
type Service struct {
	Stores   Stores
	Sealer   *seal.Sealer
	Cache    cache.Cache
	Verifier Verifier
	// NewPlatform builds the Management API client of a store; by default
	// a *bigcommerce.Client with the store's token and APIBaseURL.
	NewPlatform func(*Store) (Platform, error)
	// PublicURL is the proxy's external base URL: the verifier delivers
	// webhooks to PublicURL/proxy/v1/stores/{hash}/webhook.
	PublicURL string
	Now       func() time.Time
	CacheTTL  time.Duration
	// SignatureTolerance defaults to DefaultSignatureTolerance.
	SignatureTolerance time.Duration
	// Limiter bounds starts per client IP and per cart (nil: no limit).
	Limiter ratelimit.Limiter

	mu        sync.Mutex
	platforms map[string]platformFor
}

// platformFor is a store's client and what it was built with: a store
// changed since (a reinstall brings a new token) gets a new client.
type platformFor struct {
	p       Platform
	token   bigcommerce.Secret
	baseURL string
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) cacheTTL() time.Duration {
	if s.CacheTTL <= 0 {
		return DefaultCacheTTL
	}
	return s.CacheTTL
}

// platform returns the store's client, built once per store and token.
func (s *Service) platform(st *Store) (Platform, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.platforms[st.Hash]; ok && p.token == st.AccessToken && p.baseURL == st.APIBaseURL {
		return p.p, nil
	}
	build := s.NewPlatform
	if build == nil {
		build = func(st *Store) (Platform, error) {
			return bigcommerce.New(bigcommerce.Config{StoreHash: st.Hash, Token: st.AccessToken, BaseURL: st.APIBaseURL})
		}
	}
	p, err := build(st)
	if err != nil {
		return nil, fmt.Errorf("platform client for store %s: %w", st.Hash, err)
	}
	if s.platforms == nil {
		s.platforms = map[string]platformFor{}
	}
	s.platforms[st.Hash] = platformFor{p: p, token: st.AccessToken, baseURL: st.APIBaseURL}
	return p, nil
}

// store looks up hash and checks origin when one is given.
func (s *Service) store(ctx context.Context, hash, origin string) (*Store, error) {
	st, err := s.Stores.Store(ctx, hash)
	if err != nil {
		return nil, err
	}
	if origin != "" && !st.AllowsOrigin(origin) {
		return nil, fmt.Errorf("store %s: %w: %q", hash, ErrOriginNotAllowed, origin)
	}
	return st, nil
}

// shopper validates the cart ID and, with a token, proves the customer.
// The customer ID comes only from a verified Current Customer JWT.
func (s *Service) shopper(st *Store, cartID, customerToken string) (Shopper, error) {
	if id, err := uuid.Parse(cartID); err != nil || len(cartID) != 36 || id.String() != cartID {
		return Shopper{}, &InputError{Field: "cart_id", Message: "want a lowercase UUID"}
	}
	sh := Shopper{CartID: cartID}
	if customerToken != "" {
		c, err := bigcommerce.VerifyCurrentCustomer(customerToken, st.AppClientID, string(st.AppClientSecret), st.Hash, s.now())
		if err != nil {
			return Shopper{}, err
		}
		sh.CustomerID = c.ID
	}
	return sh, nil
}
