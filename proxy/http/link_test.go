package http_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/verifierapi"
)

var jwtShape = regexp.MustCompile(`eyJ[\w-]+\.eyJ[\w-]+\.`)

// "Create the integration key" on the settings page, against a real
// verifier on loopback: the merchant's e-mail and password sign in (a wrong
// password is shown on the page and links nothing), the key is made for the
// storefront's host and works from it, the account's webhook secret is the
// store's, and neither the password, the secret nor the account's bearer
// token is ever on a page. A second store of the account takes the key
// made for it (the first store's is revoked, so it gets the new one), and
// shares the secret without rotating it; a live key turns test mode off.
func TestAppLinksTheVerifierAccount(t *testing.T) {
	w := newAppWorld(t, 1)
	ctx := context.Background()
	pageA := w.mustInstall(t, 0, "storea1")
	if !strings.Contains(pageA, "Create the integration key") || strings.Contains(pageA, "idgk_") {
		t.Fatalf("unlinked page:\n%s", pageA)
	}
	sessA := session(t, pageA)
	form := func(sess, password, mode string) url.Values {
		return url.Values{"session": {sess}, "email": {merchantEmail}, "password": {password}, "key_mode": {mode}}
	}
	code, _, page := w.submit(t, 0, "/app/stores/storea1/link", form(sessA, "not the password", "test"), nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, "Not linked: idgate did not accept that e-mail and password") ||
		strings.Contains(page, "not the password") || !strings.Contains(page, `value="`+merchantEmail+`"`) {
		t.Fatalf("wrong password: %d %s", code, page)
	}
	if code, _, page := w.submit(t, 0, "/app/stores/storea1/link", form(sessA, merchantPassword, "both"), nil); code != http.StatusUnprocessableEntity || !strings.Contains(page, "Not linked: choose the test or the live key") {
		t.Errorf("no key chosen: %d %s", code, page)
	}
	if code, _, _ := w.submit(t, 0, "/app/stores/storea1/link", form("", merchantPassword, "test"), nil); code != http.StatusUnauthorized {
		t.Errorf("no session: %d, want 401", code)
	}
	if code, st := appStatus(t, w, 0, "storea1"); code != http.StatusOK || st.Active {
		t.Fatalf("refused links linked the store: %d %+v", code, st)
	}

	page = w.link(t, 0, "storea1", sessA, "test")
	a, err := w.registry.Store(ctx, "storea1")
	if err != nil {
		t.Fatal(err)
	}
	if !a.Linked() || !a.TestMode || !strings.HasPrefix(a.IntegrationKey, "idgk_test_") ||
		a.VerifierAccountID != w.account.ID || a.VerifierAccountEmail != merchantEmail {
		t.Fatalf("linked store %+v", a)
	}
	if !strings.Contains(page, a.IntegrationKey) || !strings.Contains(page, "store-storea1.mybigcommerce.com") {
		t.Errorf("the page does not show the key made and its host:\n%s", page)
	}
	for _, secret := range []string{merchantPassword, string(a.WebhookSecret), "Bearer"} {
		if strings.Contains(page, secret) {
			t.Errorf("the page shows %q", secret)
		}
	}
	if jwtShape.MatchString(page) {
		t.Error("the page shows a token (the account's access token is a JWT)")
	}
	secrets, err := w.verifier.Secrets.SigningSecrets(ctx, w.account.ID)
	if err != nil || len(secrets) == 0 || string(secrets[0]) != string(a.WebhookSecret) {
		t.Fatalf("the store's webhook secret is not the account's current one (%v)", err)
	}
	if code, st := appStatus(t, w, 0, "storea1"); code != http.StatusOK || !st.Active {
		t.Fatalf("linked store's status: %d %+v", code, st)
	}
	create := func(key, origin string) error {
		c, err := verifierapi.New(w.verifier.URL, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CreateVerification(ctx, proxy.CreateRequest{IntegrationKey: key, Origin: origin, ExternalID: "link-test",
			WebhookURL: appPublicURL + "/proxy/v1/stores/storea1/webhook"})
		return err
	}
	if err := create(a.IntegrationKey, "https://store-storea1.mybigcommerce.com"); err != nil {
		t.Fatalf("the key made for the storefront does not create there: %v", err)
	}
	var refused *verifierapi.RefusedError
	if err := create(a.IntegrationKey, "https://evil.example"); !errors.As(err, &refused) || refused.Code != "ORIGIN_NOT_ALLOWED" {
		t.Errorf("the key from another origin: %v, want ORIGIN_NOT_ALLOWED", err)
	}

	// A second store of the same account.
	sessB := session(t, w.mustInstall(t, 0, "storeb2"))
	w.link(t, 0, "storeb2", sessB, "test")
	a2, _ := w.registry.Store(ctx, "storea1")
	b, _ := w.registry.Store(ctx, "storeb2")
	if b.IntegrationKey == a.IntegrationKey || a2.IntegrationKey != b.IntegrationKey {
		t.Errorf("keys: a %s then %s, b %s; want a new key held by both", a.IntegrationKey, a2.IntegrationKey, b.IntegrationKey)
	}
	if b.WebhookSecret != a.WebhookSecret || a2.WebhookSecret != a.WebhookSecret {
		t.Error("the second store rotated the account's webhook secret, or holds another")
	}
	if err := create(a.IntegrationKey, "https://store-storea1.mybigcommerce.com"); err == nil {
		t.Error("the revoked key still creates")
	}
	for _, origin := range []string{"https://store-storea1.mybigcommerce.com", "https://store-storeb2.mybigcommerce.com"} {
		if err := create(b.IntegrationKey, origin); err != nil {
			t.Errorf("the new key from %s: %v (both stores' hosts stay allowed)", origin, err)
		}
	}

	// Going live: the live key, test mode off; the test store keeps its key.
	w.link(t, 0, "storea1", sessA, "live")
	a3, _ := w.registry.Store(ctx, "storea1")
	b2, _ := w.registry.Store(ctx, "storeb2")
	if a3.TestMode || !strings.HasPrefix(a3.IntegrationKey, "idgk_") || strings.HasPrefix(a3.IntegrationKey, "idgk_test_") || b2.IntegrationKey != b.IntegrationKey {
		t.Errorf("live link: a %+v, b's key %s", a3, b2.IntegrationKey)
	}
}
