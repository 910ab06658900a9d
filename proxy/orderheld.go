package proxy

import (
	"context"
	"errors"
	"strconv"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// parseOrderID reads the order confirmation page's order number, which the
// widget sends beside the cart: "" is none (every other page).
func parseOrderID(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || len(s) > 16 {
		return 0, &InputError{Field: "order_id", Message: "want a positive order number"}
	}
	return id, nil
}

// orderHeld reports whether the order guard holds the order for the
// shopper's verification, so the confirmation page can say the order waits
// for it: the order is this cart's (the cart ID is what the shopper holds;
// an order number alone is guessable), in Manual Verification Required,
// with the guard's record on it and no decision by hand (a reviewed order
// is not settled by verifying). Anything unread counts as not held: the
// note is wording, and the widget offers Verify ID either way. The answer
// is cached like an outcome, so a polling page costs the store's API two
// calls per cache TTL at most.
func (s *Service) orderHeld(ctx context.Context, st *Store, cartID string, orderID int64) bool {
	if orderID == 0 || !st.OrderGuard {
		return false
	}
	key := "proxy:held:" + st.Hash + ":order:" + strconv.FormatInt(orderID, 10) + ":cart:" + cartID
	if b, err := s.Cache.Get(ctx, key); err == nil && len(b) == 1 {
		return b[0] == '1'
	}
	held := s.readOrderHeld(ctx, st, cartID, orderID)
	v := []byte("0")
	if held {
		v = []byte("1")
	}
	_ = s.Cache.Set(ctx, key, v, s.cacheTTL()) // the cache is never the source of truth
	return held
}

func (s *Service) readOrderHeld(ctx context.Context, st *Store, cartID string, orderID int64) bool {
	p, err := s.platform(st)
	if err != nil {
		return false
	}
	order, err := p.GetOrder(ctx, orderID)
	if err != nil || order.CartID != cartID || order.StatusID != bigcommerce.StatusManualVerificationRequired {
		return false
	}
	rec, err := p.LoadOutcome(ctx, bigcommerce.Order(orderID))
	if err != nil && !errors.Is(err, bigcommerce.ErrNoOutcome) {
		return false
	}
	return err == nil && rec.Review == nil
}
