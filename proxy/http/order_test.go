package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
)

// orderCreated posts BigCommerce's store/order/created payload.
func orderCreated(t *testing.T, env *proxytest.Env, id int64, header string) (int, map[string]any) {
	t.Helper()
	body := fmt.Sprintf(`{"scope":"store/order/created","store_id":"1001","data":{"type":"order","id":%d},"hash":"x","created_at":1700000000,"producer":"stores/%s"}`, id, storeHash)
	req, _ := http.NewRequest(http.MethodPost, env.URL+proxy.OrderWebhookPath(storeHash), bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	if header != "" {
		req.Header.Set(env.Stores[storeHash].WebhookHeader, header)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func TestOrderGuard(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	const awaiting = 11
	// Cart A passed; customer 9 passed on an old cart; cart B failed last.
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil))
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: "11111111-2222-4333-8444-555555555555", CustomerID: 9}), nil))
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartB}), map[string]any{"face_match_score": "no_match"}))
	cases := []struct {
		name     string
		order    bigcommercetest.Order
		verified bool
		reason   string
	}{
		{"verified cart", bigcommercetest.Order{ID: 101, StatusID: awaiting, CartID: cartA}, true, ""},
		{"verified customer, new cart", bigcommercetest.Order{ID: 102, StatusID: awaiting, CartID: "66666666-7777-4888-9999-000000000000", CustomerID: 9}, true, ""},
		{"failed cart", bigcommercetest.Order{ID: 103, StatusID: awaiting, CartID: cartB}, false, "face_match_below_minimum"},
		{"guest never verified", bigcommercetest.Order{ID: 104, StatusID: awaiting, CartID: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"}, false, "not_verified"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d.AddOrder(c.order)
			code, out := orderCreated(t, env, c.order.ID, header)
			if code != http.StatusOK || out["verified"] != c.verified || out["held"] != !c.verified {
				t.Fatalf("guard answered %d %v", code, out)
			}
			o, _ := d.Order(c.order.ID)
			want := awaiting
			if !c.verified {
				want = bigcommerce.StatusManualVerificationRequired
			}
			if o.StatusID != want {
				t.Fatalf("order status %d, want %d", o.StatusID, want)
			}
			mf := d.Metafields("order", fmt.Sprint(c.order.ID))
			if len(mf) != 1 || mf[0].Namespace != "idgate" || mf[0].PermissionSet != "app_only" {
				t.Fatalf("order metafields %+v", mf)
			}
			var stored bigcommerce.Outcome
			if err := json.Unmarshal([]byte(mf[0].Value), &stored); err != nil || stored.Verified(stored.EvaluatedAt) != c.verified {
				t.Fatalf("order outcome %s (%v)", mf[0].Value, err)
			}
			if c.reason != "" && (len(stored.Reasons) == 0 || string(stored.Reasons[0].Code) != c.reason) {
				t.Fatalf("order outcome reasons %+v, want %s", stored.Reasons, c.reason)
			}
		})
	}
	d.AddOrder(bigcommercetest.Order{ID: 105, StatusID: awaiting})
	if code, _ := orderCreated(t, env, 105, "forged"); code != http.StatusUnauthorized {
		t.Fatalf("forged order webhook: %d", code)
	}
	if o, _ := d.Order(105); o.StatusID != awaiting || len(d.Metafields("order", "105")) != 0 {
		t.Fatalf("forged webhook changed order %+v", o)
	}
}

func TestOrderGuardCartConverted(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})
	env.Doubles[storeHash].AddOrder(bigcommercetest.Order{ID: 55, StatusID: 11, CartID: cartA})
	body := `{"scope":"store/cart/converted","store_id":"1001","data":{"type":"cart","id":"` + cartA + `","orderId":55},"hash":"x","created_at":1700000000,"producer":"stores/` + storeHash + `"}`
	req, _ := http.NewRequest(http.MethodPost, env.URL+proxy.OrderWebhookPath(storeHash), bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(env.Stores[storeHash].WebhookHeader, string(env.Stores[storeHash].WebhookHeaderValue))
	code, _, b := do(t, req)
	if code != http.StatusOK || !bytes.Contains(b, []byte(`"held":true`)) {
		t.Fatalf("cart converted: %d %s", code, b)
	}
	if o, _ := env.Doubles[storeHash].Order(55); o.StatusID != bigcommerce.StatusManualVerificationRequired {
		t.Fatalf("order %+v not held", o)
	}
}

func TestOrderGuardOffIgnores(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	env.Doubles[storeHash].AddOrder(bigcommercetest.Order{ID: 7, StatusID: 11})
	code, out := orderCreated(t, env, 7, string(env.Stores[storeHash].WebhookHeaderValue))
	if code != http.StatusOK || out["ignored"] != true {
		t.Fatalf("guard off: %d %v", code, out)
	}
	if o, _ := env.Doubles[storeHash].Order(7); o.StatusID != 11 {
		t.Fatalf("order touched: %+v", o)
	}
}

// Which orders need verification: with triggers (total at or over $50,
// shipping to Canada, or to Texas), an order matching any one is guarded
// as before; one matching none is left untouched (exempt), whatever its
// verification.
func TestOrderGuardTriggers(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true, Triggers: proxy.Triggers{
		MinTotalCents: 5000, ShipToCountries: []string{"CA"}, ShipToStates: []string{"Texas"},
	}})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	const awaiting = 11
	never := "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
	ny := []bigcommercetest.ShipTo{{State: "New York", CountryISO2: "US"}}
	for i, c := range []struct {
		name  string
		order bigcommercetest.Order
		held  bool
	}{
		{"$60, to New York", bigcommercetest.Order{Total: "60.0000", ShipTo: ny}, true},
		{"exactly $50", bigcommercetest.Order{Total: "50.0000", ShipTo: ny}, true},
		{"$49.999, to New York", bigcommercetest.Order{Total: "49.9990", ShipTo: ny}, false},
		{"$20, to Texas", bigcommercetest.Order{Total: "20.0000", ShipTo: []bigcommercetest.ShipTo{{State: "texas", CountryISO2: "US"}}}, true},
		{"$20, to Ontario", bigcommercetest.Order{Total: "20.0000", ShipTo: []bigcommercetest.ShipTo{{State: "Ontario", CountryISO2: "CA"}}}, true},
		{"$20, two consignments, one to Texas", bigcommercetest.Order{Total: "20.0000", ShipTo: append([]bigcommercetest.ShipTo{{State: "Texas", CountryISO2: "US"}}, ny...)}, true},
		{"$20, nothing shipped", bigcommercetest.Order{Total: "20.0000"}, false},
		{"$20, to New York", bigcommercetest.Order{Total: "20.0000", ShipTo: ny}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.order.ID, c.order.StatusID, c.order.CartID = int64(300+i), awaiting, never
			d.AddOrder(c.order)
			code, out := orderCreated(t, env, c.order.ID, header)
			if code != http.StatusOK || out["held"] != c.held || (out["exempt"] == true) == c.held {
				t.Fatalf("guard answered %d %v, want held %v", code, out, c.held)
			}
			o, _ := d.Order(c.order.ID)
			if want := map[bool]int{true: bigcommerce.StatusManualVerificationRequired, false: awaiting}[c.held]; o.StatusID != want {
				t.Errorf("order status %d, want %d", o.StatusID, want)
			}
			if mf := d.Metafields("order", fmt.Sprint(c.order.ID)); (len(mf) == 1) != c.held {
				t.Errorf("order metafields %+v", mf)
			}
		})
	}
}

// The guard records the status it held an order from, keeps it when the
// same order arrives again (created, then converted), and leaves an order
// the merchant decided by hand as they decided it.
func TestOrderGuardKeepsHeldFromAndReview(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	d.AddOrder(bigcommercetest.Order{ID: 301, StatusID: 1, CartID: cartB})
	for range 2 {
		if code, out := orderCreated(t, env, 301, header); code != http.StatusOK || out["verified"] != false {
			t.Fatalf("guard: %d %v", code, out)
		}
		if rec := orderRecord(t, d, "301"); rec.HeldFrom != 1 || rec.Review != nil {
			t.Fatalf("record %+v, want held from 1", rec)
		}
	}
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: storeHash, Token: env.Stores[storeHash].AccessToken, BaseURL: d.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	approved := orderRecord(t, d, "301")
	approved.Review = &bigcommerce.Review{Approved: true, UserID: 1, At: approved.EvaluatedAt}
	if err := c.SaveOutcome(context.Background(), bigcommerce.Order(301), approved); err != nil {
		t.Fatal(err)
	}
	d.AddOrder(bigcommercetest.Order{ID: 301, StatusID: 11, CartID: cartB}) // released by the merchant
	if code, out := orderCreated(t, env, 301, header); code != http.StatusOK || out["verified"] != true || out["held"] != false {
		t.Fatalf("guard after approval: %d %v", code, out)
	}
	if o, _ := d.Order(301); o.StatusID != 11 {
		t.Errorf("approved order moved to %d", o.StatusID)
	}
	if rec := orderRecord(t, d, "301"); rec.Review == nil || !rec.Review.Approved {
		t.Errorf("the review was replaced: %+v", rec)
	}
}

// After the order: the shopper verifies the held order's cart later. A
// pass releases the order to the status it was held from; a fail keeps it
// held with the new reasons; an order the merchant reviewed, and an order
// of another cart, are not touched.
func TestVerifyingAfterTheOrderSettlesIt(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	carts := map[int64]string{
		401: "40140140-0000-4000-8000-000000000401", 402: "40240240-0000-4000-8000-000000000402",
		403: "40340340-0000-4000-8000-000000000403", 404: "40440440-0000-4000-8000-000000000404",
	}
	for id, cart := range carts {
		d.AddOrder(bigcommercetest.Order{ID: id, StatusID: 1, CartID: cart})
		if code, out := orderCreated(t, env, id, header); code != http.StatusOK || out["held"] != true {
			t.Fatalf("guard %d: %d %v", id, code, out)
		}
	}
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: storeHash, Token: env.Stores[storeHash].AccessToken, BaseURL: d.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	rejected := orderRecord(t, d, "403")
	rejected.Review = &bigcommerce.Review{UserID: 1, At: rejected.EvaluatedAt}
	if err := c.SaveOutcome(context.Background(), bigcommerce.Order(403), rejected); err != nil {
		t.Fatal(err)
	}
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: carts[401]}), nil))
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: carts[402]}), map[string]any{"face_match_score": "no_match"}))
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: carts[403]}), nil))

	if o, _ := d.Order(401); o.StatusID != 1 {
		t.Errorf("verified after the order: status %d, want 1 (held from)", o.StatusID)
	}
	if rec := orderRecord(t, d, "401"); !rec.Pass || rec.HeldFrom != 1 || rec.VerificationID == "" {
		t.Errorf("401's record %+v", rec)
	}
	if o, _ := d.Order(402); o.StatusID != bigcommerce.StatusManualVerificationRequired {
		t.Errorf("failed after the order: status %d, want held", o.StatusID)
	}
	if rec := orderRecord(t, d, "402"); rec.Pass || len(rec.Reasons) == 0 || rec.Reasons[0].Code == proxy.CodeNotVerified {
		t.Errorf("402's record %+v, want the verification's reasons", rec)
	}
	if o, _ := d.Order(403); o.StatusID != bigcommerce.StatusManualVerificationRequired || orderRecord(t, d, "403").Review == nil {
		t.Errorf("the merchant's rejection was overridden: %+v", o)
	}
	if o, _ := d.Order(404); o.StatusID != bigcommerce.StatusManualVerificationRequired || orderRecord(t, d, "404").Reasons[0].Code != proxy.CodeNotVerified {
		t.Errorf("another cart's order was touched: %+v", o)
	}
}

// A store that chose where verified orders go: a pass after the order
// moves the held order there, not back to the status it was held from.
func TestVerifiedAfterTheOrderGoesToTheChosenStatus(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true, ReleaseStatus: 9})
	d := env.Doubles[storeHash]
	const cart = "40540540-0000-4000-8000-000000000405"
	d.AddOrder(bigcommercetest.Order{ID: 405, StatusID: 1, CartID: cart})
	if code, out := orderCreated(t, env, 405, string(env.Stores[storeHash].WebhookHeaderValue)); code != http.StatusOK || out["held"] != true {
		t.Fatalf("guard: %d %v", code, out)
	}
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cart}), nil))
	if o, _ := d.Order(405); o.StatusID != 9 {
		t.Errorf("verified after the order: status %d, want 9 (the store's choice)", o.StatusID)
	}
	if rec := orderRecord(t, d, "405"); !rec.Pass || rec.HeldFrom != 1 {
		t.Errorf("405's record %+v", rec)
	}
}

// On the order confirmation page the widget names the order, and the
// status says whether the guard holds it for this cart's verification
// (the widget then says the order waits for it): not for another cart's
// order, an order the guard let through, one the merchant decided by
// hand, or one settled by a pass.
func TestConfirmationPageSaysTheOrderIsHeld(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true, Triggers: proxy.Triggers{MinTotalCents: 5000}})
	d := env.Doubles[storeHash]
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	const (
		held     = "41041041-0000-4000-8000-000000000410"
		small    = "41141141-0000-4000-8000-000000000411"
		rejected = "41241241-0000-4000-8000-000000000412"
		passed   = "41341341-0000-4000-8000-000000000413"
	)
	for id, o := range map[int64]struct{ cart, total string }{410: {held, "60.0000"}, 411: {small, "10.0000"}, 412: {rejected, "60.0000"}, 413: {passed, "60.0000"}} {
		d.AddOrder(bigcommercetest.Order{ID: id, StatusID: 11, CartID: o.cart, Total: o.total})
		if code, out := orderCreated(t, env, id, header); code != http.StatusOK {
			t.Fatalf("guard %d: %d %v", id, code, out)
		}
	}
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: storeHash, Token: env.Stores[storeHash].AccessToken, BaseURL: d.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	rec := orderRecord(t, d, "412")
	rec.Review = &bigcommerce.Review{UserID: 1, At: rec.EvaluatedAt}
	if err := c.SaveOutcome(context.Background(), bigcommerce.Order(412), rec); err != nil {
		t.Fatal(err)
	}
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: passed}), nil))

	heldFor := func(cart, order string) bool {
		t.Helper()
		code, _, body := get(t, env.URL+"/proxy/v1/stores/"+storeHash+"/status?cart_id="+cart+"&order_id="+order, origin, "")
		if code != http.StatusOK {
			t.Fatalf("status of order %s: %d %s", order, code, body)
		}
		var s proxy.Status
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatal(err)
		}
		return s.OrderHeld
	}
	if !heldFor(held, "410") {
		t.Error("the held order's confirmation page is not told it waits")
	}
	if status(t, env, storeHash, held, "").OrderHeld {
		t.Error("a page naming no order is told an order waits")
	}
	for _, c := range []struct{ cart, order, why string }{
		{small, "410", "another cart's order"},
		{small, "411", "an order under the total, let through"},
		{rejected, "412", "an order rejected by hand"},
		{passed, "413", "an order released by a pass"},
		{held, "999", "an order the store does not have"},
	} {
		if heldFor(c.cart, c.order) {
			t.Errorf("%s is said to wait for the verification", c.why)
		}
	}
	for _, bad := range []string{"0", "-1", "x", "12345678901234567"} {
		if code, _, body := get(t, env.URL+"/proxy/v1/stores/"+storeHash+"/status?cart_id="+held+"&order_id="+bad, origin, ""); code != http.StatusUnprocessableEntity {
			t.Errorf("order_id=%s: %d %s, want 422", bad, code, body)
		}
	}
}
