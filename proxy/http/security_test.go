package http_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
)

func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("not the error format: %s", body)
	}
	return e.Error.Code
}

func TestWebhookRefusesForgedAndReplayed(t *testing.T) {
	clock := bigcommercetest.NewClock(time.Now())
	env := proxytest.Start(t, proxytest.Options{Now: clock.Now})
	body := proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil)
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	good := env.Sign(storeHash, body, clock.Now())
	tampered := append([]byte(nil), body...)
	tampered = []byte(strings.Replace(string(tampered), `"over_18":true`, `"over_18":false`, 1))
	cases := map[string]struct {
		body              []byte
		header, signature string
	}{
		"no custom header":      {body, "", good},
		"wrong custom header":   {body, header + "x", good},
		"no signature":          {body, header, ""},
		"signature of another":  {tampered, header, good},
		"garbage signature":     {body, header, "t=1,v1=zz"},
		"replayed (10 min old)": {body, header, env.Sign(storeHash, body, clock.Now().Add(-10*time.Minute))},
		"from the future":       {body, header, env.Sign(storeHash, body, clock.Now().Add(10*time.Minute))},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			resp := env.DeliverWith(storeHash, c.body, c.header, c.signature)
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusUnauthorized || errorCode(t, b) != "UNAUTHENTICATED" {
				t.Fatalf("got %d %s", resp.StatusCode, b)
			}
		})
	}
	// Signed with another store's secret.
	other := proxytest.Start(t, proxytest.Options{Stores: []string{"otherstore1"}})
	resp := env.DeliverWith(storeHash, body, header, other.Sign("otherstore1", body, clock.Now()))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("other store's secret: %d", resp.StatusCode)
	}
	if mf := env.Doubles[storeHash].Metafields("cart", cartA); len(mf) != 0 {
		t.Fatalf("a refused webhook wrote %+v", mf)
	}
	// An exact replay within the tolerance is acknowledged, not re-applied.
	deliverOK(t, env, storeHash, body)
	clock.Advance(4 * time.Minute)
	resp = env.DeliverWith(storeHash, body, header, good)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"duplicate":true`) {
		t.Fatalf("replay within tolerance: %d %s", resp.StatusCode, b)
	}
	clock.Advance(2 * time.Minute)
	if resp := env.DeliverWith(storeHash, body, header, good); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("replay after tolerance: %d", resp.StatusCode)
	}
}

func TestWebhookRefusesAnotherStoresReference(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{Stores: []string{"storea1", "storeb2"}})
	// A genuine reference for store B, signed correctly for store A.
	body := proxytest.Result(proxytest.NewRequestID(), env.Ref("storeb2", proxy.Shopper{CartID: cartA}), nil)
	resp := env.Deliver("storea1", body)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusUnprocessableEntity || errorCode(t, b) != "VALIDATION_FAILED" || !strings.Contains(string(b), `"field":"external_id"`) {
		t.Fatalf("got %d %s", resp.StatusCode, b)
	}
	for _, h := range []string{"storea1", "storeb2"} {
		if mf := env.Doubles[h].Metafields("cart", cartA); len(mf) != 0 {
			t.Fatalf("store %s got %+v", h, mf)
		}
	}
}

func TestAnotherStoresCartIsNotReadable(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{Stores: []string{"storea1", "storeb2"}})
	deliverOK(t, env, "storeb2", proxytest.Result(proxytest.NewRequestID(), env.Ref("storeb2", proxy.Shopper{CartID: cartA}), nil))
	if s := status(t, env, "storeb2", cartA, ""); !s.Verified {
		t.Fatalf("store B's own view: %+v", s)
	}
	if s := status(t, env, "storea1", cartA, ""); s.Verified || s.State != proxy.StateUnverified || s.VerificationID != "" {
		t.Fatalf("store A sees store B's cart: %+v", s)
	}
}

func TestCustomerTokenChecks(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{Stores: []string{"storea1", "storeb2"}})
	// Customer 42 verified on an earlier cart of store A.
	deliverOK(t, env, "storea1", proxytest.Result(proxytest.NewRequestID(), env.Ref("storea1", proxy.Shopper{CartID: cartB, CustomerID: 42}), nil))
	if s := status(t, env, "storea1", cartA, env.CustomerJWT("storea1", 42)); !s.Verified || !s.Customer {
		t.Fatalf("customer on a new cart: %+v", s)
	}
	if s := status(t, env, "storea1", cartA, ""); s.Verified {
		t.Fatalf("guest view of the new cart: %+v", s)
	}
	stA := env.Stores["storea1"]
	sign := func(claims jwt.MapClaims, secret string) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	now := time.Now()
	wrongAud := bigcommerce.CustomerClaims(bigcommerce.CurrentCustomer{ID: 42}, "another-app", "storea1", now, time.Minute)
	wrongStore := bigcommerce.CustomerClaims(bigcommerce.CurrentCustomer{ID: 42}, stA.AppClientID, "storeb2", now, time.Minute)
	expired := bigcommerce.CustomerClaims(bigcommerce.CurrentCustomer{ID: 42}, stA.AppClientID, "storea1", now.Add(-time.Hour), time.Minute)
	for name, tok := range map[string]string{
		"store B's token":         env.CustomerJWT("storeb2", 42),
		"wrong audience":          sign(wrongAud, string(stA.AppClientSecret)),
		"store_hash of store B":   sign(wrongStore, string(stA.AppClientSecret)),
		"expired":                 sign(expired, string(stA.AppClientSecret)),
		"not a JWT":               "42",
		"browser-stated customer": `{"customer_id":42}`,
	} {
		t.Run(name, func(t *testing.T) {
			code, h, body := get(t, env.URL+"/proxy/v1/stores/storea1/status?cart_id="+cartA, origin, tok)
			if code != http.StatusUnauthorized || errorCode(t, body) != "UNAUTHENTICATED" {
				t.Fatalf("got %d %s", code, body)
			}
			if h.Get("Access-Control-Allow-Origin") != origin {
				t.Fatal("the widget cannot read the refusal: no CORS header")
			}
		})
	}
}

func TestCORSLimitedToStoreOrigins(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	url := env.URL + "/proxy/v1/stores/" + storeHash + "/status?cart_id=" + cartA
	for name, o := range map[string]string{"other origin": "https://evil.example", "no origin": "", "http twin": "http://shop.example"} {
		t.Run(name, func(t *testing.T) {
			code, h, body := get(t, url, o, "")
			if code != http.StatusForbidden || errorCode(t, body) != "ORIGIN_NOT_ALLOWED" || h.Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("got %d %q %s", code, h.Get("Access-Control-Allow-Origin"), body)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodOptions, env.URL+"/proxy/v1/stores/"+storeHash+"/verifications", nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type,idgate-customer-token")
	code, h, _ := do(t, req)
	if code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != origin ||
		!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Idgate-Customer-Token") || !strings.Contains(h.Get("Vary"), "Origin") {
		t.Fatalf("preflight: %d %v", code, h)
	}
	req.Header.Set("Origin", "https://evil.example")
	if code, h, _ := do(t, req); code != http.StatusForbidden || h.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("evil preflight: %d %v", code, h)
	}
	if code, _, body := get(t, env.URL+"/proxy/v1/stores/nosuchstore/status?cart_id="+cartA, origin, ""); code != http.StatusNotFound {
		t.Fatalf("unknown store: %d %s", code, body)
	}
	if code, _, body := get(t, env.URL+"/proxy/v1/stores/"+storeHash+"/status?cart_id=../../x", origin, ""); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"field":"cart_id"`) {
		t.Fatalf("bad cart id: %d %s", code, body)
	}
}

// The oversize body is only declared (Content-Length) and never sent: the
// server must refuse on the header alone. Sending a real megabyte races the
// server's close against the client's write and fails with a reset.
// A signed delivery whose JSON a strict reader refuses (the verifier never
// sends one) is refused naming the member, not read with the last key
// winning.
func TestWebhookRefusesDuplicateKeysAndInvalidUTF8(t *testing.T) {
	clock := bigcommercetest.NewClock(time.Now())
	env := proxytest.Start(t, proxytest.Options{Now: clock.Now})
	good := proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil)
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	for name, c := range map[string]struct{ body, field, code string }{
		"duplicate request_id": {`{"request_id":"x",` + string(good[1:]), "request_id", "duplicate_key"},
		"invalid UTF-8":        {"{\"note\":\"\xff\"," + string(good[1:]), "note", "invalid_utf8"},
	} {
		t.Run(name, func(t *testing.T) {
			body := []byte(c.body)
			resp := env.DeliverWith(storeHash, body, header, env.Sign(storeHash, body, clock.Now()))
			b, _ := io.ReadAll(resp.Body)
			var e struct {
				Error struct {
					Code    string `json:"code"`
					Details []struct{ Field, Code string }
				} `json:"error"`
			}
			if resp.StatusCode != 422 || json.Unmarshal(b, &e) != nil || e.Error.Code != "VALIDATION_FAILED" ||
				len(e.Error.Details) != 1 || e.Error.Details[0].Field != c.field || e.Error.Details[0].Code != c.code {
				t.Fatalf("got %d %s", resp.StatusCode, b)
			}
		})
	}
	if mf := env.Doubles[storeHash].Metafields("cart", cartA); len(mf) != 0 {
		t.Fatalf("refused deliveries wrote %v", mf)
	}
}

func TestWebhookBodyBounded(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	u, err := url.Parse(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /proxy/v1/stores/%s/webhook HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		storeHash, u.Host, proxyhttp.MaxWebhookBody+1)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || errorCode(t, b) != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("oversized webhook: %d %s", resp.StatusCode, b)
	}
}

// Holes the attacker's suite (securitytest) found, fixed: a body that is
// not JSON is 400 MALFORMED_JSON on every receiver, as on the widget's
// endpoint; BigCommerce's webhook names its scope; another store's (or a
// deleted) order is a 422 naming data, not a 503 BigCommerce would retry;
// the start request refuses a member it does not read.
func TestProxyRefusalsFoundBySecuritytest(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})
	st := env.Stores[storeHash]
	header := string(st.WebhookHeaderValue)
	post := func(path string, body []byte, headers ...string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, env.URL+path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		code, _, b := do(t, req)
		return code, b
	}
	detail := func(b []byte) string {
		var e struct {
			Error struct {
				Details []struct{ Field, Code string }
			} `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || len(e.Error.Details) != 1 {
			return ""
		}
		return e.Error.Details[0].Field + "/" + e.Error.Details[0].Code
	}
	truncated := []byte(`{"request_id":"x`)
	if code, b := post(proxy.WebhookPath(storeHash), truncated, st.WebhookHeader, header, "Idgate-Signature", env.Sign(storeHash, truncated, time.Now())); code != 400 || errorCode(t, b) != "MALFORMED_JSON" {
		t.Errorf("truncated delivery: %d %s", code, b)
	}
	if code, b := post(proxy.OrderWebhookPath(storeHash), truncated, st.WebhookHeader, header); code != 400 || errorCode(t, b) != "MALFORMED_JSON" {
		t.Errorf("truncated order event: %d %s", code, b)
	}
	if code, b := post(proxy.OrderWebhookPath(storeHash), []byte(`{"data":{"type":"order","id":7}}`), st.WebhookHeader, header); code != 422 || detail(b) != "scope/required" {
		t.Errorf("order event without scope: %d %s", code, b)
	}
	before := env.Doubles[storeHash].Snapshot()
	if code, b := post(proxy.OrderWebhookPath(storeHash), []byte(`{"scope":"store/order/created","data":{"type":"order","id":999}}`), st.WebhookHeader, header); code != 422 || detail(b) != "data/unknown_order" {
		t.Errorf("unknown order: %d %s", code, b)
	}
	if after := env.Doubles[storeHash].Snapshot(); string(after) != string(before) {
		t.Errorf("an unknown order changed the store:\n%s\n%s", before, after)
	}
	if code, b := post("/proxy/v1/stores/"+storeHash+"/verifications", []byte(`{"cart_id":"`+cartA+`","customer_id":42}`), "Origin", origin); code != 422 || detail(b) != "customer_id/unknown_field" {
		t.Errorf("start with a browser-stated customer: %d %s", code, b)
	}
}
