package bigcommerce_test

import (
	"context"
	"errors"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

// The cart is read server-side as carts.v3.yml documents getCart (the
// double checks the request and its own answer against it): its amount
// and customer; an unknown cart is ErrNotFound, a malformed ID is refused
// before anything is sent.
func TestGetCart(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	d.AddCart(bigcommercetest.Cart{ID: cartID, CustomerID: 9, Amount: "59.99"})
	got, err := c.GetCart(ctx, cartID)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != cartID || got.CustomerID != 9 || got.Amount != "59.99" {
		t.Fatalf("cart %+v", got)
	}
	if _, err := c.GetCart(ctx, "7e2d9a40-1b3c-4d5e-8f60-718293a4b5c6"); !errors.Is(err, bigcommerce.ErrNotFound) {
		t.Errorf("unknown cart: %v, want ErrNotFound", err)
	}
	before := len(d.Requests())
	for _, bad := range []string{"", "../x", "0B9F5A3E-8C1D-4A52-9A3E-6F2B1C7D8E90"} {
		if _, err := c.GetCart(ctx, bad); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("cart %q: %v, want ErrInvalidInput", bad, err)
		}
	}
	if len(d.Requests()) != before {
		t.Error("a malformed cart ID was sent")
	}
}
