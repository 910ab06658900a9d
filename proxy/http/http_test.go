package http_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
)

const (
	origin = "https://shop.example"
	cartA  = "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01"
	cartB  = "7e2d9a40-1b3c-4d5e-8f60-718293a4b5c6"
)

var storeHash = bigcommercetest.DefaultStoreHash

// get calls the proxy as the widget does.
func get(t *testing.T, url, orig, customerToken string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if orig != "" {
		req.Header.Set("Origin", orig)
	}
	if customerToken != "" {
		req.Header.Set("Idgate-Customer-Token", customerToken)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

func status(t *testing.T, env *proxytest.Env, hash, cart, token string) proxy.Status {
	t.Helper()
	code, h, body := get(t, env.URL+"/proxy/v1/stores/"+hash+"/status?cart_id="+cart, origin, token)
	if code != http.StatusOK {
		t.Fatalf("status: %d %s", code, body)
	}
	if h.Get("Access-Control-Allow-Origin") != origin {
		t.Fatalf("status: Access-Control-Allow-Origin %q", h.Get("Access-Control-Allow-Origin"))
	}
	if strings.Contains(string(body), bigcommercetest.DefaultToken) {
		t.Fatal("status response carries the store access token")
	}
	var s proxy.Status
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func deliverOK(t *testing.T, env *proxytest.Env, hash string, body []byte) map[string]any {
	t.Helper()
	resp := env.Deliver(hash, body)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("webhook: %d %s", resp.StatusCode, b)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPassingWebhookVerifiesCartAndWritesMetafield(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{HoldCheckout: true})
	s := status(t, env, storeHash, cartA, "")
	if s.State != proxy.StateUnverified || s.Verified || !s.HoldCheckout || len(s.CheckoutSelectors) == 0 {
		t.Fatalf("fresh cart: %+v", s)
	}
	id := proxytest.NewRequestID()
	out := deliverOK(t, env, storeHash, proxytest.Result(id, env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil))
	if out["pass"] != true || out["duplicate"] != false {
		t.Fatalf("webhook answer %v", out)
	}
	s = status(t, env, storeHash, cartA, "")
	if s.State != proxy.StateVerified || !s.Verified || s.VerificationID != id || s.ExpiresAt == nil {
		t.Fatalf("after passing webhook: %+v", s)
	}
	if want := s.EvaluatedAt.Add(proxy.DefaultApprovalTTL); !s.ExpiresAt.Equal(want) {
		t.Fatalf("expires_at %s, want %s", s.ExpiresAt, want)
	}
	mf := env.Doubles[storeHash].Metafields("cart", cartA)
	if len(mf) != 1 || mf[0].Namespace != "idgate" || mf[0].PermissionSet != "app_only" || mf[0].Key != bigcommerce.KeyOutcome {
		t.Fatalf("cart metafields %+v", mf)
	}
	var stored bigcommerce.Outcome
	if err := json.Unmarshal([]byte(mf[0].Value), &stored); err != nil || stored.VerificationID != id || !stored.Pass || stored.Status != "completed" {
		t.Fatalf("stored outcome %s (%v)", mf[0].Value, err)
	}
	// Another cart of the same store stays unverified.
	if s := status(t, env, storeHash, cartB, ""); s.Verified {
		t.Fatalf("other cart verified: %+v", s)
	}
}

func TestLaterFailureReplacesPass(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	ref := env.Ref(storeHash, proxy.Shopper{CartID: cartA})
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), ref, nil))
	failing := proxytest.NewRequestID()
	out := deliverOK(t, env, storeHash, proxytest.Result(failing, ref, map[string]any{"face_match_score": "no_match", "over_21": false}))
	if out["pass"] != false {
		t.Fatalf("webhook answer %v", out)
	}
	s := status(t, env, storeHash, cartA, "")
	if s.State != proxy.StateFailed || s.Verified || s.VerificationID != failing || len(s.Reasons) == 0 || s.ExpiresAt != nil {
		t.Fatalf("after failing webhook: %+v", s)
	}
	if s.Reasons[0].Code != "face_match_below_minimum" {
		t.Fatalf("reasons %+v", s.Reasons)
	}
}

func TestManualReviewFailsThenCompletedApplies(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	ref := env.Ref(storeHash, proxy.Shopper{CartID: cartA})
	id := proxytest.NewRequestID()
	deliverOK(t, env, storeHash, proxytest.Result(id, ref, map[string]any{
		"webcam_face_matches_license_photo": "undetermined", "manual_review_requested": true, "face_match_score": "possible_match",
	}))
	if s := status(t, env, storeHash, cartA, ""); s.State != proxy.StateFailed || s.Reasons[0].Code != "face_match_undetermined" {
		t.Fatalf("manual review: %+v", s)
	}
	// The same request_id completing later is not a duplicate.
	out := deliverOK(t, env, storeHash, proxytest.Result(id, ref, nil))
	if out["duplicate"] != false || out["pass"] != true {
		t.Fatalf("completed after review: %v", out)
	}
	if s := status(t, env, storeHash, cartA, ""); !s.Verified {
		t.Fatalf("after completed: %+v", s)
	}
}

// noCache forgets everything: another instance's view, or a restart.
type noCache struct{}

func (noCache) Get(context.Context, string) ([]byte, error)              { return nil, cache.ErrNotFound }
func (noCache) Set(context.Context, string, []byte, time.Duration) error { return nil }
func (noCache) Delete(context.Context, string) error                     { return nil }

func TestDuplicateDeliveryWritesOnce(t *testing.T) {
	for name, c := range map[string]cache.Cache{"cached": nil, "cache forgotten": noCache{}} {
		t.Run(name, func(t *testing.T) {
			env := proxytest.Start(t, proxytest.Options{Cache: c})
			body := proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA, CustomerID: 42}), nil)
			deliverOK(t, env, storeHash, body)
			writes := func() int {
				n := 0
				for _, r := range env.Doubles[storeHash].Requests() {
					if r.Method == http.MethodPost || r.Method == http.MethodPut {
						n++
					}
				}
				return n
			}
			before := writes()
			if before != 2 {
				t.Fatalf("first delivery made %d writes, want 2 (cart and customer)", before)
			}
			if out := deliverOK(t, env, storeHash, body); out["duplicate"] != true {
				t.Fatalf("retry not recognised: %v", out)
			}
			if writes() != before {
				t.Fatalf("duplicate wrote: %d writes", writes())
			}
		})
	}
}

// An approval ends after the store's approval TTL: the state turns
// "expired" and the shopper must verify again.
func TestApprovalExpires(t *testing.T) {
	clock := bigcommercetest.NewClock(time.Now())
	env := proxytest.Start(t, proxytest.Options{Now: clock.Now})
	deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil))
	clock.Advance(proxy.DefaultApprovalTTL - time.Minute)
	if s := status(t, env, storeHash, cartA, ""); !s.Verified {
		t.Fatalf("a minute before expiry: %+v", s)
	}
	clock.Advance(2 * time.Minute)
	if s := status(t, env, storeHash, cartA, ""); s.Verified || s.State != proxy.StateExpired || s.ExpiresAt == nil {
		t.Fatalf("after expiry: %+v", s)
	}
}
