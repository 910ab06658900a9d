package securitytest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/memory"
	rediscache "github.com/idgate/idgate/internal/cache/redis"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
)

// The storefront proxy under the same walk: its own /openapi.json lists
// the operations, the probe table is the verifier's (malformed bodies
// included), and the tenant matrix is store against store. The proxy
// keeps no database; its shared state is the cache, so it runs on the
// in-process cache and on Redis as the verifier runs on both databases.
func TestAttackTheProxy(t *testing.T) {
	for _, c := range []struct {
		name  string
		cache func(*testing.T) cache.Cache
	}{
		{"memory", func(*testing.T) cache.Cache { return memory.New(nil) }},
		{"redis", func(t *testing.T) cache.Cache {
			client, prefix := testkit.Redis(t)
			return rediscache.New(client, prefix, nil)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := proxytest.Start(t, proxytest.Options{Stores: []string{storeA, storeB}, OrderGuard: true, Cache: c.cache(t)})
			attackProxy(t, env)
		})
	}
}

const (
	storeA, storeB = "storea1", "storeb2"
	shopOrigin     = "https://shop.example" // every test store's storefront
)

// shop is one tenant of the proxy: a store with a verified cart, a
// verified customer and an order, all on its BigCommerce double.
type shop struct {
	hash       string
	cart       string
	customer   int64
	order      int64
	verifyID   string // the verification its cart and customer carry
	delivery   []byte // the verifier's delivery that verified them
	signature  string
	snapshot   []byte // the double's state before the attack
	statusBody []byte // its own status answer before the attack
}

// proxyOperation is one method on one path of the proxy's document.
type proxyOperation struct {
	method, path string
	auth         string // public, storefront, verifier_webhook, platform_webhook
	query        []string
	ctype        string
	example      []byte
	// login: every security requirement names the customer token (only a
	// logged-in customer may call it); ok: its success status.
	login bool
	ok    int
}

func proxyOperations(t *testing.T, g *target) []proxyOperation {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Security   []map[string][]string `json:"security"`
			Parameters []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
			RequestBody *struct {
				Content map[string]struct {
					Example json.RawMessage `json:"example"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	g.must("GET", "/openapi.json", "", &doc)
	var ops []proxyOperation
	for path, item := range doc.Paths {
		for method, o := range item {
			op := proxyOperation{method: strings.ToUpper(method), path: path, auth: "public", login: len(o.Security) > 0}
			for code := range o.Responses {
				if n, err := strconv.Atoi(code); err == nil && n >= 200 && n < 300 && (op.ok == 0 || n < op.ok) {
					op.ok = n
				}
			}
			for _, s := range o.Security {
				op.login = op.login && s["customerToken"] != nil
				switch {
				case s["storefrontOrigin"] != nil:
					op.auth = "storefront"
				case s["verifierSignature"] != nil:
					op.auth = "verifier_webhook"
				case s["webhookHeader"] != nil:
					op.auth = "platform_webhook"
				}
			}
			for _, p := range o.Parameters {
				if p.In == "query" && p.Required {
					op.query = append(op.query, p.Name)
				}
			}
			if strings.Contains(path, "{") && !strings.Contains(path, "{hash}") {
				t.Fatalf("%s %s: a path parameter the suite does not know", method, path)
			}
			if o.RequestBody != nil {
				for ct, c := range o.RequestBody.Content {
					op.ctype, op.example = ct, c.Example
				}
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	if len(ops) < 7 {
		t.Fatalf("only %d operations in the proxy's document", len(ops))
	}
	return ops
}

// url is the operation's path for store hash, cart as every required
// query parameter's value.
func (op proxyOperation) url(hash, cart string) string {
	p := strings.Replace(op.path, "{hash}", url.PathEscape(hash), 1)
	for i, q := range op.query {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		p += sep + q + "=" + url.QueryEscape(cart)
	}
	return p
}

func newShop(t *testing.T, g *target, env *proxytest.Env, hash, cart string, customer, order int64) *shop {
	t.Helper()
	s := &shop{hash: hash, cart: cart, customer: customer, order: order, verifyID: proxytest.NewRequestID()}
	s.delivery = proxytest.Result(s.verifyID, env.Ref(hash, proxy.Shopper{CartID: cart, CustomerID: customer}), nil)
	s.signature = env.Sign(hash, s.delivery, time.Now())
	st := env.Stores[hash]
	if a := g.send("POST", proxy.WebhookPath(hash), "application/json", s.delivery,
		st.WebhookHeader, string(st.WebhookHeaderValue), "Idgate-Signature", s.signature); a.status != 200 {
		t.Fatalf("deliver to %s: %d %v %s", hash, a.status, a.err, a.body)
	}
	env.Doubles[hash].AddOrder(bigcommercetest.Order{ID: order, StatusID: 11, CartID: cart, CustomerID: customer})
	s.statusBody = s.status(t, g, env)
	if !strings.Contains(string(s.statusBody), `"verified":true`) {
		t.Fatalf("%s's own cart is not verified: %s", hash, s.statusBody)
	}
	s.snapshot = env.Doubles[hash].Snapshot()
	return s
}

// status is the shop's own view of its verified customer on its cart.
func (s *shop) status(t *testing.T, g *target, env *proxytest.Env) []byte {
	a := g.send("GET", "/proxy/v1/stores/"+s.hash+"/status?cart_id="+s.cart, "", nil,
		"Origin", shopOrigin, proxyhttp.CustomerTokenHeader, env.CustomerJWT(s.hash, s.customer))
	if a.status != 200 {
		t.Fatalf("status of %s: %d %s", s.hash, a.status, a.body)
	}
	// evaluated_at and expires_at do not move; nothing else is time-based.
	return a.body
}

// customerTokens are Current Customer JWTs store B must refuse: store A's
// (another app secret), signed for B's secret but naming store A, with
// another audience, expired, unsigned, and not a JWT.
func customerTokens(t *testing.T, env *proxytest.Env, a, b *shop) map[string]string {
	stB := env.Stores[b.hash]
	now := time.Now()
	sign := func(c jwt.Claims, secret string) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	cust := bigcommerce.CurrentCustomer{ID: b.customer, Email: "c@example.com"}
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, bigcommerce.CustomerClaims(cust, stB.AppClientID, b.hash, now, time.Minute)).
		SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"other store's customer token":          env.CustomerJWT(a.hash, a.customer),
		"customer token naming the other store": sign(bigcommerce.CustomerClaims(cust, stB.AppClientID, a.hash, now, time.Minute), string(stB.AppClientSecret)),
		"customer token for another app":        sign(bigcommerce.CustomerClaims(cust, "another-app", b.hash, now, time.Minute), string(stB.AppClientSecret)),
		"expired customer token":                sign(bigcommerce.CustomerClaims(cust, stB.AppClientID, b.hash, now.Add(-time.Hour), time.Minute), string(stB.AppClientSecret)),
		"customer token (alg none)":             none,
		"customer token (garbage)":              base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 64)),
		"customer id stated by the browser":     fmt.Sprintf(`{"customer_id":%d}`, b.customer),
	}
}

// attackProxy walks every operation of the proxy's document with every
// probe that applies. The target is store B; store A is the other tenant
// whose ids, tokens and signatures the attacker holds.
func attackProxy(t *testing.T, env *proxytest.Env) {
	g := &target{t: t, base: env.URL, client: &http.Client{Timeout: probeTimeout}}
	a := newShop(t, g, env, storeA, "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01", 42, 7)
	b := newShop(t, g, env, storeB, "7e2d9a40-1b3c-4d5e-8f60-718293a4b5c6", 43, 8)
	ops := proxyOperations(t, g)
	stB := env.Stores[b.hash]
	hdrB := string(stB.WebhookHeaderValue)
	tokens := customerTokens(t, env, a, b)
	probes, pairs, requests := map[string]bool{}, 0, 0

	for _, op := range ops {
		own := op.url(b.hash, b.cart)
		held := func(probe, path string, ans answer, want ...expect) {
			t.Helper()
			requests++
			pairs++
			probes[probe] = true
			switch {
			case ans.err != nil:
				t.Errorf("%s %s [%s]: no answer within %s: %v", op.method, path, probe, probeTimeout, ans.err)
			case ans.status < 400 || ans.status > 499 || !isErrorFormat(ans.body):
				t.Errorf("%s %s [%s]: %d %.300s", op.method, path, probe, ans.status, ans.body)
			case len(ans.body) > maxAnswer:
				t.Errorf("%s %s [%s]: a %d-byte answer to a refusal", op.method, path, probe, len(ans.body))
			case len(want) > 0 && !want[0].met(ans):
				t.Errorf("%s %s [%s]: want %d %s, got %d %.300s", op.method, path, probe, want[0].status, want[0].detail, ans.status, ans.body)
			}
		}
		// untouched checks an answer the proxy may give (2xx): it names
		// nothing of store A.
		untouched := func(probe, path string, ans answer, statuses ...int) {
			t.Helper()
			requests++
			pairs++
			probes[probe] = true
			if ans.err != nil || !containsInt(statuses, ans.status) || (ans.status >= 400 && !isErrorFormat(ans.body)) {
				t.Errorf("%s %s [%s]: %d %v %.300s", op.method, path, probe, ans.status, ans.err, ans.body)
			}
			for _, leak := range []string{a.verifyID, a.cart, `"verified":true`} {
				if bytes.Contains(ans.body, []byte(leak)) {
					t.Errorf("%s %s [%s]: the answer carries store A's %s: %.300s", op.method, path, probe, leak, ans.body)
				}
			}
		}
		body := op.example
		sendB := func(path string, body []byte, headers ...string) answer {
			return g.send(op.method, path, op.ctype, body, headers...)
		}
		if op.auth != "public" {
			unknown := op.url("nosuchstore1", b.cart)
			switch op.auth {
			case "storefront":
				held("unknown store", unknown, sendB(unknown, body, "Origin", shopOrigin), expect{status: 404})
			default:
				held("unknown store", unknown, sendB(unknown, body, stB.WebhookHeader, hdrB), expect{status: 404})
			}
		}
		switch op.auth {
		case "storefront":
			held("no origin", own, sendB(own, body), expect{status: 403})
			held("origin not on the store's list", own, sendB(own, body, "Origin", "https://evil.example"), expect{status: 403})
			held("the store's origin over http", own, sendB(own, body, "Origin", "http://shop.example"), expect{status: 403})
			held("the store's origin with another port", own, sendB(own, body, "Origin", "https://shop.example:8443"), expect{status: 403})
			held("origin null", own, sendB(own, body, "Origin", "null"), expect{status: 403})
			for name, tok := range tokens {
				held(name, own, sendB(own, body, "Origin", shopOrigin, proxyhttp.CustomerTokenHeader, tok), expect{status: 401})
			}
			// The tenant matrix: store A's cart at store B, as a guest and
			// with B's own customer: B's answer names nothing of A's.
			other := op.url(b.hash, a.cart)
			otherBody := body
			if op.ctype != "" {
				otherBody = []byte(`{"cart_id":"` + a.cart + `"}`)
			}
			if op.login {
				// An operation only a logged-in customer may call.
				held("other store's cart", other, sendB(other, otherBody, "Origin", shopOrigin), expect{status: 401})
			} else {
				untouched("other store's cart", other, sendB(other, otherBody, "Origin", shopOrigin), op.ok, 429)
			}
			untouched("other store's cart with own customer token", other, sendB(other, otherBody, "Origin", shopOrigin,
				proxyhttp.CustomerTokenHeader, env.CustomerJWT(b.hash, b.customer+1)), op.ok, 429)
			for name, bad := range map[string]string{"cart id not a UUID": "../" + a.cart, "cart id empty": ""} {
				path, bbody := op.url(b.hash, bad), body
				if op.ctype != "" {
					path, bbody = own, []byte(`{"cart_id":"`+bad+`"}`)
				}
				held(name, path, sendB(path, bbody, "Origin", shopOrigin), expect{status: 422})
			}
		case "verifier_webhook":
			body = b.delivery // B's own delivery, so a refusal is about the probe
			fresh := env.Sign(b.hash, body, time.Now())
			held("no custom header", own, sendB(own, body, "Idgate-Signature", fresh), expect{status: 401})
			held("wrong custom header", own, sendB(own, body, stB.WebhookHeader, hdrB+"x", "Idgate-Signature", fresh), expect{status: 401})
			held("other store's custom header", own, sendB(own, body, stB.WebhookHeader, string(env.Stores[a.hash].WebhookHeaderValue), "Idgate-Signature", fresh), expect{status: 401})
			held("no signature", own, sendB(own, body, stB.WebhookHeader, hdrB), expect{status: 401})
			held("forged signature", own, sendB(own, body, stB.WebhookHeader, hdrB, "Idgate-Signature",
				fmt.Sprintf("t=%d,v1=%s", time.Now().Unix(), strings.Repeat("ab", 32))), expect{status: 401})
			held("garbage signature", own, sendB(own, body, stB.WebhookHeader, hdrB, "Idgate-Signature", "t=1,v1=zz"), expect{status: 401})
			held("stale signature (10 minutes)", own, sendB(own, body, stB.WebhookHeader, hdrB, "Idgate-Signature",
				env.Sign(b.hash, body, time.Now().Add(-10*time.Minute))), expect{status: 401})
			held("signature from the future", own, sendB(own, body, stB.WebhookHeader, hdrB, "Idgate-Signature",
				env.Sign(b.hash, body, time.Now().Add(10*time.Minute))), expect{status: 401})
			held("signed with the other store's secret", own, sendB(own, body, stB.WebhookHeader, hdrB, "Idgate-Signature",
				env.Sign(a.hash, body, time.Now())), expect{status: 401})
			tampered := bytes.Replace(body, []byte(`"over_21":true`), []byte(`"over_21":false`), 1)
			held("signature of another body", own, sendB(own, tampered, stB.WebhookHeader, hdrB, "Idgate-Signature", fresh), expect{status: 401})
			// Store A's genuine delivery, replayed at store B: with A's
			// credentials, and re-signed with B's (a reference A's).
			held("other store's delivery replayed", own, sendB(own, a.delivery, stB.WebhookHeader, string(env.Stores[a.hash].WebhookHeaderValue),
				"Idgate-Signature", a.signature), expect{status: 401})
			held("other store's reference", own, sendB(own, a.delivery, stB.WebhookHeader, hdrB,
				"Idgate-Signature", env.Sign(b.hash, a.delivery, time.Now())), expect{status: 422, detail: "invalid"})
		case "platform_webhook":
			held("no custom header", own, sendB(own, body), expect{status: 401})
			held("wrong custom header", own, sendB(own, body, stB.WebhookHeader, hdrB+"x"), expect{status: 401})
			held("other store's custom header", own, sendB(own, body, stB.WebhookHeader, string(env.Stores[a.hash].WebhookHeaderValue)), expect{status: 401})
			// Store A's order at store B: B reads its own platform, finds
			// no such order, and writes nothing.
			otherOrder := []byte(fmt.Sprintf(`{"scope":"store/order/created","data":{"type":"order","id":%d}}`, a.order))
			untouched("other store's order", own, sendB(own, otherOrder, stB.WebhookHeader, hdrB), 200, 404, 422)
		}
		if op.ctype != "" {
			// Malformed bodies reach the parser: with B's credentials (a
			// delivery signed by B's secret).
			creds := func(b []byte) []string {
				switch op.auth {
				case "storefront":
					return []string{"Origin", shopOrigin}
				case "verifier_webhook":
					return []string{stB.WebhookHeader, hdrB, "Idgate-Signature", env.Sign(storeB, b, time.Now())}
				case "platform_webhook":
					return []string{stB.WebhookHeader, hdrB}
				}
				return nil
			}
			for name, mb := range malformed {
				var want []expect
				if op.ctype == "application/json" {
					want = jsonWants[name]
				}
				ans := sendB(own, mb, creds(mb)...)
				if len(mb) > proxyhttp.MaxWebhookBody {
					// fiber answers from the length and resets the
					// connection while a client still writes: announced.
					ans = g.announce(op.method, own, op.ctype, len(mb), creds(nil)...)
				}
				held("malformed body: "+name, own, ans, want...)
			}
			held("malformed body: over the server's limit", own, g.announce(op.method, own, op.ctype, proxyhttp.MaxWebhookBody+1, creds(nil)...), expect{status: 413})
		}
	}
	for _, s := range []*shop{a, b} {
		if after := env.Doubles[s.hash].Snapshot(); !bytes.Equal(s.snapshot, after) {
			t.Errorf("store %s's platform state changed under attack:\n%s\n%s", s.hash, s.snapshot, after)
		}
		if after := s.status(t, g, env); !bytes.Equal(s.statusBody, after) {
			t.Errorf("store %s's status changed under attack:\n%s\n%s", s.hash, s.statusBody, after)
		}
	}
	names := make([]string, 0, len(probes))
	for p := range probes {
		names = append(names, p)
	}
	sort.Strings(names)
	t.Logf("probes: %s", strings.Join(names, "; "))
	verdict := "all held"
	if t.Failed() {
		verdict = "SOME FAILED (see above)"
	}
	fmt.Printf("securitytest %s: %d operations × %d probes (%d applicable pairs, %d requests), %s\n",
		t.Name(), len(ops), len(probes), pairs, requests, verdict)
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
