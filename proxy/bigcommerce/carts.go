package bigcommerce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/uuid"
)

// CartSummary is what the plugin reads of a cart before checkout.
type CartSummary struct {
	ID         string `json:"id"`
	CustomerID int64  `json:"customer_id"` // 0 for a guest
	// Amount is cart_amount: the line items less cart-level discounts and
	// coupons, with tax where the store computes it by then; shipping is
	// not known yet. A JSON number as the platform writes it (see
	// proxy.ParseCents).
	Amount json.Number `json:"cart_amount"`
}

// GetCart reads a cart through the Management API (carts.v3.yml getCart),
// server-side, so a shopper cannot say what their cart holds. A cart the
// store does not have (converted to an order, deleted, another store's)
// is ErrNotFound.
func (c *Client) GetCart(ctx context.Context, cartID string) (CartSummary, error) {
	op := "get cart " + cartID
	if id, err := uuid.Parse(cartID); err != nil || id.String() != cartID {
		return CartSummary{}, fmt.Errorf("%s: %w: want a lowercase UUID", op, ErrInvalidInput)
	}
	var env struct {
		Data CartSummary `json:"data"`
	}
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/carts/" + url.PathEscape(cartID), out: &env}); err != nil {
		return CartSummary{}, err
	}
	if env.Data.ID != cartID {
		return CartSummary{}, fmt.Errorf("%s: %w: answer names cart %q", op, errUnexpectedResponse, env.Data.ID)
	}
	return env.Data, nil
}
