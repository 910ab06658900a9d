package proxy

import (
	"context"
	"fmt"
	"strings"
)

// WebhookPath is where the verifier delivers a store's results, under the
// proxy's public URL.
func WebhookPath(hash string) string { return "/proxy/v1/stores/" + hash + "/webhook" }

// Start creates a verification for the shopper and returns its end-user
// link. The proxy, not the browser, calls the verifier, because only the
// server can bind the verification to the right cart and customer: it sets
// external_id to the sealed shopper reference (a customer ID taken from a
// verified Current Customer JWT, never from the browser), and the
// webhook_url and authenticating webhook_headers, which a browser could
// otherwise point elsewhere or read.
//
// clientIP is the shopper's address, for the per-IP start limit.
func (s *Service) Start(ctx context.Context, hash, origin, clientIP, cartID, customerToken string) (Created, error) {
	if origin == "" {
		return Created{}, fmt.Errorf("start verification: %w: no Origin", ErrOriginNotAllowed)
	}
	st, err := s.store(ctx, hash, origin)
	if err != nil {
		return Created{}, fmt.Errorf("start verification: %w", err)
	}
	if !st.Linked() {
		return Created{}, fmt.Errorf("start verification: store %s: %w", st.Hash, ErrNotLinked)
	}
	sh, err := s.shopper(st, cartID, customerToken)
	if err != nil {
		return Created{}, fmt.Errorf("start verification: %w", err)
	}
	if err := s.allowStart(ctx, st.Hash, clientIP, sh.CartID); err != nil {
		return Created{}, fmt.Errorf("start verification: %w", err)
	}
	c, err := s.create(ctx, st, origin, sh)
	if err != nil {
		return Created{}, fmt.Errorf("start verification: %w", err)
	}
	return c, nil
}

// create asks the verifier for a verification of the shopper, created
// from origin (a storefront origin of the store, which the key's allowlist
// checks and the end user's Done page leads back to).
func (s *Service) create(ctx context.Context, st *Store, origin string, sh Shopper) (Created, error) {
	ref, err := SealRef(s.Sealer, st.Hash, sh)
	if err != nil {
		return Created{}, &InputError{Field: "cart_id", Message: err.Error()}
	}
	c, err := s.Verifier.CreateVerification(ctx, CreateRequest{
		IntegrationKey: st.IntegrationKey,
		Origin:         origin,
		ExternalID:     ref,
		WebhookURL:     strings.TrimSuffix(s.PublicURL, "/") + WebhookPath(st.Hash),
		WebhookHeaders: map[string]string{st.WebhookHeader: string(st.WebhookHeaderValue)},
	})
	if err != nil {
		return Created{}, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	return c, nil
}
