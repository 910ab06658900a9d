package proxy

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Delivery is one webhook request as received.
type Delivery struct {
	// HeaderValue is the value of the store's custom WebhookHeader.
	HeaderValue string
	// Signature is the Idgate-Signature header.
	Signature string
	Body      []byte
}

// Applied reports what a delivery did.
type Applied struct {
	VerificationID string `json:"verification_id"`
	Pass           bool   `json:"pass"`
	// Duplicate is true when this request_id was already applied; nothing
	// was written.
	Duplicate bool `json:"duplicate"`
}

// webhookBody is what the receiver reads of the result payload; the rest
// is read by the ruleset from the raw body.
type webhookBody struct {
	RequestID  string `json:"request_id"`
	ExternalID string `json:"external_id"`
	// Livemode is false in a test verification's result (absent in results
	// from verifiers before test mode: live).
	Livemode     *bool `json:"livemode"`
	Verification *struct {
		ManualReviewRequested bool `json:"manual_review_requested"`
	} `json:"verification"`
}

// seenTTL keeps the record of an applied request_id for twice the
// signature tolerance: an exact replay is refused by its timestamp after
// that, and recognised as a duplicate before.
func (s *Service) seenTTL() time.Duration { return 2 * s.tolerance() }

func (s *Service) tolerance() time.Duration {
	if s.SignatureTolerance <= 0 {
		return DefaultSignatureTolerance
	}
	return s.SignatureTolerance
}

// seenKey records an applied delivery. The status is part of it: a
// manual_review delivery may be followed by a completed one for the same
// request_id, which must not be taken for a duplicate.
func seenKey(hash, requestID, status string) string {
	return "proxy:webhook:" + hash + ":" + requestID + ":" + status
}

// target is a resource an outcome is written on, with its cache key.
type target struct {
	res bigcommerce.Resource
	key string
}

// ApplyWebhook authenticates a delivery (the store's custom header AND the
// signature), evaluates the result against the store's ruleset and writes
// the outcome on the cart and, when known, the customer, replacing any
// earlier one, and on the cart's orders the guard holds (settleHeldOrders). A request_id already applied is acknowledged without a write.
func (s *Service) ApplyWebhook(ctx context.Context, hash string, d Delivery) (Applied, error) {
	st, err := s.store(ctx, hash, "")
	if err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(d.HeaderValue), []byte(st.WebhookHeaderValue)) != 1 {
		return Applied{}, fmt.Errorf("apply webhook: %w: custom header %s missing or wrong", ErrWebhookAuth, st.WebhookHeader)
	}
	if err := verifySignature([]byte(st.WebhookSecret), d.Signature, d.Body, s.now(), s.tolerance()); err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", err)
	}
	var b webhookBody
	if err := DecodeStrict(d.Body, &b, "a JSON result payload"); err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", err)
	}
	if _, err := uuid.Parse(b.RequestID); err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", &InputError{Field: "request_id", Message: "want a UUID"})
	}
	test := b.Livemode != nil && !*b.Livemode
	if test && !st.TestMode {
		// A real store never takes a test result as a verification: the
		// verifier records the refusal (its webhook_status fails).
		return Applied{}, fmt.Errorf("apply webhook: %w", &InputError{Field: "livemode", Code: "test_mode_off",
			Message: "a test verification's result; this store is not in test mode"})
	}
	sh, err := OpenRef(s.Sealer, st.Hash, b.ExternalID)
	if err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", &InputError{Field: "external_id", Message: "not a reference this proxy issued for this store"})
	}
	status := "completed"
	if b.Verification != nil && b.Verification.ManualReviewRequested {
		status = "manual_review"
	}
	if _, err := s.Cache.Get(ctx, seenKey(st.Hash, b.RequestID, status)); err == nil {
		return Applied{VerificationID: b.RequestID, Duplicate: true}, nil
	}
	p, err := s.platform(st)
	if err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w", err)
	}
	cart := bigcommerce.Cart(sh.CartID)
	// The platform is the record: a request_id it already holds with the
	// same status was applied (by a retry the cache has forgotten).
	prev, err := p.LoadOutcome(ctx, cart)
	switch {
	case err == nil && prev.VerificationID == b.RequestID && prev.Status == status:
		return Applied{VerificationID: b.RequestID, Pass: prev.Pass, Duplicate: true}, nil
	case err != nil && !errors.Is(err, bigcommerce.ErrNoOutcome):
		return Applied{}, fmt.Errorf("apply webhook: %w: %w", ErrUpstream, err)
	}
	decision := st.Ruleset.Evaluate(d.Body)
	now := s.now().UTC().Truncate(time.Second)
	o := bigcommerce.Outcome{
		VerificationID: b.RequestID, Status: status, Pass: decision.Pass,
		Reasons: decision.Reasons, EvaluatedAt: now, Test: test, Guest: sh.CustomerID == 0,
	}
	if o.Pass {
		o.ExpiresAt = now.Add(st.ApprovalTTL)
	}
	if err := s.settleHeldOrders(ctx, p, st, sh, &o); err != nil {
		return Applied{}, fmt.Errorf("apply webhook: %w: %w", ErrUpstream, err)
	}
	targets := []target{{cart, cartKey(st.Hash, sh.CartID)}}
	if sh.CustomerID > 0 {
		targets = append(targets, target{bigcommerce.Customer(sh.CustomerID), customerKey(st.Hash, sh.CustomerID)})
	}
	for _, t := range targets {
		// Drop the cached entry first: if the write fails half-way, readers
		// go to the platform rather than trust a stale status.
		_ = s.Cache.Delete(ctx, t.key)
		if err := p.SaveOutcome(ctx, t.res, o); err != nil {
			return Applied{}, fmt.Errorf("apply webhook: %w: %w", ErrUpstream, err)
		}
		s.cachePut(ctx, t.key, cachedOutcome{Found: true, Outcome: o})
	}
	_ = s.Cache.Set(ctx, seenKey(st.Hash, b.RequestID, status), []byte{1}, s.seenTTL())
	return Applied{VerificationID: b.RequestID, Pass: o.Pass}, nil
}
