package bigcommerce

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// StatusManualVerificationRequired is the order status the guard puts
// unverified orders in (BigCommerce status 12).
const StatusManualVerificationRequired = 12

// OrderSummary is what the order guard needs from an order: who placed it
// and from which cart, to look up their verification.
type OrderSummary struct {
	ID         int64  `json:"id"`
	StatusID   int    `json:"status_id"`
	CustomerID int64  `json:"customer_id"` // 0 for a guest
	CartID     string `json:"cart_id"`
	// TotalIncTax is the order's total with tax, a decimal string in the
	// store's transactional currency ("60.0000"); see Cents.
	TotalIncTax string `json:"total_inc_tax"`
}

// ShipTo is where an order ships: an order has one address per
// consignment.
type ShipTo struct {
	State       string `json:"state"`        // the state's or province's name, "Texas"
	CountryISO2 string `json:"country_iso2"` // "US"
}

// ShippingAddresses reads an order's shipping addresses (Orders v2). An
// order with nothing to ship has none.
func (c *Client) ShippingAddresses(ctx context.Context, orderID int64) ([]ShipTo, error) {
	op := "get order " + strconv.FormatInt(orderID, 10) + " shipping addresses"
	if orderID <= 0 {
		return nil, fmt.Errorf("%s: %w: want a positive order ID", op, ErrInvalidInput)
	}
	var out []ShipTo
	q := url.Values{"limit": {"250"}}
	err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v2/orders/" + strconv.FormatInt(orderID, 10) + "/shipping_addresses", query: q, out: &out})
	return out, err
}

// GetOrder reads an order (Orders v2).
func (c *Client) GetOrder(ctx context.Context, orderID int64) (OrderSummary, error) {
	op := "get order " + strconv.FormatInt(orderID, 10)
	if orderID <= 0 {
		return OrderSummary{}, fmt.Errorf("%s: %w: want a positive order ID", op, ErrInvalidInput)
	}
	var o OrderSummary
	err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v2/orders/" + strconv.FormatInt(orderID, 10), out: &o})
	return o, err
}

// SetOrderStatus changes an order's status (Orders v2 PUT with only
// status_id: the v2 PUT leaves omitted fields unchanged).
func (c *Client) SetOrderStatus(ctx context.Context, orderID int64, statusID int) error {
	op := fmt.Sprintf("set order %d status %d", orderID, statusID)
	if orderID <= 0 || statusID < 0 {
		return fmt.Errorf("%s: %w", op, ErrInvalidInput)
	}
	var o OrderSummary
	body := map[string]int{"status_id": statusID}
	if err := c.do(ctx, request{op: op, method: http.MethodPut, path: "v2/orders/" + strconv.FormatInt(orderID, 10), body: body, out: &o}); err != nil {
		return err
	}
	if o.StatusID != statusID {
		return fmt.Errorf("%s: %w: order reports status %d", op, errUnexpectedResponse, o.StatusID)
	}
	return nil
}

// HeldOrders lists the orders from cart cartID that wait in Manual
// Verification Required (Orders v2, filtered by cart_id and status_id). A
// cart becomes one order; the list allows for a platform that says
// otherwise.
func (c *Client) HeldOrders(ctx context.Context, cartID string) ([]OrderSummary, error) {
	op := "list held orders of cart " + cartID
	if cartID == "" {
		return nil, fmt.Errorf("%s: %w: want a cart ID", op, ErrInvalidInput)
	}
	q := url.Values{"cart_id": {cartID}, "status_id": {strconv.Itoa(StatusManualVerificationRequired)}, "limit": {"50"}}
	var out []OrderSummary
	// An empty list may come as 204 with no body: out stays empty.
	err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v2/orders", query: q, out: &out})
	return out, err
}
