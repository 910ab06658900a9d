package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/rulesets"
	"github.com/idgate/idgate/verifier"
)

// seedOrders puts orders and the records the order guard writes on them
// into store hash's double, through the Management API client: one order
// in each state the orders page shows, and one the guard never saw.
func seedOrders(t *testing.T, w *appWorld, hash string) {
	t.Helper()
	d := w.doubles[hash]
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: hash, Token: bigcommerce.Secret("token-" + hash), BaseURL: d.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	held, awaiting, pending := bigcommerce.StatusManualVerificationRequired, 11, 1
	for _, o := range []struct {
		id     int64
		status int
		out    *bigcommerce.Outcome
	}{
		{201, held, &bigcommerce.Outcome{Status: "none", Reasons: []rulesets.Reason{{Code: "not_verified"}}, EvaluatedAt: at, HeldFrom: awaiting}},
		{202, awaiting, &bigcommerce.Outcome{Status: "completed", Pass: true, EvaluatedAt: at, ExpiresAt: at.Add(time.Hour), Test: true}},
		{203, held, &bigcommerce.Outcome{Status: "completed", Reasons: []rulesets.Reason{{Code: rulesets.CodeUnder21, Field: "date_of_birth"}, {Code: "new_code_of_a_later_verifier"}}, EvaluatedAt: at, HeldFrom: pending}},
		{204, held, &bigcommerce.Outcome{Status: "manual_review", Reasons: []rulesets.Reason{{Code: rulesets.CodeFaceMatchUndetermined}}, EvaluatedAt: at}},
		{205, awaiting, &bigcommerce.Outcome{Status: "completed", Reasons: []rulesets.Reason{{Code: rulesets.CodeLicenseExpired}}, EvaluatedAt: at,
			Review: &bigcommerce.Review{Approved: true, UserID: 7, At: at.Add(time.Minute)}}},
		{206, awaiting, nil},
	} {
		d.AddOrder(bigcommercetest.Order{ID: o.id, StatusID: o.status, CartID: cartOf(hash, o.id)})
		if o.out != nil {
			if err := c.SaveOutcome(context.Background(), bigcommerce.Order(o.id), *o.out); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// cartOf is the cart seedOrders placed order id of store hash from: each
// store's and each order's its own.
func cartOf(hash string, id int64) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(fmt.Sprintf("cart/%s/%d", hash, id))).String()
}

// orderRecord reads the record on an order in the double.
func orderRecord(t *testing.T, d *bigcommercetest.Double, id string) bigcommerce.Outcome {
	t.Helper()
	return record(t, d, "order", id)
}

// record is our outcome on a resource of the double ("cart", "customer",
// "order"), which must have exactly one.
func record(t *testing.T, d *bigcommercetest.Double, kind, id string) bigcommerce.Outcome {
	t.Helper()
	mf := d.Metafields(kind, id)
	if len(mf) != 1 {
		t.Fatalf("%s %s metafields %+v", kind, id, mf)
	}
	var o bigcommerce.Outcome
	if err := json.Unmarshal([]byte(mf[0].Value), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// The orders page lists every order the guard recorded, in its state
// (waiting, passed, failed with the reasons, reviewed), under the settings
// page's rules (framed by the control panel only, no script, not cached,
// posted with the session from its own page); approving and rejecting by
// hand are recorded on the order with who and when and move the order.
// The double checks every request against BigCommerce's documents.
func TestAppOrdersPage(t *testing.T) {
	w := newAppWorld(t, 1)
	sess := session(t, w.mustInstall(t, 0, "storea1"))
	w.link(t, 0, "storea1", sess, "test")
	if code, _ := w.post(t, 0, "storea1", settingsForm(sess)); code != http.StatusOK {
		t.Fatal("save")
	}
	seedOrders(t, w, "storea1")
	d := w.doubles["storea1"]
	const orders, review = "/app/stores/storea1/orders", "/app/stores/storea1/orders/review"

	code, h, page := w.submit(t, 0, orders, url.Values{"session": {sess}}, nil)
	if code != http.StatusOK {
		t.Fatalf("orders page: %d %s", code, page)
	}
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors https://cp-storea1.example") || strings.Contains(csp, "script-src") || h.Get("Cache-Control") != "no-store" {
		t.Errorf("orders page CSP %q, Cache-Control %q", csp, h.Get("Cache-Control"))
	}
	for _, want := range []string{
		"<strong>Waiting</strong> for the shopper",                                                                                          // 201, and 204 in the verifier's review
		"<strong>Passed</strong>, 29 Nov 2026 06:00 UTC (a test)",                                                                           // 202
		"<strong>Failed</strong>: the shopper is under 21; new code of a later verifier",                                                    // 203
		"<strong>Approved by hand</strong> by control panel user 7, 29 Nov 2026 06:01 UTC. The verification had failed: the ID has expired", // 205
		`aria-label="Approve order 203"`, `aria-label="Reject order 203"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("orders page lacks %q", want)
		}
	}
	if strings.Count(page, "<strong>Waiting</strong>") != 2 || strings.Contains(page, "#206") {
		t.Errorf("want 201 and 204 waiting, 206 (never guarded) absent:\n%s", page)
	}
	if i201, i205 := strings.Index(page, "#201"), strings.Index(page, "#205"); i205 < 0 || i201 < i205 {
		t.Error("want newest first")
	}

	// Approve the failed 203: back to the status it was held from.
	decide := func(id, decision string) (int, string) {
		code, _, page := w.submit(t, 0, review, url.Values{"session": {sess}, "order_id": {id}, "decision": {decision}}, nil)
		return code, page
	}
	before := time.Now().UTC().Add(-time.Second)
	if code, page := decide("203", "approve"); code != http.StatusOK || !strings.Contains(page, "Order 203 approved") ||
		!strings.Contains(page, "<strong>Approved by hand</strong> by control panel user 1") {
		t.Fatalf("approve 203: %d %s", code, page)
	}
	if o, _ := d.Order(203); o.StatusID != 1 {
		t.Errorf("approved 203 is in status %d, want 1 (held from)", o.StatusID)
	}
	rec := orderRecord(t, d, "203")
	if r := rec.Review; r == nil || !r.Approved || r.UserID != installer.ID || r.At.Before(before) || len(rec.Reasons) != 2 {
		t.Errorf("203's record %+v review %+v", rec, r)
	}
	// Approve 204, held with no status recorded: Awaiting Fulfillment.
	if code, _ := decide("204", "approve"); code != http.StatusOK {
		t.Fatal("approve 204")
	}
	if o, _ := d.Order(204); o.StatusID != 11 {
		t.Errorf("approved 204 is in status %d, want 11", o.StatusID)
	}
	// Reject the passed 202: it is held.
	if code, page := decide("202", "reject"); code != http.StatusOK || !strings.Contains(page, "Order 202 rejected") {
		t.Fatalf("reject 202: %d %s", code, page)
	}
	if o, _ := d.Order(202); o.StatusID != bigcommerce.StatusManualVerificationRequired {
		t.Errorf("rejected 202 is in status %d, want held", o.StatusID)
	}
	if r := orderRecord(t, d, "202").Review; r == nil || r.Approved || r.UserID != installer.ID {
		t.Errorf("202's review %+v", r)
	}
	// With a release status chosen on the settings page, an approved
	// order goes there, not back where it was held from (201: 11).
	chosen := settingsForm(sess)
	chosen.Set("release_status", "9")
	if code, _ := w.post(t, 0, "storea1", chosen); code != http.StatusOK {
		t.Fatal("choose Awaiting Shipment")
	}
	if code, _ := decide("201", "approve"); code != http.StatusOK {
		t.Fatal("approve 201")
	}
	if o, _ := d.Order(201); o.StatusID != 9 {
		t.Errorf("approved 201 is in status %d, want 9 (the store's choice)", o.StatusID)
	}

	// Refusals: nothing written.
	snap := d.Snapshot()
	for name, c := range map[string]struct {
		form   url.Values
		header map[string]string
		path   string
		want   int
		text   string
	}{
		"never guarded":   {url.Values{"session": {sess}, "order_id": {"206"}, "decision": {"approve"}}, nil, review, 422, "order 206 did not need verification"},
		"no such order":   {url.Values{"session": {sess}, "order_id": {"999"}, "decision": {"approve"}}, nil, review, 422, "order 999 did not need verification"},
		"not a number":    {url.Values{"session": {sess}, "order_id": {"../1"}, "decision": {"approve"}}, nil, review, 422, "no such order"},
		"no decision":     {url.Values{"session": {sess}, "order_id": {"201"}, "decision": {"maybe"}}, nil, review, 422, "choose approve or reject"},
		"no session":      {url.Values{"order_id": {"201"}, "decision": {"approve"}}, nil, review, 401, "open the app again"},
		"forged session":  {url.Values{"session": {sess + "x"}}, nil, orders, 401, "open the app again"},
		"cross-site post": {url.Values{"session": {sess}, "order_id": {"201"}, "decision": {"approve"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, review, 403, "own pages only"},
		"foreign origin":  {url.Values{"session": {sess}}, map[string]string{"Origin": "https://evil.example"}, orders, 403, "own pages only"},
		"not a form":      {url.Values{"session": {sess}}, map[string]string{"Content-Type": "application/json"}, orders, 415, "send the form"},
	} {
		code, _, body := w.submit(t, 0, c.path, c.form, c.header)
		if code != c.want || !strings.Contains(body, c.text) {
			t.Errorf("%s: %d %s, want %d with %q", name, code, body, c.want, c.text)
		}
	}
	if string(d.Snapshot()) != string(snap) {
		t.Error("a refused request wrote to the store")
	}

	// Store B's session opens neither A's list nor A's orders; B's own
	// list is empty. The settings page is reached back from the list.
	sessB := session(t, w.mustInstall(t, 0, "storeb2"))
	if code, _, _ := w.submit(t, 0, orders, url.Values{"session": {sessB}}, nil); code != http.StatusUnauthorized {
		t.Errorf("store b's session on a's orders: %d", code)
	}
	if code, _, _ := w.submit(t, 0, review, url.Values{"session": {sessB}, "order_id": {"201"}, "decision": {"approve"}}, nil); code != http.StatusUnauthorized {
		t.Errorf("store b's session reviewing a's order: %d", code)
	}
	if code, _, page := w.submit(t, 0, "/app/stores/storeb2/orders", url.Values{"session": {sessB}}, nil); code != http.StatusOK || !strings.Contains(page, "No order has needed verification yet") {
		t.Errorf("store b's orders: %d %s", code, page)
	}
	if code, _, page := w.submit(t, 0, "/app/stores/storea1/settings/open", url.Values{"session": {sess}}, nil); code != http.StatusOK || !strings.Contains(page, "Save settings") {
		t.Errorf("back to settings: %d", code)
	}
}

// The merchant's "resend the link": for a waiting order the orders page
// makes a verification link of that order's own cart, with the store's
// key, for the merchant to send; passed, failed and reviewed orders get
// none, and another store's session or order number gets nothing of this
// store's. The page stays server-rendered and posted with the session.
func TestAppOrdersPageVerificationLink(t *testing.T) {
	w := newAppWorld(t, 1)
	sessA := session(t, w.mustInstall(t, 0, "storea1"))
	w.link(t, 0, "storea1", sessA, "test")
	sessB := session(t, w.mustInstall(t, 0, "storeb2"))
	w.link(t, 0, "storeb2", sessB, "test") // the same account: both stores take the new test key
	seedOrders(t, w, "storea1")
	seedOrders(t, w, "storeb2") // B has orders of the same numbers, of its own carts
	const linkA, linkB = "/app/stores/storea1/orders/link", "/app/stores/storeb2/orders/link"
	field := regexp.MustCompile(`<input type="text" id="shopper-link" readonly value="([^"]+)">`)
	// newest is the verification the last link made, and the shopper its
	// reference names in store hash (an error if it is not that store's).
	newest := func(hash string) (verifier.Verification, proxy.Shopper, error) {
		t.Helper()
		page, err := w.verifier.Store.ListVerifications(context.Background(), w.account.ID, verifier.VerificationFilter{Mode: verifier.ModeTest, Limit: 1})
		if err != nil || len(page.Items) == 0 {
			t.Fatalf("the verifier's verifications: %v %d", err, len(page.Items))
		}
		sh, err := proxy.OpenRef(w.key, hash, page.Items[0].ExternalID)
		return page.Items[0], sh, err
	}

	code, _, page := w.submit(t, 0, "/app/stores/storea1/orders", url.Values{"session": {sessA}}, nil)
	if code != http.StatusOK {
		t.Fatalf("orders page: %d", code)
	}
	for id, offered := range map[string]bool{"201": true, "204": true, "202": false, "203": false, "205": false} {
		if got := strings.Contains(page, `aria-label="Verification link for order `+id+`"`); got != offered {
			t.Errorf("order %s offers a link: %v, want %v", id, got, offered)
		}
	}

	// A's waiting 201: a link of A's cart of 201, made with A's webhook.
	code, h, page := w.submit(t, 0, linkA, url.Values{"session": {sessA}, "order_id": {"201"}}, nil)
	m := field.FindStringSubmatch(page)
	if code != http.StatusOK || m == nil || !strings.HasPrefix(m[1], w.verifier.URL+"/") ||
		!strings.Contains(page, "Verification link for order #201 (a test link: the store is in test mode)") {
		t.Fatalf("link for 201: %d %s", code, page)
	}
	if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "script-src") || h.Get("Cache-Control") != "no-store" {
		t.Errorf("link page CSP %q, Cache-Control %q", csp, h.Get("Cache-Control"))
	}
	v, sh, err := newest("storea1")
	if err != nil || sh.CartID != cartOf("storea1", 201) || sh.CustomerID != 0 || v.Mode != verifier.ModeTest ||
		v.WebhookURL != appPublicURL+proxy.WebhookPath("storea1") {
		t.Fatalf("201's link: %v shopper %+v, mode %v, webhook %s", err, sh, v.Mode, v.WebhookURL)
	}
	if _, err := proxy.OpenRef(w.key, "storeb2", v.ExternalID); err == nil {
		t.Error("A's link opens as store B's")
	}

	// B's session asking for 201 gets B's own order's cart, never A's.
	if code, _, page := w.submit(t, 0, linkB, url.Values{"session": {sessB}, "order_id": {"201"}}, nil); code != http.StatusOK || field.FindStringSubmatch(page) == nil {
		t.Fatalf("store b's link for its 201: %d %s", code, page)
	}
	if _, sh, err := newest("storeb2"); err != nil || sh.CartID != cartOf("storeb2", 201) {
		t.Fatalf("store b's 201 link: %v %+v, want b's cart", err, sh)
	}

	// Refusals: nothing made.
	made := func() int {
		page, err := w.verifier.Store.ListVerifications(context.Background(), w.account.ID, verifier.VerificationFilter{Mode: verifier.ModeTest, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(page.Items)
	}
	before := made()
	d := w.doubles["storea1"]
	d.AddOrder(bigcommercetest.Order{ID: 207, StatusID: 11, CartID: cartOf("storea1", 207)}) // A's only
	for name, c := range map[string]struct {
		form   url.Values
		header map[string]string
		path   string
		want   int
		text   string
	}{
		"passed":           {url.Values{"session": {sessA}, "order_id": {"202"}}, nil, linkA, 422, "order 202 is passed: no link to send"},
		"failed":           {url.Values{"session": {sessA}, "order_id": {"203"}}, nil, linkA, 422, "order 203 is failed: no link to send"},
		"reviewed":         {url.Values{"session": {sessA}, "order_id": {"205"}}, nil, linkA, 422, "order 205 is reviewed: no link to send"},
		"never guarded":    {url.Values{"session": {sessA}, "order_id": {"206"}}, nil, linkA, 422, "order 206 did not need verification"},
		"not a number":     {url.Values{"session": {sessA}, "order_id": {"x"}}, nil, linkA, 422, "no such order"},
		"b asks a's order": {url.Values{"session": {sessB}, "order_id": {"207"}}, nil, linkB, 422, "order 207 did not need verification"},
		"b's session on a": {url.Values{"session": {sessB}, "order_id": {"201"}}, nil, linkA, 401, "open the app again"},
		"no session":       {url.Values{"order_id": {"201"}}, nil, linkA, 401, "open the app again"},
		"cross-site post":  {url.Values{"session": {sessA}, "order_id": {"201"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, linkA, 403, "own pages only"},
		"foreign origin":   {url.Values{"session": {sessA}, "order_id": {"201"}}, map[string]string{"Origin": "https://evil.example"}, linkA, 403, "own pages only"},
	} {
		code, _, body := w.submit(t, 0, c.path, c.form, c.header)
		if code != c.want || !strings.Contains(body, c.text) || field.MatchString(body) {
			t.Errorf("%s: %d %s, want %d with %q and no link", name, code, body, c.want, c.text)
		}
	}
	// 204 waits in the verifier's manual review but was placed without a
	// storefront cart (as an order made in the control panel is).
	d.AddOrder(bigcommercetest.Order{ID: 204, StatusID: bigcommerce.StatusManualVerificationRequired})
	if code, _, body := w.submit(t, 0, linkA, url.Values{"session": {sessA}, "order_id": {"204"}}, nil); code != 422 || !strings.Contains(body, "was not placed from a storefront cart") {
		t.Errorf("cartless 204: %d %s", code, body)
	}
	if n := made(); n != before {
		t.Errorf("refused requests made %d verifications", n-before)
	}

	// Each link counts as a start of the cart: 5 an hour, as the shopper's.
	for i := 2; i <= 5; i++ {
		if code, _, _ := w.submit(t, 0, linkA, url.Values{"session": {sessA}, "order_id": {"201"}}, nil); code != http.StatusOK {
			t.Fatalf("link %d: %d", i, code)
		}
	}
	if code, _, body := w.submit(t, 0, linkA, url.Values{"session": {sessA}, "order_id": {"201"}}, nil); code != http.StatusTooManyRequests || !strings.Contains(body, "5 verifications started in the last hour") {
		t.Errorf("sixth link: %d %s", code, body)
	}
}
