package http_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/qr"
	"github.com/idgate/idgate/internal/qr/qrtest"
	"github.com/idgate/idgate/proxy"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
	"github.com/idgate/idgate/widget"
)

func post(t *testing.T, url, orig, token, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if orig != "" {
		req.Header.Set("Origin", orig)
	}
	if token != "" {
		req.Header.Set("Idgate-Customer-Token", token)
	}
	code, _, b := do(t, req)
	return code, b
}

// Starting binds the verification to the proven shopper and to this
// proxy's webhook, and the webhook that comes back lands on both.
func TestStartBindsShopperAndWebhook(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	url := env.URL + "/proxy/v1/stores/" + storeHash + "/verifications"
	code, body := post(t, url, origin, env.CustomerJWT(storeHash, 7), `{"cart_id":"`+cartA+`"}`)
	if code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, body)
	}
	var created struct {
		proxy.Created
		QR qr.Code `json:"qr"`
	}
	if err := json.Unmarshal(body, &created); err != nil || created.ID == "" || !strings.HasPrefix(created.URL, env.Verifier.URL+"/v/") {
		t.Fatalf("start answer %s (%v)", body, err)
	}
	// The answer carries the link as a QR code, which reads back to it.
	img, err := qrtest.Draw(created.QR, 4)
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.Read(img); err != nil || text != created.URL {
		t.Fatalf("start answer's QR code reads %q (%v), want %q", text, err, created.URL)
	}
	got := env.Verifier.Created()
	if len(got) != 1 {
		t.Fatalf("verifier got %d creates", len(got))
	}
	c := got[0]
	st := env.Stores[storeHash]
	if c.Origin != origin || c.WebhookURL != env.URL+proxy.WebhookPath(storeHash) ||
		c.WebhookHeaders[st.WebhookHeader] != string(st.WebhookHeaderValue) || len(c.WebhookHeaders) != 1 {
		t.Fatalf("create request %+v", c)
	}
	if strings.Contains(c.ExternalID, cartA) || len(c.ExternalID) > 100 {
		t.Fatalf("external_id %q exposes the cart or is over 100 characters", c.ExternalID)
	}
	sh, err := proxy.OpenRef(env.Service.Sealer, storeHash, c.ExternalID)
	if err != nil || sh != (proxy.Shopper{CartID: cartA, CustomerID: 7}) {
		t.Fatalf("external_id opens to %+v (%v)", sh, err)
	}
	deliverOK(t, env, storeHash, proxytest.Result(c.ID, c.ExternalID, nil))
	if len(env.Doubles[storeHash].Metafields("customer", "7")) != 1 || len(env.Doubles[storeHash].Metafields("cart", cartA)) != 1 {
		t.Fatal("outcome not written on both cart and customer")
	}
}

func TestStartRefusals(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	url := env.URL + "/proxy/v1/stores/" + storeHash + "/verifications"
	for name, c := range map[string]struct {
		origin, token, body string
		code                int
		errCode             string
	}{
		"other origin":    {"https://evil.example", "", `{"cart_id":"` + cartA + `"}`, 403, "ORIGIN_NOT_ALLOWED"},
		"bad JSON":        {origin, "", `{"cart_id":`, 400, "MALFORMED_JSON"},
		"no cart":         {origin, "", `{}`, 422, "VALIDATION_FAILED"},
		"duplicate key":   {origin, "", `{"cart_id":"` + cartA + `","cart_id":"` + cartA + `"}`, 422, "VALIDATION_FAILED"},
		"invalid UTF-8":   {origin, "", "{\"cart_id\":\"\xff\xfe\"}", 422, "VALIDATION_FAILED"},
		"uppercase cart":  {origin, "", `{"cart_id":"` + strings.ToUpper(cartA) + `"}`, 422, "VALIDATION_FAILED"},
		"forged customer": {origin, "eyJhbGciOiJub25lIn0.eyJjdXN0b21lciI6eyJpZCI6N319.", `{"cart_id":"` + cartA + `"}`, 401, "UNAUTHENTICATED"},
		"huge body":       {origin, "", `{"cart_id":"` + strings.Repeat("a", 5000) + `"}`, 413, "PAYLOAD_TOO_LARGE"},
	} {
		t.Run(name, func(t *testing.T) {
			code, body := post(t, url, c.origin, c.token, c.body)
			if code != c.code || errorCode(t, body) != c.errCode {
				t.Fatalf("got %d %s", code, body)
			}
		})
	}
	if n := len(env.Verifier.Created()); n != 0 {
		t.Fatalf("refused starts reached the verifier %d times", n)
	}
}

func TestWidgetServedCompressedWithETag(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	b, err := widget.Get()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/widget/v1/idgate.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("ETag") != b.ETag ||
		!strings.Contains(resp.Header.Get("Cache-Control"), "max-age=86400") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("widget: %d %v", resp.StatusCode, resp.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, b.JS) {
		t.Fatal("gzipped body is not the bundle")
	}
	req.Header.Set("If-None-Match", b.ETag)
	resp2, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp2.StatusCode)
	}
	req.Header.Del("If-None-Match")
	req.Header.Set("Accept-Encoding", "gzip;q=0, identity")
	resp3, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp3.Body.Close()
	plain3, _ := io.ReadAll(resp3.Body)
	if resp3.Header.Get("Content-Encoding") != "" || !bytes.Equal(plain3, b.JS) {
		t.Fatalf("identity: encoding %q", resp3.Header.Get("Content-Encoding"))
	}
}

// The stand-in verifier's end-user page (the local demo) delivers the
// chosen result as a signed webhook through the real receiver.
func TestDemoEndUserPageDeliversResult(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	code, body := post(t, env.URL+"/proxy/v1/stores/"+storeHash+"/verifications", origin, "", `{"cart_id":"`+cartA+`"}`)
	if code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, body)
	}
	var created proxy.Created
	if err := json.Unmarshal(body, &created); err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(created.URL, map[string][]string{"result": {"fail"}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "failing result was sent") {
		t.Fatalf("end-user page: %d %s", resp.StatusCode, page)
	}
	if s := status(t, env, storeHash, cartA, ""); s.State != proxy.StateFailed || s.VerificationID != created.ID {
		t.Fatalf("after the demo's failing result: %+v", s)
	}
}

// Starts are limited per cart (and per client IP), so a script cannot
// spend the store's integration-key allowance at the verifier.
func TestStartRateLimited(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	url := env.URL + "/proxy/v1/stores/" + storeHash + "/verifications"
	for i := range proxy.DefaultStartPerCart.Rate {
		if code, body := post(t, url, origin, "", `{"cart_id":"`+cartA+`"}`); code != http.StatusCreated {
			t.Fatalf("start %d: %d %s", i+1, code, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"cart_id":"`+cartA+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", origin)
	code, h, body := do(t, req)
	if code != http.StatusTooManyRequests || errorCode(t, body) != "RATE_LIMITED" || h.Get("Retry-After") == "" {
		t.Fatalf("over the per-cart limit: %d %v %s", code, h, body)
	}
	// Other carts from the same address go on until the per-IP limit; every
	// attempt counts against it, the refused one included.
	for i := proxy.DefaultStartPerCart.Rate + 1; i < proxy.DefaultStartPerIP.Rate; i++ {
		cart := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		if code, body := post(t, url, origin, "", `{"cart_id":"`+cart+`"}`); code != http.StatusCreated {
			t.Fatalf("start on cart %d: %d %s", i, code, body)
		}
	}
	if code, _ := post(t, url, origin, "", `{"cart_id":"00000000-0000-4000-8000-999999999999"}`); code != http.StatusTooManyRequests {
		t.Fatalf("over the per-IP limit: %d", code)
	}
	if n := len(env.Verifier.Created()); n != proxy.DefaultStartPerIP.Rate-1 {
		t.Fatalf("verifier got %d creates, want %d", n, proxy.DefaultStartPerIP.Rate-1)
	}
}

// X-Forwarded-For names the client only behind a trusted proxy; otherwise
// rotating it does not escape the per-IP limit.
func TestStartLimitClientIP(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		t.Run(fmt.Sprintf("trusted=%v", trusted), func(t *testing.T) {
			env := proxytest.Start(t, proxytest.Options{})
			var opts []proxyhttp.Option
			if trusted {
				opts = append(opts, proxyhttp.WithTrustedProxies([]string{"0.0.0.0"})) // app.Test connects from 0.0.0.0
			}
			app, err := proxyhttp.New(env.Service, slog.New(slog.NewTextHandler(io.Discard, nil)), opts...)
			if err != nil {
				t.Fatal(err)
			}
			start := func(i int, ip string) int {
				req := httptest.NewRequest(http.MethodPost, "/proxy/v1/stores/"+storeHash+"/verifications",
					strings.NewReader(fmt.Sprintf(`{"cart_id":"00000000-0000-4000-8000-%012d"}`, i)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Origin", origin)
				req.Header.Set("X-Forwarded-For", ip)
				resp, err := app.Test(req, -1)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			for i := range proxy.DefaultStartPerIP.Rate {
				if code := start(i, fmt.Sprintf("203.0.113.%d", i%2)); code != http.StatusCreated {
					t.Fatalf("start %d: %d", i, code)
				}
			}
			code := start(100, "198.51.100.7")
			if trusted && code != http.StatusCreated {
				t.Fatalf("a new client behind the trusted proxy: %d", code)
			}
			if !trusted && code != http.StatusTooManyRequests {
				t.Fatalf("a forged X-Forwarded-For escaped the limit: %d", code)
			}
			if !trusted {
				return
			}
			// Behind the balancer, a client that writes its own entries
			// first is still counted under the one the balancer appended.
			for i := range proxy.DefaultStartPerIP.Rate {
				if code := start(200+i, fmt.Sprintf("192.0.2.%d, 198.51.100.8", i)); code != http.StatusCreated {
					t.Fatalf("start %d from 198.51.100.8: %d", i, code)
				}
			}
			if code := start(300, "192.0.2.200, 198.51.100.8"); code != http.StatusTooManyRequests {
				t.Fatalf("a forged left-most X-Forwarded-For entry escaped the limit: %d", code)
			}
		})
	}
}
