package proxy

import (
	"context"
	"errors"
	"fmt"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// settleHeldOrders applies a verification the shopper finished after the
// order ("after the order"): each order of the verified cart that the
// guard holds takes the outcome on its record, and a passing one leaves
// Manual Verification Required for the store's release status; a failing
// one stays held with the new reasons. Orders the merchant reviewed by
// hand, and orders held by someone else (no record of ours), are left as
// they are. Where the store carries a guest's verification to their
// account, an order naming a customer the shopper was not logged in as
// gives that customer the outcome too (carryToAccount), and o records
// it (CarriedTo) for the cart's record. Run before the cart is written: a
// failure here fails the delivery, whose retry then finds the cart not yet
// written and settles again (each step is idempotent).
func (s *Service) settleHeldOrders(ctx context.Context, p Platform, st *Store, sh Shopper, o *bigcommerce.Outcome) error {
	cartID := sh.CartID
	if !st.OrderGuard {
		return nil
	}
	orders, err := p.HeldOrders(ctx, cartID)
	if err != nil {
		return err
	}
	for _, order := range orders {
		if order.CartID != cartID || order.StatusID != bigcommerce.StatusManualVerificationRequired {
			continue // the filters are the platform's; this guard is ours
		}
		prev, err := p.LoadOutcome(ctx, bigcommerce.Order(order.ID))
		switch {
		case errors.Is(err, bigcommerce.ErrNoOutcome) || errors.Is(err, bigcommerce.ErrNotFound):
			continue
		case err != nil:
			return err
		case prev.Review != nil:
			continue
		}
		next := *o
		next.HeldFrom = prev.HeldFrom
		if err := p.SaveOutcome(ctx, bigcommerce.Order(order.ID), next); err != nil {
			return err
		}
		if st.GuestToAccount && order.CustomerID > 0 && order.CustomerID != sh.CustomerID && (o.CarriedTo == 0 || o.CarriedTo == order.CustomerID) {
			// The shopper verified as a guest; their order names an
			// account (made at checkout).
			customer, err := p.LoadOutcome(ctx, bigcommerce.Customer(order.CustomerID))
			var has *bigcommerce.Outcome
			switch {
			case err == nil:
				has = &customer
			case !errors.Is(err, bigcommerce.ErrNoOutcome) && !errors.Is(err, bigcommerce.ErrNotFound):
				return err
			}
			carried, err := s.carryToAccount(ctx, p, st, "", order.CustomerID, o, has)
			if err != nil {
				return err
			}
			if carried {
				o.CarriedTo = order.CustomerID
			}
		}
		if next.Verified(s.now()) {
			if err := p.SetOrderStatus(ctx, order.ID, st.releaseTo(prev.HeldFrom)); err != nil {
				return fmt.Errorf("release order %d: %w", order.ID, err)
			}
		}
	}
	return nil
}
