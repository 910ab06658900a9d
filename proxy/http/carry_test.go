package http_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
)

// A guest's verification carries to the account their order names (made at
// checkout) where the store chose so: when the order arrives verified by
// its cart, and when the guest verifies after the order; the customer then
// skips verification on a later cart, logged in. A customer's own newer
// outcome is not overwritten, the same order arriving again writes
// nothing more, and without the choice nothing carries. Carrying does not
// need the order guard.
func TestGuestVerificationCarriesToTheAccount(t *testing.T) {
	clock := bigcommercetest.NewClock(time.Now())
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true, GuestToAccount: true, Now: clock.Now})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	const awaiting = 11
	guest := func(e *proxytest.Env, cart string, result map[string]any) string {
		id := proxytest.NewRequestID()
		deliverOK(t, e, storeHash, proxytest.Result(id, e.Ref(storeHash, proxy.Shopper{CartID: cart}), result))
		clock.Advance(time.Minute)
		return id
	}

	// Verified as a guest, then an account made at checkout.
	g1 := "51515151-0000-4000-8000-000000000001"
	id1 := guest(env, g1, nil)
	if mf := d.Metafields("customer", "77"); len(mf) != 0 {
		t.Fatalf("customer 77 has %+v before their order", mf)
	}
	d.AddOrder(bigcommercetest.Order{ID: 501, StatusID: awaiting, CartID: g1, CustomerID: 77})
	code, out := orderCreated(t, env, 501, header)
	if code != http.StatusOK || out["carried"] != true || out["verified"] != true || out["held"] != false {
		t.Fatalf("order 501: %d %v", code, out)
	}
	if rec := record(t, d, "customer", "77"); rec.VerificationID != id1 || !rec.Pass {
		t.Fatalf("customer 77's record %+v, want the guest's verification %s", rec, id1)
	}
	if s := status(t, env, storeHash, "51515151-0000-4000-8000-00000000000a", env.CustomerJWT(storeHash, 77)); !s.Verified || !s.Customer {
		t.Errorf("customer 77 on a later cart: %+v, want verified", s)
	}
	if _, out := orderCreated(t, env, 501, header); out["carried"] == true {
		t.Error("the same order again carried again")
	}

	// The account's own verification is newer (a failure, logged in):
	// the older guest pass does not replace it, and the order is held.
	g2 := "51515151-0000-4000-8000-000000000002"
	guest(env, g2, nil)
	own := proxytest.NewRequestID()
	deliverOK(t, env, storeHash, proxytest.Result(own, env.Ref(storeHash, proxy.Shopper{CartID: "51515151-0000-4000-8000-00000000000b", CustomerID: 78}),
		map[string]any{"face_match_score": "no_match"}))
	clock.Advance(time.Minute)
	d.AddOrder(bigcommercetest.Order{ID: 502, StatusID: awaiting, CartID: g2, CustomerID: 78})
	if _, out := orderCreated(t, env, 502, header); out["carried"] == true || out["held"] != true {
		t.Errorf("order 502: %v, want held, nothing carried", out)
	}
	if rec := record(t, d, "customer", "78"); rec.VerificationID != own {
		t.Errorf("customer 78's own newer outcome was replaced: %+v", rec)
	}

	// Verified after the order: the held order is released and its
	// account takes the verification.
	g3 := "51515151-0000-4000-8000-000000000003"
	d.AddOrder(bigcommercetest.Order{ID: 503, StatusID: awaiting, CartID: g3, CustomerID: 79})
	if _, out := orderCreated(t, env, 503, header); out["held"] != true || out["carried"] == true {
		t.Fatalf("order 503 before verifying: %v", out)
	}
	id3 := guest(env, g3, nil)
	if o, _ := d.Order(503); o.StatusID != awaiting {
		t.Errorf("order 503 verified after the order: status %d", o.StatusID)
	}
	if rec := record(t, d, "customer", "79"); rec.VerificationID != id3 || !rec.Pass {
		t.Errorf("customer 79's record %+v, want %s", rec, id3)
	}

	// Without the choice nothing carries; without the guard it still does.
	for _, c := range []struct {
		name           string
		guard, carries bool
	}{{"not chosen", true, false}, {"no order guard", false, true}} {
		e := proxytest.Start(t, proxytest.Options{OrderGuard: c.guard, GuestToAccount: c.carries, Now: clock.Now})
		ed := e.Doubles[storeHash]
		guest(e, g1, nil)
		ed.AddOrder(bigcommercetest.Order{ID: 601, StatusID: awaiting, CartID: g1, CustomerID: 80})
		code, out := orderCreated(t, e, 601, string(e.Stores[storeHash].WebhookHeaderValue))
		if code != http.StatusOK || (out["carried"] == true) != c.carries || (out["ignored"] == true) == c.guard {
			t.Errorf("%s: %d %v", c.name, code, out)
		}
		if got := len(ed.Metafields("customer", "80")); got != map[bool]int{true: 1, false: 0}[c.carries] {
			t.Errorf("%s: customer 80 has %d records", c.name, got)
		}
		if o, _ := ed.Order(601); o.StatusID != awaiting || (len(ed.Metafields("order", "601")) == 1) != c.guard {
			t.Errorf("%s: order 601 status %d, records %d", c.name, o.StatusID, len(ed.Metafields("order", "601")))
		}
	}
}
