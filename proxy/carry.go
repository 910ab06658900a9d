package proxy

import (
	"context"
	"errors"
	"fmt"

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
// status cache takes the outcome at once.
func (s *Service) carryToAccount(ctx context.Context, p Platform, st *Store, customerID int64, cart, customer *bigcommerce.Outcome) (bool, error) {
	if !st.GuestToAccount || customerID <= 0 || cart == nil || (customer != nil && !cart.EvaluatedAt.After(customer.EvaluatedAt)) {
		return false, nil
	}
	key := customerKey(st.Hash, customerID)
	_ = s.Cache.Delete(ctx, key)
	if err := p.SaveOutcome(ctx, bigcommerce.Customer(customerID), *cart); err != nil {
		return false, fmt.Errorf("carry to customer %d: %w", customerID, err)
	}
	s.cachePut(ctx, key, cachedOutcome{Found: true, Outcome: *cart})
	return true, nil
}
