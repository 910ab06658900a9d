package proxy

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// shopperOutcomes reads the outcomes on an order's cart and, for an order
// with a customer, on the customer (nil where there is none).
func shopperOutcomes(ctx context.Context, p Platform, order bigcommerce.OrderSummary) (cart, customer *bigcommerce.Outcome, err error) {
	load := func(res bigcommerce.Resource) (*bigcommerce.Outcome, error) {
		o, err := p.LoadOutcome(ctx, res)
		switch {
		case errors.Is(err, bigcommerce.ErrNoOutcome) || errors.Is(err, bigcommerce.ErrNotFound) || errors.Is(err, bigcommerce.ErrInvalidInput):
			// ErrInvalidInput: a cart ID the platform wrote in a form
			// we do not read is a cart without our outcome.
			return nil, nil
		case err != nil:
			return nil, err
		}
		return &o, nil
	}
	if order.CartID != "" {
		if cart, err = load(bigcommerce.Cart(order.CartID)); err != nil {
			return nil, nil, err
		}
	}
	if order.CustomerID > 0 {
		if customer, err = load(bigcommerce.Customer(order.CustomerID)); err != nil {
			return nil, nil, err
		}
	}
	return cart, customer, nil
}

// newer is the outcome that decides of two (either may be nil): the later
// evaluated, as for status.
func newer(a, b *bigcommerce.Outcome) *bigcommerce.Outcome {
	if a == nil || (b != nil && b.EvaluatedAt.After(a.EvaluatedAt)) {
		return b
	}
	return a
}

// carryToAccount writes a guest's verification (the outcome on the order's
// cart) on the customer the order names, when the store carries them
// (GuestToAccount) and the cart's outcome is newer than any the customer
// has: a shopper who verified as a guest and made an account at checkout
// is that account's verification, passing or not, until it expires, as if
// they had been logged in. It reports whether it wrote; the customer's
// status cache takes the outcome at once. With a cartID, the cart's record
// is first marked as carried to the customer (CarriedTo), so the
// verification never becomes a second account's; a caller about to write
// the cart's record itself passes "" and sets CarriedTo there. Marking
// first makes a retry after a failed customer write carry again.
func (s *Service) carryToAccount(ctx context.Context, p Platform, st *Store, cartID string, customerID int64, cart, customer *bigcommerce.Outcome) (bool, error) {
	if !st.GuestToAccount || customerID <= 0 || cart == nil || (customer != nil && !cart.EvaluatedAt.After(customer.EvaluatedAt)) {
		return false, nil
	}
	if cartID != "" && cart.CarriedTo != customerID {
		marked := *cart
		marked.CarriedTo = customerID
		key := cartKey(st.Hash, cartID)
		_ = s.Cache.Delete(ctx, key)
		if err := p.SaveOutcome(ctx, bigcommerce.Cart(cartID), marked); err != nil {
			return false, fmt.Errorf("mark cart %s carried: %w", cartID, err)
		}
		s.cachePut(ctx, key, cachedOutcome{Found: true, Outcome: marked})
	}
	own := *cart
	own.CarriedTo = 0
	key := customerKey(st.Hash, customerID)
	_ = s.Cache.Delete(ctx, key)
	if err := p.SaveOutcome(ctx, bigcommerce.Customer(customerID), own); err != nil {
		return false, fmt.Errorf("carry to customer %d: %w", customerID, err)
	}
	s.cachePut(ctx, key, cachedOutcome{Found: true, Outcome: own})
	return true, nil
}

// ErrLoginRequired: a request only a logged-in customer may make came
// without a Current Customer JWT.
var ErrLoginRequired = errors.New("no customer token: a login is required")

// Carried answers a CarryGuest: whether the guest's verification is now the
// account's, and when not, why (Reason*).
type Carried struct {
	Carried bool   `json:"carried"`
	Reason  string `json:"reason,omitempty"`
}

// Why a CarryGuest carried nothing. Each is final for that cart and
// account: the widget forgets the cart on any of them.
const (
	ReasonNotChosen = "not_chosen" // the store keeps guests' verifications apart (GuestToAccount off)
	ReasonNone      = "none"       // the cart holds no guest's verification
	ReasonElsewhere = "elsewhere"  // it was carried to another account already
	ReasonOlder     = "older"      // the account's own verification is newer
)

// DefaultCarryPerCustomer bounds carry requests per logged-in customer:
// each reads two records from the platform, and a widget sends one per
// remembered cart.
var DefaultCarryPerCustomer = ratelimit.Limit{Rate: 10, Period: time.Hour}

// CarryGuest carries a guest's verification to the account the shopper is
// now logged in as, for an account made after the order (or on a later
// visit): the order path carries only to the account an order names. The
// widget remembers the cart it saw verified as a guest and sends it once a
// Current Customer JWT proves a login; holding the cart's ID (the
// shopper's own browser had it) and the login together are the proof, as
// the cart's ID alone is for the cart's status. Only a verification made
// without a login carries (Outcome.Guest), only to one account
// (Outcome.CarriedTo), and only when newer than the account's own, as at
// checkout; a store that did not choose GuestToAccount carries nothing.
func (s *Service) CarryGuest(ctx context.Context, hash, origin, cartID, customerToken string) (Carried, error) {
	if origin == "" {
		return Carried{}, fmt.Errorf("carry guest verification: %w: no Origin", ErrOriginNotAllowed)
	}
	st, err := s.store(ctx, hash, origin)
	if err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w", err)
	}
	if !st.Linked() {
		return Carried{}, fmt.Errorf("carry guest verification: store %s: %w", st.Hash, ErrNotLinked)
	}
	sh, err := s.shopper(st, cartID, customerToken)
	if err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w", err)
	}
	if sh.CustomerID == 0 {
		return Carried{}, fmt.Errorf("carry guest verification: %w", ErrLoginRequired)
	}
	if err := s.allow(ctx, "proxy:carry:"+st.Hash+":customer:"+strconv.FormatInt(sh.CustomerID, 10), DefaultCarryPerCustomer); err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w", err)
	}
	if !st.GuestToAccount {
		return Carried{Reason: ReasonNotChosen}, nil
	}
	p, err := s.platform(st)
	if err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w", err)
	}
	// The platform, not the cache: CarriedTo must be the record's.
	cart, customer, err := shopperOutcomes(ctx, p, bigcommerce.OrderSummary{CartID: sh.CartID, CustomerID: sh.CustomerID})
	if err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w: %w", ErrUpstream, err)
	}
	switch {
	case cart == nil || !cart.Guest:
		return Carried{Reason: ReasonNone}, nil
	case cart.CarriedTo == sh.CustomerID && customer != nil && customer.VerificationID == cart.VerificationID:
		return Carried{Carried: true}, nil // carried before: a retry
	case cart.CarriedTo != 0 && cart.CarriedTo != sh.CustomerID:
		return Carried{Reason: ReasonElsewhere}, nil
	}
	carried, err := s.carryToAccount(ctx, p, st, sh.CartID, sh.CustomerID, cart, customer)
	if err != nil {
		return Carried{}, fmt.Errorf("carry guest verification: %w: %w", ErrUpstream, err)
	}
	if !carried {
		return Carried{Reason: ReasonOlder}, nil
	}
	return Carried{Carried: true}, nil
}
