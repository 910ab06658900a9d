package dashboard_test

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/e2ee"
)

// status reads a verification's status and webhook status through the API.
func (e *env) status(acct *account, id string) (string, string) {
	e.t.Helper()
	var v struct {
		Status        string `json:"status"`
		WebhookStatus string `json:"webhook_status"`
	}
	e.call(acct, "GET", "/verification?id="+id, "", 200, &v)
	return v.Status, v.WebhookStatus
}

// waitWebhook waits until id's webhook status is want, moving the clock
// past the retry schedule (+5 s, +15 s) while it waits.
func (e *env) waitWebhook(acct *account, id, want string) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ws := e.status(acct, id); ws == want {
			return
		}
		if time.Now().After(deadline) {
			_, ws := e.status(acct, id)
			e.t.Fatalf("webhook of %s stays %q, want %q", id, ws, want)
		}
		e.clock.Advance(5 * time.Second)
		time.Sleep(200 * time.Millisecond)
	}
}

// Requests: the list with paging and every filter, a detail with its
// timeline, result and failed webhook deliveries, Retry, Cancel, Delete.
func TestRequestsInChromium(t *testing.T) {
	e := start(t)
	review := e.create(e.a, fmt.Sprintf(`{"external_id":"order-review","webhook_url":%q}`, e.failing.URL))
	e.toReview(review)
	e.waitWebhook(e.a, review.ID, "failed") // the failing receiver refuses three attempts
	var ids []string
	for i := 1; i <= 26; i++ {
		ids = append(ids, e.create(e.a, fmt.Sprintf(`{"external_id":"order-%02d"}`, i)).ID)
	}

	tb := newTab(t, e)
	tb.signIn(e.a)
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 25`)
	contains(t, tb.Text(), "order-26", "order-02", "Pending", "Next page")
	if strings.Contains(tb.Text(), "order-01") {
		t.Error("the first page shows the oldest request")
	}
	tb.Shoot("requests")
	tb.fitsPhone("requests")
	// At phone size the filters start folded under "Filters", so the first
	// request is on the first screen; a filter in force keeps them open.
	tb.Size(true)
	tb.page("#/requests", "Requests")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 25`)
	if !eval[bool](tb, `(() => { const r = document.querySelector("table.list tbody tr").getBoundingClientRect();
		return !document.querySelector("details.filterbox").open && r.top >= 0 && r.bottom <= innerHeight; })()`) {
		t.Errorf("at 390 px the first request is not on the first screen: %s", eval[string](tb, `JSON.stringify(document.querySelector("table.list tbody tr").getBoundingClientRect())`))
	}
	tb.Shoot("requests-filterbox") // folded at 390 px, open at 1280
	tb.Size(true)
	tb.Run(chromedp.Click(chromedp.CSS("details.filterbox summary")))
	tb.Wait(`document.querySelector("details.filterbox").open`)
	tb.Screenshot("requests-phone-filters-unfolded-390x844")
	tb.page("#/requests?status=pending", "Requests")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length > 0`)
	if !eval[bool](tb, `document.querySelector("details.filterbox").open`) || !strings.Contains(tb.Text(), "Filters (1 active)") {
		t.Error("at 390 px a filter in force does not keep the filters open and counted")
	}
	tb.Screenshot("requests-phone-filter-active-390x844")
	tb.Size(false)
	tb.page("#/requests", "Requests")
	tb.Wait(`document.querySelector("details.filterbox").open && document.querySelectorAll("table.list tbody tr").length === 25`)
	tb.click("Next page")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 2`)
	contains(t, tb.Text(), "order-01", "order-review", "Manual review", "failed", "Previous page")
	tb.click("Previous page")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 25`)

	// Filters: status, external_id, date range.
	tb.fill("Status", "manual_review")
	tb.click("Filter")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 1 && document.body.innerText.includes("order-review")`)
	tb.page("#/requests?external_id=order-07", "Requests")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 1 && document.body.innerText.includes("order-07")`)
	// The day the requests were made, in the browser's time zone (the
	// test's): the date inputs are local days.
	var made struct {
		CreatedAt time.Time `json:"created_at"`
	}
	e.call(e.a, "GET", "/verification?id="+ids[10], "", 200, &made)
	today := made.CreatedAt.Local().Format("2006-01-02")
	yesterday := made.CreatedAt.Local().AddDate(0, 0, -1).Format("2006-01-02")
	tb.page("#/requests?to="+yesterday, "Requests")
	tb.WaitText("No requests match.")
	tb.page("#/requests?from="+today+"&to="+today+"&external_id=order-11", "Requests")
	tb.Wait(`document.querySelectorAll("table.list tbody tr").length === 1`)
	tb.Shoot("requests-filtered")

	// The detail of the request in review: timeline, result, the failed
	// delivery with its three attempts, and Retry.
	tb.page("#/requests/"+review.ID, "Request order-review")
	contains(t, tb.Text(), "Created", "Started", "Sent to review", "Face match tier", "no match", "Undetermined",
		"Delivery 1", "failed", "500", "Retry webhook", "Review")
	if n := eval[int](tb, `document.querySelectorAll(".attempts tbody tr").length`); n != 3 {
		t.Errorf("%d attempts shown, want 3", n)
	}
	tb.Shoot("request-detail")
	tb.fitsPhone("request detail")
	tb.click("Retry webhook")
	e.waitWebhook(e.a, review.ID, "delivered")
	tb.page("#/requests/"+review.ID, "Request order-review")
	tb.WaitText("Delivery 2", "delivered")
	if n := len(e.failing.Requests()); n != 4 {
		t.Errorf("the receiver got %d requests, want 3 failed attempts and the retry", n)
	}

	// Cancel asks first, in the page.
	tb.page("#/requests/"+ids[2], "Request order-03")
	tb.click("Cancel")
	tb.WaitText("Cancel this request?")
	tb.Shoot("request-confirm")
	tb.click("Yes, cancel")
	tb.WaitText("Canceled")
	if st, _ := e.status(e.a, ids[2]); st != "canceled" {
		t.Fatalf("after Cancel: %s", st)
	}
	// Delete: gone from the API, back to the list.
	tb.page("#/requests/"+ids[3], "Request order-04")
	tb.click("Delete")
	tb.click("Yes, delete")
	tb.Wait(`location.hash === "#/requests" && !!document.querySelector("table.list")`)
	e.call(e.a, "GET", "/verification?id="+ids[3], "", 404, nil)
	tb.sameOrigin()
}

// The review queue: a verification in manual_review (through the real
// flow) approved with a reason, and the webhook that follows; one sealed
// to the account's own key shows the unlock placeholder; then its
// personal data is purged from Requests.
func TestReviewInChromium(t *testing.T) {
	e := start(t)
	plain := e.create(e.a, fmt.Sprintf(`{"external_id":"order-plain","webhook_url":%q}`, e.hooks.URL))
	e.toReview(plain)
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	body, _ := json.Marshal(map[string]any{"external_id": "order-sealed", "requested_fields": []string{"dob"}, "encryption_key_mode": "custom",
		"encryption_key": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	sealed := e.create(e.a, string(body))
	e.toReview(sealed)
	e.hooks.Wait(t, 1, 10*time.Second) // the delivery on entering manual_review

	tb := newTab(t, e)
	tb.signIn(e.a)
	tb.goToPage("#/review", "Review queue")
	tb.WaitText("2 waiting.")
	order := eval[string](tb, `[...document.querySelectorAll("table.list tbody tr .ext")].map(td => td.innerText).join(",")`)
	if order != "order-plain,order-sealed" {
		t.Errorf("queue order %q, want the one waiting longest first", order)
	}
	tb.Shoot("review-queue")

	tb.click("Review") // the first: order-plain
	tb.WaitText("Review order-plain", "Face match", "no match")
	tb.Wait(`[...document.querySelectorAll(".pair img")].filter(i => i.complete && i.naturalWidth > 0).length === 2`)
	tb.Shoot("review")
	tb.fitsPhone("review")
	tb.fill("Reason (optional)", "Same person; the license photo is ten years old")
	tb.click("Approve: same person")
	tb.WaitText("Approved", "Next in the queue")
	tb.Shoot("review-approved")

	// The webhook: a second delivery with the verdict and the reason,
	// signed with the account's secret, the same bytes as GET.
	e.hooks.Wait(t, 2, 10*time.Second)
	var last []byte
	for _, r := range e.hooks.Requests() {
		if bytes.Contains(r.Body, []byte(plain.ID)) {
			if err := client.VerifySignature([]byte(e.a.secret), r.Header.Get("Idgate-Signature"), r.Body, e.clock.Now(), 0); err != nil {
				t.Errorf("delivery signature: %v", err)
			}
			last = r.Body
		}
	}
	var got struct {
		Verification map[string]any `json:"verification"`
	}
	if err := json.Unmarshal(last, &got); err != nil || got.Verification["webcam_face_matches_license_photo"] != true ||
		got.Verification["review_reason"] != "Same person; the license photo is ten years old" || got.Verification["manual_review_requested"] != true {
		t.Fatalf("the decision's webhook: %s", last)
	}
	var v struct {
		Status string          `json:"status"`
		Result json.RawMessage `json:"result"`
	}
	e.call(e.a, "GET", "/verification?id="+plain.ID, "", 200, &v)
	if v.Status != "completed" || !bytes.Equal(v.Result, last) {
		t.Errorf("after approval: %s, result equals the webhook: %v", v.Status, bytes.Equal(v.Result, last))
	}

	// The sealed one: images sealed to the account's key wait for it; the
	// private key file opens the first in the page, and the second with the
	// key remembered.
	tb.click("Next in the queue")
	tb.WaitText("Review order-sealed", "Encrypted to your key")
	if n := eval[int](tb, `document.querySelectorAll(".pair .sealed").length`); n != 2 {
		t.Errorf("%d sealed panels, want the license photo and the selfie", n)
	}
	tb.Shoot("review-sealed")
	keyFile := filepath.Join(t.TempDir(), "ops.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv)}), 0o600); err != nil {
		t.Fatal(err)
	}
	tb.Run(chromedp.SetUploadFiles(`.pair .sealed input[type=file]`, []string{keyFile}), chromedp.Click(`.pair .sealed button[type=submit]`))
	tb.Wait(`[...document.querySelectorAll(".pair img")].filter(i => i.complete && i.naturalWidth > 0).length === 2`)
	tb.Shoot("review-sealed-opened")
	tb.page("#/requests/"+sealed.ID, "Request order-sealed")
	tb.WaitText("Encrypted to your key", "license data")

	// Purge from Requests: the decided one's personal data goes.
	tb.page("#/requests/"+plain.ID, "Request order-plain")
	contains(t, tb.Text(), "Reviewer's reason", "Same person; the license photo is ten years old")
	tb.click("Purge personal data")
	tb.click("Yes, purge personal data")
	tb.WaitText("Personal data purged")
	tb.sameOrigin()
	e.call(e.a, "GET", "/verification/review/image?id="+plain.ID+"&kind=selfie", "", 404, nil)
}

// passphraseKey uploads the public part of a passphrase key, as `idgate
// keys passphrase create` does.
func (e *env) passphraseKey(acct *account, name string) string {
	e.t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		e.t.Fatal(err)
	}
	kdf, err := e2ee.DefaultKDFParams()
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ := json.Marshal(e2ee.PassphraseKey{Name: name, PublicKey: priv.PublicKey().Bytes(), KDF: kdf})
	var k struct {
		ID string `json:"id"`
	}
	e.call(acct, "POST", "/passphrase-keys", string(b), 201, &k)
	return k.ID
}

// Templates: create with every kind of field, a refused value explained,
// edit, delete.
func TestTemplatesInChromium(t *testing.T) {
	testkit.TakesTurns(t, 2)
	e := start(t)
	key := e.passphraseKey(e.a, "Compliance team")
	tb := newTab(t, e)
	tb.signIn(e.a)
	tb.goToPage("#/templates", "Templates")
	tb.WaitText("No templates yet.")
	tb.click("New template")
	tb.Wait(`!!document.querySelector("form.template")`)
	tb.fill("Name", "Age 21+ with ID")
	tb.fill("Message to the end user", "Verify your age for order pickup")
	tb.fill("Link lifetime (days)", "7")
	tb.fill("first names", "on")
	tb.fill("dob", "on")
	tb.fill("Include the license headshot", "on")
	tb.fill("Encryption", "passphrase")
	tb.fill("Passphrase key", key)
	tb.fill("Webhook URL", "http://shop.example.com/hooks/idgate")
	tb.fill("Webhook headers", "X-Shop: 42")
	tb.fill("Require a Reference ID", "on")
	contains(t, tb.Text(), "Request Rules are guidance", "does not enforce them")
	tb.Shoot("template-new")
	tb.fitsPhone("new template")
	tb.click("Create template")
	tb.WaitText("The template was not saved", "https")
	tb.Shoot("template-refused")
	tb.fill("Webhook URL", "https://shop.example.com/hooks/idgate")
	tb.click("Create template")
	tb.WaitText("Template created")
	id := strings.TrimPrefix(eval[string](tb, `location.hash.split("?")[0]`), "#/templates/")
	var got map[string]any
	e.call(e.a, "GET", "/templates/"+id, "", 200, &got)
	want := map[string]any{"name": "Age 21+ with ID", "message": "Verify your age for order pickup", "lifetime_days": 7.0,
		"include_license_photo": true, "encryption_key_mode": "passphrase", "encryption_key": key, "webhook_url": "https://shop.example.com/hooks/idgate"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("template %s = %v, want %v", k, got[k], v)
		}
	}
	if fmt.Sprint(got["requested_fields"]) != "[first_names dob]" || fmt.Sprint(got["webhook_headers"]) != "map[X-Shop:42]" ||
		fmt.Sprint(got["rules"]) != "map[require_external_id:true require_message_change:false]" {
		t.Errorf("template %v", got)
	}
	tb.Shoot("template-edit")

	tb.fill("Name", "Age 21+")
	tb.fill("dob", "off")
	tb.click("Save changes")
	tb.WaitText("Saved.")
	e.call(e.a, "GET", "/templates/"+id, "", 200, &got)
	if got["name"] != "Age 21+" || fmt.Sprint(got["requested_fields"]) != "[first_names]" {
		t.Errorf("after the edit: %v", got)
	}
	tb.goToPage("#/templates", "Templates")
	tb.WaitText("Age 21+", "first names", "passphrase")
	tb.Shoot("templates")
	tb.click("Age 21+")
	tb.Wait(`!!document.querySelector("form.template")`)
	tb.click("Delete template")
	tb.click("Yes, delete “Age 21+”")
	tb.WaitText("No templates yet.")
	e.call(e.a, "GET", "/templates/"+id, "", 404, nil)
	tb.sameOrigin()
}

// Account B's ids in account A's session are not found, on every page.
func TestTenantIsolationInChromium(t *testing.T) {
	e := start(t)
	theirs := e.create(e.b, `{"external_id":"their-order"}`)
	var tmpl struct {
		ID string `json:"id"`
	}
	e.call(e.b, "POST", "/templates", `{"name":"Their template"}`, 201, &tmpl)
	e.create(e.a, `{"external_id":"our-order"}`)
	tb := newTab(t, e)
	tb.signIn(e.a)
	tb.WaitText("our-order")
	if strings.Contains(tb.Text(), "their-order") {
		t.Fatal("A's list shows B's request")
	}
	for _, p := range []struct{ fragment, heading string }{
		{"#/requests/" + theirs.ID, "Request"},
		{"#/review/" + theirs.ID, "Review"},
		{"#/templates/" + tmpl.ID, "Edit template"},
	} {
		tb.page(p.fragment, p.heading)
		tb.WaitText("Not found in this account.")
		if strings.Contains(tb.Text(), "their-order") || strings.Contains(tb.Text(), "Their template") {
			t.Errorf("%s shows B's data:\n%s", p.fragment, tb.Text())
		}
	}
	tb.Shoot("not-found")
	for _, path := range []string{"/verification?id=" + theirs.ID, "/verification/webhook/deliveries?id=" + theirs.ID,
		"/verification/review/image?kind=selfie&id=" + theirs.ID, "/templates/" + tmpl.ID} {
		if s := eval[int](tb, fmt.Sprintf(`fetch(%q, {headers: {"Idgate-Mode": "live"}}).then(r => r.status)`, path)); s != 404 {
			t.Errorf("GET %s in A's session: %d, want 404", path, s)
		}
	}
	// And a state change with A's CSRF token on B's id: 404, nothing done.
	if s := eval[int](tb, fmt.Sprintf(`fetch("/dashboard/session").then(r => r.json()).then(s => fetch("/verification/cancel?id=%s", {method: "POST", headers: {"X-CSRF-Token": s.csrf_token, "Idgate-Mode": s.mode}})).then(r => r.status)`, theirs.ID)); s != 404 {
		t.Errorf("cancel of B's request in A's session: %d", s)
	}
	if st, _ := e.status(e.b, theirs.ID); st != "pending" {
		t.Errorf("B's request is %s", st)
	}
}
