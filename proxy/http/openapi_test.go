package http_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
)

func init() {
	text := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	openapi3filter.RegisterBodyDecoder("text/javascript", text)
	openapi3filter.RegisterBodyDecoder("text/html", text) // the app's pages
}

// The proxy's document is a valid OpenAPI 3 document, names every route
// the app serves (and no other; the BigCommerce app's included), and every
// operation's real answers, the refusals included, match it.
func TestOpenAPIDocumentMatchesResponses(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(proxyhttp.OpenAPIDocument())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}

	env := proxytest.Start(t, proxytest.Options{OrderGuard: true})

	// Routes served ⇔ operations documented.
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	served := routes(t, env)
	for op := range served {
		if !documented[op] {
			t.Errorf("%s is served but not in the document", op)
		}
	}
	for op := range documented {
		if !served[op] {
			t.Errorf("%s is documented but not served", op)
		}
	}

	seen := map[string]bool{}
	base := env.URL // the app's routes are checked on an app world's proxy below
	check := func(method, path string, body []byte, headers ...string) int {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 resp.StatusCode, Header: resp.Header,
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		in.SetBodyBytes(b)
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			t.Errorf("%s %s → %d: %v\n%s", method, path, resp.StatusCode, err, b)
		}
		seen[method+" "+route.Path] = true
		return resp.StatusCode
	}
	want := func(status int, got int) {
		t.Helper()
		if got != status {
			t.Errorf("status %d, want %d", got, status)
		}
	}
	st := "/proxy/v1/stores/" + storeHash
	want(200, check("GET", "/healthz", nil))
	want(200, check("GET", "/openapi.json", nil))
	want(200, check("GET", proxy.ScriptURL("", storeHash, proxytest.ClientID), nil, "Accept-Encoding", "gzip"))
	want(200, check("GET", proxyhttp.WidgetPath, nil))
	want(200, check("GET", st+"/status?cart_id="+cartA, nil, "Origin", origin))
	want(403, check("GET", st+"/status?cart_id="+cartA, nil, "Origin", "https://evil.example"))
	want(404, check("GET", "/proxy/v1/stores/nosuchstore/status?cart_id="+cartA, nil, "Origin", origin))
	want(422, check("GET", st+"/status?cart_id=x", nil, "Origin", origin))
	want(200, check("GET", st+"/status?cart_id="+cartA+"&order_id=7", nil, "Origin", origin))
	want(422, check("GET", st+"/status?cart_id="+cartA+"&order_id=0", nil, "Origin", origin))
	want(401, check("GET", st+"/status?cart_id="+cartA, nil, "Origin", origin, proxyhttp.CustomerTokenHeader, "x"))
	want(201, check("POST", st+"/verifications", []byte(`{"cart_id":"`+cartA+`"}`), "Origin", origin))
	want(400, check("POST", st+"/verifications", []byte(`{"cart_id":`), "Origin", origin))
	want(422, check("POST", st+"/verifications", []byte(`{"cart_id":"x"}`), "Origin", origin))
	want(422, check("POST", st+"/verifications", []byte(`{"cart_id":"`+cartA+`","x":1}`), "Origin", origin))
	want(415, check("POST", st+"/verifications", []byte(`{}`), "Origin", origin, "Content-Type", "text/plain"))
	header := string(env.Stores[storeHash].WebhookHeaderValue)
	body := proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil)
	sig := env.Sign(storeHash, body, env.Service.Now())
	hdr := env.Stores[storeHash].WebhookHeader
	want(200, check("POST", st+"/webhook", body, hdr, header, "Idgate-Signature", sig))
	want(401, check("POST", st+"/webhook", body, hdr, header))
	want(200, check("GET", st+"/status?cart_id="+cartA, nil, "Origin", origin))
	carry := []byte(`{"cart_id":"` + cartA + `"}`)
	want(200, check("POST", st+"/carry", carry, "Origin", origin, proxyhttp.CustomerTokenHeader, env.CustomerJWT(storeHash, 5)))
	want(401, check("POST", st+"/carry", carry, "Origin", origin))
	want(422, check("POST", st+"/carry", []byte(`{"cart_id":"x"}`), "Origin", origin, proxyhttp.CustomerTokenHeader, env.CustomerJWT(storeHash, 5)))
	env.Doubles[storeHash].AddOrder(bigcommercetest.Order{ID: 7, StatusID: 11, CartID: cartA})
	order := []byte(`{"scope":"store/order/created","data":{"type":"order","id":7}}`)
	want(200, check("POST", st+"/order-webhook", order, hdr, header))
	want(401, check("POST", st+"/order-webhook", order))
	checkAppResponses(t, check, want, func(b string) { base = b })
	for op := range documented {
		if !seen[op] {
			t.Errorf("%s: no response checked against the document", op)
		}
	}
}

// checkAppResponses walks the BigCommerce app's operations on an app world
// (its control panel, stores and verifier), each answer checked against
// the document by check, which setBase points at the world's proxy.
func checkAppResponses(t *testing.T, check func(method, path string, body []byte, headers ...string) int, want func(int, int), setBase func(string)) {
	t.Helper()
	w := newAppWorld(t, 1)
	setBase(w.proxies[0])
	q, err := w.cp.Install("storea1", installer, strings.Join(bigcommerce.AppScopes, " "))
	if err != nil {
		t.Fatal(err)
	}
	want(200, check("GET", proxyhttp.AuthCallbackPath+"?"+q.Encode(), nil))
	want(401, check("GET", proxyhttp.AuthCallbackPath+"?"+q.Encode(), nil))
	q.Set("scope", "store_v2_orders")
	want(422, check("GET", proxyhttp.AuthCallbackPath+"?"+q.Encode(), nil))
	payload := w.cp.SignedPayload("storea1", installer)
	load := proxyhttp.LoadCallbackPath + "?signed_payload_jwt=" + url.QueryEscape(payload)
	want(200, check("GET", load, nil))
	want(401, check("GET", load, nil))
	want(404, check("GET", proxyhttp.LoadCallbackPath+"?signed_payload_jwt="+url.QueryEscape(w.cp.SignedPayload("storeb2", installer)), nil))
	sess := session(t, w.mustLoad(t, 0, "storea1"))
	post := func(path string, f url.Values, headers ...string) int {
		t.Helper()
		return check("POST", path, []byte(f.Encode()), append([]string{"Content-Type", "application/x-www-form-urlencoded", "Origin", w.proxies[0]}, headers...)...)
	}
	linkTo := func(password string) url.Values {
		return url.Values{"session": {sess}, "email": {merchantEmail}, "password": {password}, "key_mode": {"test"}}
	}
	const app = "/app/stores/storea1"
	want(422, post(app+"/link", linkTo("not the password")))
	want(200, post(app+"/link", linkTo(merchantPassword)))
	want(401, post(app+"/link", url.Values{"email": {merchantEmail}}))
	want(403, post(app+"/link", linkTo(merchantPassword), "Sec-Fetch-Site", "cross-site"))
	want(415, check("POST", app+"/link", []byte("x"), "Content-Type", "text/plain"))
	want(200, post(app+"/settings", settingsForm(sess)))
	bad := settingsForm(sess)
	bad.Set("min_age", "16")
	want(422, post(app+"/settings", bad))
	big := settingsForm(sess)
	big.Set("ship_to_states", strings.Repeat("x", 9<<10))
	want(413, post(app+"/settings", big))
	want(200, post(app+"/settings/open", url.Values{"session": {sess}}))
	seedOrders(t, w, "storea1")
	want(200, post(app+"/orders", url.Values{"session": {sess}}))
	want(200, post(app+"/orders/link", url.Values{"session": {sess}, "order_id": {"204"}}))
	want(422, post(app+"/orders/link", url.Values{"session": {sess}, "order_id": {"202"}}))
	want(200, post(app+"/orders/review", url.Values{"session": {sess}, "order_id": {"201"}, "decision": {"approve"}}))
	want(422, post(app+"/orders/review", url.Values{"session": {sess}, "order_id": {"201"}, "decision": {"maybe"}}))
	callback := func(path string) string {
		return path + "?signed_payload_jwt=" + url.QueryEscape(w.cp.SignedPayload("storea1", staff))
	}
	want(200, check("GET", callback(proxyhttp.RemoveUserPath), nil))
	want(401, check("GET", proxyhttp.RemoveUserPath+"?signed_payload_jwt=forged", nil))
	want(200, check("GET", callback(proxyhttp.UninstallCallbackPath), nil))
	want(404, check("GET", callback(proxyhttp.UninstallCallbackPath), nil))
	want(401, check("GET", proxyhttp.UninstallCallbackPath, nil))
	want(401, post(app+"/orders", url.Values{"session": {sess}}))
}

// routes are the app's routes as "METHOD /path/{param}", without the
// methods fiber adds (HEAD) and the CORS preflights; the BigCommerce app's
// routes included.
func routes(t *testing.T, env *proxytest.Env) map[string]bool {
	t.Helper()
	app, err := proxyhttp.New(env.Service, slog.New(slog.DiscardHandler), proxyhttp.WithApp(&proxy.App{}))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, rt := range app.GetRoutes(true) {
		if rt.Method == "HEAD" || rt.Method == "OPTIONS" || rt.Method == "CONNECT" || rt.Method == "TRACE" {
			continue
		}
		out[rt.Method+" "+strings.ReplaceAll(rt.Path, ":hash", "{hash}")] = true
	}
	if len(out) < 5 {
		names := make([]string, 0, len(out))
		for k := range out {
			names = append(names, k)
		}
		sort.Strings(names)
		t.Fatalf("routes: %v", names)
	}
	return out
}
