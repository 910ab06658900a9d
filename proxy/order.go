package proxy

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// OrderWebhookPath is where BigCommerce delivers a store's order events.
func OrderWebhookPath(hash string) string { return "/proxy/v1/stores/" + hash + "/order-webhook" }

// CodeNotVerified is the reason on an order whose cart and customer carry
// no outcome at all.
const CodeNotVerified rulesets.Code = "not_verified"

// OrderEvent is a BigCommerce webhook delivery as received.
type OrderEvent struct {
	HeaderValue string // the store's custom WebhookHeader, set at registration
	Body        []byte
}

// GuardResult reports what the guard did to an order.
type GuardResult struct {
	OrderID  int64 `json:"order_id"`
	Verified bool  `json:"verified"`
	Held     bool  `json:"held"` // moved to Manual Verification Required
	Ignored  bool  `json:"ignored"`
	// Exempt: the store's triggers do not ask verification of this order;
	// it is left as it is.
	Exempt bool `json:"exempt,omitempty"`
	// Carried: the guest's verification on the order's cart was written
	// on the customer the order names (Store.GuestToAccount).
	Carried bool `json:"carried,omitempty"`
}

// orderEvent is the platform's payload: only the order ID is used; the
// order itself is read from the API, so a forged payload can at most make
// the guard look at a real order again.
type orderEvent struct {
	Scope string `json:"scope"`
	Data  struct {
		Type string          `json:"type"`
		ID   json.RawMessage `json:"id"` // the order ID; a cart UUID for store/cart/converted
		// OrderID is the order a converted cart became.
		OrderID int64 `json:"orderId"`
	} `json:"data"`
}

// orderID is the order the event is about.
func (e orderEvent) orderID() int64 {
	if e.Scope == bigcommerce.ScopeCartConverted {
		return e.Data.OrderID
	}
	var id int64
	if e.Data.Type != "order" || json.Unmarshal(e.Data.ID, &id) != nil {
		return 0
	}
	return id
}

// GuardOrder handles store/order/created and store/cart/converted (the
// same order reached either way; guarding it twice gives the same result).
// The order's cart and customer outcomes decide (the newer wins, as for
// status); the outcome (or a not_verified one) is copied to an order
// metafield, and an order without a passing, unexpired verification is put
// into status 12. A guest's verification carries to the order's customer
// first where the store asks (carryToAccount), guard or not. Other scopes,
// and stores with neither, are acknowledged and ignored.
func (s *Service) GuardOrder(ctx context.Context, hash string, ev OrderEvent) (GuardResult, error) {
	st, err := s.store(ctx, hash, "")
	if err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(ev.HeaderValue), []byte(st.WebhookHeaderValue)) != 1 {
		return GuardResult{}, fmt.Errorf("guard order: %w: custom header %s missing or wrong", ErrWebhookAuth, st.WebhookHeader)
	}
	var e orderEvent
	if err := DecodeStrict(ev.Body, &e, "a BigCommerce webhook payload"); err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w", err)
	}
	if e.Scope == "" {
		// Every BigCommerce delivery names its scope; a body without one
		// is not a delivery, and is refused rather than acknowledged.
		return GuardResult{}, fmt.Errorf("guard order: %w", &InputError{Field: "scope", Code: "required", Message: "a webhook payload names its scope"})
	}
	if (!st.OrderGuard && !st.GuestToAccount) || (e.Scope != bigcommerce.ScopeOrderCreated && e.Scope != bigcommerce.ScopeCartConverted) {
		return GuardResult{Ignored: true}, nil
	}
	orderID := e.orderID()
	if orderID <= 0 {
		return GuardResult{}, fmt.Errorf("guard order: %w", &InputError{Field: "data", Message: "no positive order ID"})
	}
	p, err := s.platform(st)
	if err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w", err)
	}
	order, err := p.GetOrder(ctx, orderID)
	if errors.Is(err, bigcommerce.ErrNotFound) {
		// Not this store's order (another store's ID, or deleted since):
		// nothing to guard, and nothing a retry would change.
		return GuardResult{}, fmt.Errorf("guard order: %w", &InputError{Field: "data", Code: "unknown_order", Message: "the store has no such order"})
	}
	if err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
	}
	// The outcomes are read before the triggers only when a guest's
	// verification may carry to the order's customer: that is not the
	// guard's, and applies to every order.
	var cartO, customerO *bigcommerce.Outcome
	loaded, carried := false, false
	if st.GuestToAccount && order.CustomerID > 0 {
		if cartO, customerO, err = shopperOutcomes(ctx, p, order); err != nil {
			return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
		}
		loaded = true
		if carried, err = s.carryToAccount(ctx, p, st, order.CartID, order.CustomerID, cartO, customerO); err != nil {
			return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
		}
	}
	if !st.OrderGuard {
		return GuardResult{OrderID: order.ID, Ignored: true, Carried: carried}, nil
	}
	if need, err := s.needsVerification(ctx, p, st, order); err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w", err)
	} else if !need {
		return GuardResult{OrderID: order.ID, Exempt: true, Carried: carried}, nil
	}
	if !loaded {
		if cartO, customerO, err = shopperOutcomes(ctx, p, order); err != nil {
			return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
		}
	}
	var best bigcommerce.Outcome
	if o := newer(cartO, customerO); o != nil {
		best = *o
	} else {
		best = bigcommerce.Outcome{Status: "none", Reasons: []rulesets.Reason{{Code: CodeNotVerified}}, EvaluatedAt: s.now().UTC()}
	}
	// The order's own record: a merchant's decision by hand stands (the
	// same order arrives twice, created and converted), and the status it
	// was first held from is kept for approving it.
	prev, err := p.LoadOutcome(ctx, bigcommerce.Order(order.ID))
	switch {
	case err == nil && prev.Review != nil:
		return GuardResult{OrderID: order.ID, Verified: prev.Review.Approved, Carried: carried}, nil
	case err == nil:
		best.HeldFrom = prev.HeldFrom
	case !errors.Is(err, bigcommerce.ErrNoOutcome) && !errors.Is(err, bigcommerce.ErrNotFound):
		return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
	}
	out := GuardResult{OrderID: order.ID, Verified: best.Verified(s.now()), Carried: carried}
	hold := !out.Verified && order.StatusID != bigcommerce.StatusManualVerificationRequired
	if hold {
		best.HeldFrom = order.StatusID
	}
	if err := p.SaveOutcome(ctx, bigcommerce.Order(order.ID), best); err != nil {
		return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
	}
	if hold {
		if err := p.SetOrderStatus(ctx, order.ID, bigcommerce.StatusManualVerificationRequired); err != nil {
			return GuardResult{}, fmt.Errorf("guard order: %w: %w", ErrUpstream, err)
		}
		out.Held = true
	}
	return out, nil
}

// needsVerification applies the store's triggers to the order, reading its
// shipping addresses only when a trigger needs them. An order total the
// platform wrote in a form we cannot read counts as matching: fail closed.
func (s *Service) needsVerification(ctx context.Context, p Platform, st *Store, order bigcommerce.OrderSummary) (bool, error) {
	t := st.Triggers
	if !t.Any() {
		return true, nil
	}
	var facts OrderFacts
	if t.MinTotalCents > 0 {
		cents, err := ParseCents(order.TotalIncTax)
		if err != nil {
			return true, nil
		}
		facts.TotalCents = cents
	}
	if t.NeedsShipTo() {
		addrs, err := p.ShippingAddresses(ctx, order.ID)
		if err != nil {
			return false, fmt.Errorf("%w: %w", ErrUpstream, err)
		}
		facts.ShipTo = addrs
	}
	need, _ := t.Match(facts)
	return need, nil
}
