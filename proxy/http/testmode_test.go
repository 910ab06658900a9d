package http_test

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/proxytest"
)

// testResult is a passing result of a test verification (livemode false).
func testResult(t *testing.T, id, ref string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(proxytest.Result(id, ref, nil), &m); err != nil {
		t.Fatal(err)
	}
	m["livemode"] = false
	b, _ := json.Marshal(m)
	return b
}

// A store in test mode takes a test verification's result as usual (the
// badge shows "verified") and marks the outcome on the cart as a test; a
// store not in test mode, the default, refuses it and stays unverified
// (docs/test-mode.md).
func TestTestModeStore(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{HoldCheckout: true, TestMode: true})
	id := proxytest.NewRequestID()
	out := deliverOK(t, env, storeHash, testResult(t, id, env.Ref(storeHash, proxy.Shopper{CartID: cartA})))
	if out["pass"] != true {
		t.Fatalf("webhook answer %v", out)
	}
	if s := status(t, env, storeHash, cartA, ""); s.State != proxy.StateVerified || !s.Verified || s.VerificationID != id {
		t.Fatalf("test-mode store after a test result: %+v", s)
	}
	mf := env.Doubles[storeHash].Metafields("cart", cartA)
	var stored bigcommerce.Outcome
	if len(mf) != 1 || json.Unmarshal([]byte(mf[0].Value), &stored) != nil || !stored.Test || !stored.Pass {
		t.Fatalf("cart metafield %+v: want a passing outcome marked test", mf)
	}

	live := proxytest.Start(t, proxytest.Options{HoldCheckout: true})
	resp := live.Deliver(storeHash, testResult(t, proxytest.NewRequestID(), live.Ref(storeHash, proxy.Shopper{CartID: cartA})))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Fatalf("a live store took a test result: %d %s", resp.StatusCode, b)
	}
	if s := status(t, live, storeHash, cartA, ""); s.Verified || len(live.Doubles[storeHash].Metafields("cart", cartA)) != 0 {
		t.Fatalf("live store after a refused test result: %+v", s)
	}
	// Live results are unchanged on a live store, and carry no test mark.
	deliverOK(t, live, storeHash, proxytest.Result(proxytest.NewRequestID(), live.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil))
	mf = live.Doubles[storeHash].Metafields("cart", cartA)
	var liveOutcome bigcommerce.Outcome
	if len(mf) != 1 || json.Unmarshal([]byte(mf[0].Value), &liveOutcome) != nil || liveOutcome.Test {
		t.Fatalf("live outcome %+v", mf)
	}
}
