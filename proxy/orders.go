package proxy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// OrderDesk is what the orders page needs of a store's Management API
// (*bigcommerce.Client): the guard's calls, and the list of its records.
type OrderDesk interface {
	Platform
	OrderOutcomes(ctx context.Context) ([]bigcommerce.OrderOutcome, error)
}

// OrderState is where an order that needed verification stands.
type OrderState string

const (
	// OrderWaiting: no verdict yet (no verification, or one the verifier's
	// staff are still reviewing).
	OrderWaiting OrderState = "waiting"
	OrderPassed  OrderState = "passed"
	OrderFailed  OrderState = "failed" // with the reasons
	// OrderReviewed: the merchant approved or rejected it by hand.
	OrderReviewed OrderState = "reviewed"
)

// StatusAwaitingFulfillment is where an approved order goes when the
// guard did not record the status it held it from (BigCommerce status 11,
// a paid order's usual status).
const StatusAwaitingFulfillment = 11

// OrderRow is one order on the orders page.
type OrderRow struct {
	ID          int64
	State       OrderState
	Reasons     []rulesets.Reason // a failed order's
	Test        bool
	EvaluatedAt time.Time
	Review      *bigcommerce.Review
}

// StateOf reads the state from the record on an order.
func StateOf(o bigcommerce.Outcome) OrderState {
	switch {
	case o.Review != nil:
		return OrderReviewed
	case o.Status == "none" || o.Status == "manual_review":
		return OrderWaiting
	case o.Pass:
		return OrderPassed
	}
	return OrderFailed
}

func rowOf(id int64, o bigcommerce.Outcome) OrderRow {
	r := OrderRow{ID: id, State: StateOf(o), Test: o.Test, EvaluatedAt: o.EvaluatedAt, Review: o.Review}
	if r.State == OrderFailed || r.State == OrderReviewed {
		r.Reasons = o.Reasons
	}
	return r
}

func (a *App) desk(st *Store) (OrderDesk, error) {
	if a.NewOrderDesk != nil {
		return a.NewOrderDesk(st)
	}
	return bigcommerce.New(bigcommerce.Config{StoreHash: st.Hash, Token: st.AccessToken, BaseURL: st.APIBaseURL})
}

// Orders lists the store's orders that needed verification, newest first,
// from the records the order guard wrote on them (the platform is the
// record: every instance, and the control panel, read the same).
func (a *App) Orders(ctx context.Context, hash, sealed string) ([]OrderRow, error) {
	st, _, err := a.OpenSession(ctx, hash, sealed)
	if err != nil {
		return nil, fmt.Errorf("orders: %w", err)
	}
	d, err := a.desk(st)
	if err != nil {
		return nil, fmt.Errorf("orders: %w", err)
	}
	outs, err := d.OrderOutcomes(ctx)
	if err != nil {
		return nil, fmt.Errorf("orders: %w: %w", ErrUpstream, err)
	}
	rows := make([]OrderRow, 0, len(outs))
	for _, o := range outs {
		rows = append(rows, rowOf(o.OrderID, o.Outcome))
	}
	return rows, nil
}

// ReviewOrder records the session's user approving or rejecting an order
// by hand on the order's record (who and when), then moves the order: an
// approved order leaves Manual Verification Required for the store's
// release status; a rejected one is held there. Only an order the
// guard recorded can be reviewed; reviewing again replaces the decision.
func (a *App) ReviewOrder(ctx context.Context, hash, sealed string, orderID int64, approve bool) (OrderRow, error) {
	st, s, err := a.OpenSession(ctx, hash, sealed)
	if err != nil {
		return OrderRow{}, fmt.Errorf("review order: %w", err)
	}
	d, err := a.desk(st)
	if err != nil {
		return OrderRow{}, fmt.Errorf("review order: %w", err)
	}
	order, o, err := guardedOrder(ctx, d, orderID)
	if err != nil {
		return OrderRow{}, fmt.Errorf("review order: %w", err)
	}
	o.Review = &bigcommerce.Review{Approved: approve, UserID: s.UserID, At: a.now().UTC().Truncate(time.Second)}
	// The decision is recorded first: if moving the order fails, the
	// record says what was meant and deciding again finishes it.
	if err := d.SaveOutcome(ctx, bigcommerce.Order(orderID), o); err != nil {
		return OrderRow{}, fmt.Errorf("review order: %w: %w", ErrUpstream, err)
	}
	to := order.StatusID
	switch {
	case approve && order.StatusID == bigcommerce.StatusManualVerificationRequired:
		to = st.releaseTo(o.HeldFrom)
	case !approve:
		to = bigcommerce.StatusManualVerificationRequired
	}
	if to != order.StatusID {
		if err := d.SetOrderStatus(ctx, orderID, to); err != nil {
			return OrderRow{}, fmt.Errorf("review order: %w: %w", ErrUpstream, err)
		}
	}
	a.log().Info("order reviewed", "store", st.Hash, "order", orderID, "approved", approve, "user", s.UserID)
	return rowOf(orderID, o), nil
}

// guardedOrder reads an order of the desk's store and the record the guard
// wrote on it; an order that is not the store's, or that the guard never
// recorded, is unknown_order.
func guardedOrder(ctx context.Context, d OrderDesk, orderID int64) (bigcommerce.OrderSummary, bigcommerce.Outcome, error) {
	if orderID <= 0 {
		return bigcommerce.OrderSummary{}, bigcommerce.Outcome{}, &InputError{Field: "order_id", Message: "want a positive order number"}
	}
	unknown := &InputError{Field: "order_id", Code: "unknown_order", Message: fmt.Sprintf("order %d did not need verification", orderID)}
	order, err := d.GetOrder(ctx, orderID)
	if errors.Is(err, bigcommerce.ErrNotFound) {
		return bigcommerce.OrderSummary{}, bigcommerce.Outcome{}, unknown
	}
	if err != nil {
		return bigcommerce.OrderSummary{}, bigcommerce.Outcome{}, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	o, err := d.LoadOutcome(ctx, bigcommerce.Order(orderID))
	if errors.Is(err, bigcommerce.ErrNoOutcome) || errors.Is(err, bigcommerce.ErrNotFound) {
		return bigcommerce.OrderSummary{}, bigcommerce.Outcome{}, unknown
	}
	if err != nil {
		return bigcommerce.OrderSummary{}, bigcommerce.Outcome{}, fmt.Errorf("%w: %w", ErrUpstream, err)
	}
	return order, o, nil
}
