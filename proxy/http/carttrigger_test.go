package http_test

import (
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
)

// Before checkout, "only orders of $50 or more" is judged on the cart,
// read from BigCommerce server-side (getCart, checked against
// carts.v3.yml): a cart under the total is not asked to verify (required
// false: the widget shows and holds nothing), one at or over it is, and so
// is every cart the proxy cannot judge: unknown to the store, an amount it
// cannot read, or a ship-to trigger that the address, known only at
// checkout, might match.
func TestBeforeCheckoutTotalTrigger(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{HoldCheckout: true, Triggers: proxy.Triggers{MinTotalCents: 5000}})
	d := env.Doubles[storeHash]
	carts := []struct {
		id, amount string
		required   bool
	}{
		{"11111111-1111-4111-8111-111111111111", "49.99", false},
		{"22222222-2222-4222-8222-222222222222", "50", true},
		{"33333333-3333-4333-8333-333333333333", "50.001", true},
		{"44444444-4444-4444-8444-444444444444", "120.5", true},
		{"55555555-5555-4555-8555-555555555555", "0", false},
		{"66666666-6666-4666-8666-666666666666", "1e2", true}, // a form ParseCents does not read
	}
	for _, c := range carts {
		d.AddCart(bigcommercetest.Cart{ID: c.id, Amount: json.Number(c.amount)})
	}
	for _, c := range carts {
		s := status(t, env, storeHash, c.id, "")
		if s.Required != c.required || !s.HoldCheckout || !s.Active {
			t.Errorf("cart of %s: required %t (hold_checkout %t, active %t), want required %t", c.amount, s.Required, s.HoldCheckout, s.Active, c.required)
		}
	}
	if s := status(t, env, storeHash, cartA, ""); !s.Required {
		t.Error("a cart the store does not have is not held")
	}
	reads := 0
	for _, r := range d.Requests() {
		if r.Method == "GET" && r.Path == "/stores/"+storeHash+"/v3/carts/"+carts[0].id {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("the cart under the total was read %d times, want once per status", reads)
	}

	// With a ship-to trigger beside the total, a small cart may still ship
	// to Texas: held, and its cart not even read.
	shipTo := proxytest.Start(t, proxytest.Options{HoldCheckout: true, Triggers: proxy.Triggers{MinTotalCents: 5000, ShipToStates: []string{"Texas"}}})
	shipTo.Doubles[storeHash].AddCart(bigcommercetest.Cart{ID: carts[0].id, Amount: "10"})
	if s := status(t, shipTo, storeHash, carts[0].id, ""); !s.Required {
		t.Error("a ship-to trigger's store does not hold a small cart")
	}
	// No trigger: every cart, as before.
	every := proxytest.Start(t, proxytest.Options{HoldCheckout: true})
	every.Doubles[storeHash].AddCart(bigcommercetest.Cart{ID: carts[0].id, Amount: "10"})
	if s := status(t, every, storeHash, carts[0].id, ""); !s.Required {
		t.Error("a store with no trigger does not hold a small cart")
	}
	for _, e := range []*proxytest.Env{shipTo, every} {
		for _, r := range e.Doubles[storeHash].Requests() {
			if r.Path == "/stores/"+storeHash+"/v3/carts/"+carts[0].id {
				t.Errorf("the cart was read where only the total could not decide")
			}
		}
	}
}
