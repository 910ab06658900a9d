package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// States of a shopper, as the widget renders them.
const (
	StateUnverified = "unverified" // no outcome stored
	StateVerified   = "verified"   // a passing, unexpired outcome
	StateFailed     = "failed"     // the newest outcome failed the ruleset
	StateExpired    = "expired"    // the newest outcome passed but its approval ended
)

// Status is what the widget gets: the shopper's state and the store's
// widget settings (so the widget needs one request, not two).
type Status struct {
	State          string            `json:"state"`
	Verified       bool              `json:"verified"`
	VerificationID string            `json:"verification_id,omitempty"`
	Reasons        []rulesets.Reason `json:"reasons"`
	EvaluatedAt    *time.Time        `json:"evaluated_at,omitempty"`
	ExpiresAt      *time.Time        `json:"expires_at,omitempty"`
	// Customer is true when a logged-in customer was proven and counted.
	Customer          bool     `json:"customer"`
	HoldCheckout      bool     `json:"hold_checkout"`
	CheckoutSelectors []string `json:"checkout_selectors"`
	// Active is false while an app-installed store waits for its link to
	// the verifier: the widget then shows nothing and holds nothing.
	Active bool `json:"active"`
	// Required is false when the store's triggers say this cart needs no
	// verification (its total is under the only trigger set): the widget
	// then shows nothing and holds nothing, and asks again as it polls,
	// since the cart may grow. See cartRequires.
	Required bool `json:"required"`
	// OrderHeld is true, on the order confirmation page (the request
	// names the order), while the order guard holds that order for this
	// cart's verification: the widget then says the order waits for it.
	// See orderHeld.
	OrderHeld bool `json:"order_held"`
}

// Status reports the shopper's state for the store. The cart's outcome and,
// with a valid Current Customer JWT, the customer's are read (through the
// cache); the newer one decides, so a later failure replaces a pass
// whichever resource it was written on. orderID is the order confirmation
// page's order ("" elsewhere).
func (s *Service) Status(ctx context.Context, hash, origin, cartID, orderID, customerToken string) (Status, error) {
	st, err := s.store(ctx, hash, origin)
	if err != nil {
		return Status{}, fmt.Errorf("status: %w", err)
	}
	order, err := parseOrderID(orderID)
	if err != nil {
		return Status{}, fmt.Errorf("status: %w", err)
	}
	sh, err := s.shopper(st, cartID, customerToken)
	if err != nil {
		return Status{}, fmt.Errorf("status: %w", err)
	}
	if !st.Linked() {
		return Status{State: StateUnverified, Reasons: []rulesets.Reason{}, CheckoutSelectors: st.CheckoutSelectors}, nil
	}
	best, found, err := s.outcome(ctx, st, bigcommerce.Cart(sh.CartID), cartKey(st.Hash, sh.CartID))
	if err != nil {
		return Status{}, fmt.Errorf("status: %w", err)
	}
	if sh.CustomerID > 0 {
		o, ok, err := s.outcome(ctx, st, bigcommerce.Customer(sh.CustomerID), customerKey(st.Hash, sh.CustomerID))
		if err != nil {
			return Status{}, fmt.Errorf("status: %w", err)
		}
		if ok && (!found || o.EvaluatedAt.After(best.EvaluatedAt)) {
			best, found = o, true
		}
	}
	out := Status{
		State: StateUnverified, Reasons: []rulesets.Reason{}, Customer: sh.CustomerID > 0,
		HoldCheckout: st.HoldCheckout, CheckoutSelectors: st.CheckoutSelectors, Active: true,
	}
	now := s.now()
	if !found || !best.Verified(now) {
		out.Required = s.cartRequires(ctx, st, sh.CartID)
	} else {
		out.Required = true // verified: the badge shows
	}
	out.OrderHeld = s.orderHeld(ctx, st, sh.CartID, order)
	if !found {
		return out, nil
	}
	out.VerificationID = best.VerificationID
	out.EvaluatedAt = &best.EvaluatedAt
	if best.Reasons != nil {
		out.Reasons = best.Reasons
	}
	switch {
	case best.Verified(now):
		out.State, out.Verified = StateVerified, true
		out.ExpiresAt = &best.ExpiresAt
	case best.Pass:
		out.State = StateExpired
		out.ExpiresAt = &best.ExpiresAt
	default:
		out.State = StateFailed
	}
	return out, nil
}

// cartRequires reports whether the cart needs verification before
// checkout under the store's triggers. Only the total can be judged on a
// cart (the shipping address comes at checkout), so with no trigger, or a
// ship-to trigger (OR: it might match later), every cart does. With the
// total alone, the cart is read server-side (getCart; the shopper cannot
// say what it holds) and its cart_amount compared as the order guard
// compares an order's total. A cart that cannot be read or whose amount
// cannot be parsed needs verification: the hold is not lifted on doubt.
// The amount excludes shipping, which the order guard (after the order)
// counts.
func (s *Service) cartRequires(ctx context.Context, st *Store, cartID string) bool {
	t := st.Triggers
	if !t.Any() || t.NeedsShipTo() {
		return true
	}
	p, err := s.platform(st)
	if err != nil {
		return true
	}
	cart, err := p.GetCart(ctx, cartID)
	if err != nil {
		return true
	}
	cents, err := ParseCents(cart.Amount.String())
	if err != nil {
		return true
	}
	need, _ := t.Match(OrderFacts{TotalCents: cents})
	return need
}

// cachedOutcome is a cache entry; Found false caches "nothing stored" too,
// because unverified carts are what the widget polls most.
type cachedOutcome struct {
	Found   bool                `json:"found"`
	Outcome bigcommerce.Outcome `json:"outcome"`
}

func cartKey(hash, cartID string) string { return "proxy:outcome:" + hash + ":cart:" + cartID }
func customerKey(hash string, id int64) string {
	return "proxy:outcome:" + hash + ":customer:" + strconv.FormatInt(id, 10)
}

// outcome reads res's outcome from the cache or, on a miss or any cache
// error, from the platform (then caches it).
func (s *Service) outcome(ctx context.Context, st *Store, res bigcommerce.Resource, key string) (bigcommerce.Outcome, bool, error) {
	if b, err := s.Cache.Get(ctx, key); err == nil {
		var c cachedOutcome
		if json.Unmarshal(b, &c) == nil {
			return c.Outcome, c.Found, nil
		}
	}
	p, err := s.platform(st)
	if err != nil {
		return bigcommerce.Outcome{}, false, err
	}
	o, err := p.LoadOutcome(ctx, res)
	found := err == nil
	if err != nil && !errors.Is(err, bigcommerce.ErrNoOutcome) {
		return bigcommerce.Outcome{}, false, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	s.cachePut(ctx, key, cachedOutcome{Found: found, Outcome: o})
	return o, found, nil
}

// cachePut ignores failures: the cache is never the source of truth.
func (s *Service) cachePut(ctx context.Context, key string, c cachedOutcome) {
	if b, err := json.Marshal(c); err == nil {
		_ = s.Cache.Set(ctx, key, b, s.cacheTTL())
	}
}
