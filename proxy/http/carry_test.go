package http_test

import (
	"encoding/json"
	"net/http"
	"strings"
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

// An account made after the order, or on a later visit: the widget sends
// the cart it saw verified as a guest once the shopper is logged in, and
// the account takes the verification (then skips on a later cart). Only a
// verification made as a guest carries, to one account only, not over the
// account's own newer one, not without a login, and not where the store
// keeps guests apart; a repeated request answers the same.
func TestGuestVerificationCarriesToAnAccountMadeLater(t *testing.T) {
	clock := bigcommercetest.NewClock(time.Now())
	env := proxytest.Start(t, proxytest.Options{GuestToAccount: true, Now: clock.Now})
	d := env.Doubles[storeHash]
	carry := func(e *proxytest.Env, cart, token string) (int, proxy.Carried, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, e.URL+"/proxy/v1/stores/"+storeHash+"/carry",
			strings.NewReader(`{"cart_id":"`+cart+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		if token != "" {
			req.Header.Set("Idgate-Customer-Token", token)
		}
		code, _, body := do(t, req)
		var out proxy.Carried
		if code == http.StatusOK {
			if err := json.Unmarshal(body, &out); err != nil {
				t.Fatal(err)
			}
		}
		return code, out, string(body)
	}
	verify := func(e *proxytest.Env, sh proxy.Shopper, result map[string]any) string {
		id := proxytest.NewRequestID()
		deliverOK(t, e, storeHash, proxytest.Result(id, e.Ref(storeHash, sh), result))
		clock.Advance(time.Minute)
		return id
	}
	const later = "52525252-0000-4000-8000-0000000000ff"

	g1 := "52525252-0000-4000-8000-000000000001"
	id1 := verify(env, proxy.Shopper{CartID: g1}, nil)
	if code, _, body := carry(env, g1, ""); code != http.StatusUnauthorized || !strings.Contains(body, "log in first") {
		t.Errorf("no login: %d %s", code, body)
	}
	if code, out, body := carry(env, g1, env.CustomerJWT(storeHash, 90)); code != http.StatusOK || !out.Carried {
		t.Fatalf("carry to 90: %d %s", code, body)
	}
	if rec := record(t, d, "customer", "90"); rec.VerificationID != id1 || !rec.Pass || rec.CarriedTo != 0 {
		t.Fatalf("customer 90's record %+v, want %s", rec, id1)
	}
	if rec := record(t, d, "cart", g1); rec.CarriedTo != 90 || rec.VerificationID != id1 {
		t.Fatalf("cart's record %+v, want carried to 90", rec)
	}
	if s := status(t, env, storeHash, later, env.CustomerJWT(storeHash, 90)); !s.Verified || !s.Customer {
		t.Errorf("customer 90 on a later cart: %+v, want verified", s)
	}
	if code, out, _ := carry(env, g1, env.CustomerJWT(storeHash, 90)); code != http.StatusOK || !out.Carried {
		t.Errorf("the same carry again: %d %+v", code, out)
	}
	if _, out, _ := carry(env, g1, env.CustomerJWT(storeHash, 91)); out.Carried || out.Reason != proxy.ReasonElsewhere {
		t.Errorf("a second account: %+v", out)
	}
	if n := len(d.Metafields("customer", "91")); n != 0 {
		t.Errorf("customer 91 has %d records", n)
	}

	// A logged-in shopper's cart, and a cart never verified, carry nothing.
	g2 := "52525252-0000-4000-8000-000000000002"
	verify(env, proxy.Shopper{CartID: g2, CustomerID: 92}, nil)
	if _, out, _ := carry(env, g2, env.CustomerJWT(storeHash, 93)); out.Carried || out.Reason != proxy.ReasonNone {
		t.Errorf("a logged-in shopper's cart: %+v", out)
	}
	if _, out, _ := carry(env, "52525252-0000-4000-8000-000000000003", env.CustomerJWT(storeHash, 93)); out.Carried || out.Reason != proxy.ReasonNone {
		t.Errorf("an unverified cart: %+v", out)
	}

	// The account's own newer verification stands.
	g4 := "52525252-0000-4000-8000-000000000004"
	verify(env, proxy.Shopper{CartID: g4}, nil)
	own := verify(env, proxy.Shopper{CartID: "52525252-0000-4000-8000-000000000005", CustomerID: 94}, map[string]any{"face_match_score": "no_match"})
	if _, out, _ := carry(env, g4, env.CustomerJWT(storeHash, 94)); out.Carried || out.Reason != proxy.ReasonOlder {
		t.Errorf("over the account's own newer one: %+v", out)
	}
	if rec := record(t, d, "customer", "94"); rec.VerificationID != own {
		t.Errorf("customer 94's own record replaced: %+v", rec)
	}
	if rec := record(t, d, "cart", g4); rec.CarriedTo != 0 {
		t.Errorf("cart marked carried though nothing carried: %+v", rec)
	}

	// A store that keeps guests apart.
	apart := proxytest.Start(t, proxytest.Options{Now: clock.Now})
	verify(apart, proxy.Shopper{CartID: g1}, nil)
	if _, out, _ := carry(apart, g1, apart.CustomerJWT(storeHash, 95)); out.Carried || out.Reason != proxy.ReasonNotChosen {
		t.Errorf("store without the choice: %+v", out)
	}
}
