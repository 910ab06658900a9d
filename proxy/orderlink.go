package proxy

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Resending the link: BigCommerce's API cannot message a shopper, so the
// orders page gives the merchant a verification link for a waiting order,
// to send the shopper themselves (by e-mail, say). The link is made as the
// widget's Verify ID makes it, for the order's own cart, so the shopper's
// result settles the held order as one from the confirmation page does.

// WaitingOrder is an order of the session's store that the guard holds
// for a verification not made yet: in Manual Verification Required, its
// record waiting (no verdict, no decision by hand), with the cart it was
// placed from. The order is read through the session's store's own token,
// so another store's order number finds nothing of it.
func (a *App) WaitingOrder(ctx context.Context, hash, sealed string, orderID int64) (*Store, bigcommerce.OrderSummary, error) {
	st, _, err := a.OpenSession(ctx, hash, sealed)
	if err != nil {
		return nil, bigcommerce.OrderSummary{}, fmt.Errorf("order link: %w", err)
	}
	d, err := a.desk(st)
	if err != nil {
		return nil, bigcommerce.OrderSummary{}, fmt.Errorf("order link: %w", err)
	}
	order, rec, err := guardedOrder(ctx, d, orderID)
	if err != nil {
		return nil, bigcommerce.OrderSummary{}, fmt.Errorf("order link: %w", err)
	}
	refuse := func(why string) error {
		return fmt.Errorf("order link: %w", &InputError{Field: "order_id", Code: "not_waiting", Message: fmt.Sprintf("order %d %s: no link to send", orderID, why)})
	}
	switch {
	case StateOf(rec) != OrderWaiting:
		return nil, bigcommerce.OrderSummary{}, refuse("is " + string(StateOf(rec)))
	case order.StatusID != bigcommerce.StatusManualVerificationRequired:
		return nil, bigcommerce.OrderSummary{}, refuse("is not held any more")
	case order.CartID == "":
		return nil, bigcommerce.OrderSummary{}, refuse("was not placed from a storefront cart")
	}
	return st, order, nil
}

// OrderLink makes a verification link for the cart of a waiting order
// (App.WaitingOrder) on the merchant's behalf. It counts against the
// cart's start limit, as the shopper's own Verify ID does (each link is a
// verification the store's account pays for in live mode), and is created
// from the store's first storefront origin, the one its Done page leads
// back to. The shopper is the cart's guest: the store's guest-to-account
// setting carries the result to an account the order names, as for a
// verification after the order from the confirmation page.
func (s *Service) OrderLink(ctx context.Context, st *Store, cartID string) (Created, error) {
	if !st.Linked() {
		return Created{}, fmt.Errorf("order link: store %s: %w", st.Hash, ErrNotLinked)
	}
	if len(st.AllowedOrigins) == 0 {
		return Created{}, fmt.Errorf("order link: store %s has no storefront origin", st.Hash)
	}
	if err := s.allowCart(ctx, st.Hash, cartID); err != nil {
		return Created{}, fmt.Errorf("order link: %w", err)
	}
	c, err := s.create(ctx, st, st.AllowedOrigins[0], Shopper{CartID: cartID})
	if err != nil {
		return Created{}, fmt.Errorf("order link: %w", err)
	}
	return c, nil
}
