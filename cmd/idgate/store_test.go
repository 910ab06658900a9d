package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

func TestStoreAddAndList(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	t.Setenv(envProxyKey, base64.StdEncoding.EncodeToString(key))
	file := filepath.Join(t.TempDir(), "stores.json")
	secrets := `{"access_token":"tok-SECRET-1","app_client_secret":"cs-SECRET-2","webhook_secret":"whsec_SECRET3"}`
	code, out, errOut := runIdgate(t, secrets, "store", "add", "--file", file,
		"--url", "https://store-abc123.mybigcommerce.com", "--client-id", "cid", "--integration-key", "idgk_pub",
		"--origins", "https://shop.example,https://store-abc123.mybigcommerce.com", "--hold-checkout",
		"--ruleset", `{"require_over_21":true}`, "--order-guard", "--min-total", "50", "--ship-to-states", "Texas, Ontario", "--release-status", "11",
		"--guest-to-account")
	if code != 0 || !strings.Contains(out, "store abc123 saved") {
		t.Fatalf("add: exit %d: %s %s", code, out, errOut)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runIdgate(t, "", "store", "list", "--file", file)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errOut)
	}
	for _, s := range []string{"SECRET"} {
		if strings.Contains(string(raw), s) || strings.Contains(out, s) {
			t.Fatalf("a secret is in clear in the file or the listing:\n%s\n%s", raw, out)
		}
	}
	var views []storeView
	if err := json.Unmarshal([]byte(out), &views); err != nil || len(views) != 1 {
		t.Fatalf("list output %s (%v)", out, err)
	}
	v := views[0]
	if v.Hash != "abc123" || !v.HoldCheckout || !v.Ruleset.RequireOver21 || !v.Ruleset.RequireAuthentic || len(v.AllowedOrigins) != 2 || v.ApprovalTTL != "720h0m0s" ||
		v.Triggers.MinTotalCents != 5000 || len(v.Triggers.ShipToStates) != 2 || v.ReleaseStatus != 11 || !v.GuestToAccount {
		t.Fatalf("listed %+v", v)
	}

	for name, c := range map[string]struct {
		stdin string
		args  []string
		want  string
	}{
		"no url":        {secrets, []string{"--file", file}, "--url or --hash"},
		"bad secrets":   {`{"token":"x"}`, []string{"--file", file, "--hash", "abc"}, "read secrets"},
		"bad total":     {secrets, []string{"--file", file, "--hash", "abc", "--min-total", "fifty"}, "--min-total"},
		"bad release":   {secrets, []string{"--file", file, "--hash", "abc", "--client-id", "c", "--integration-key", "k", "--release-status", "10"}, "release"},
		"bad ruleset":   {secrets, []string{"--file", file, "--hash", "abc", "--ruleset", `{"over21":true}`}, "invalid ruleset"},
		"missing field": {`{"access_token":"x"}`, []string{"--file", file, "--hash", "abc", "--client-id", "c", "--integration-key", "k"}, "missing app client secret, webhook secret"},
	} {
		if code, _, errOut := runIdgate(t, c.stdin, append([]string{"store", "add"}, c.args...)...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errOut, c.want)
		}
	}

	// A store on a test integration key must be in test mode, which only
	// --test-mode sets (the store file is written by store add alone).
	testKey := []string{"store", "add", "--file", file, "--hash", "test1", "--client-id", "cid", "--integration-key", "idgk_test_" + strings.Repeat("k", 43), "--origins", "https://shop.example"}
	if code, _, errOut := runIdgate(t, secrets, testKey...); code == 0 || !strings.Contains(errOut, "needs test_mode") {
		t.Fatalf("test key without --test-mode: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := runIdgate(t, secrets, append(testKey, "--test-mode")...); code != 0 || !strings.Contains(out, "store test1 saved") {
		t.Fatalf("test key with --test-mode: exit %d: %s %s", code, out, errOut)
	}
	_, out, _ = runIdgate(t, "", "store", "list", "--file", file)
	views = nil
	if err := json.Unmarshal([]byte(out), &views); err != nil || len(views) != 2 {
		t.Fatalf("list output %s (%v)", out, err)
	}
	for _, v := range views {
		if v.TestMode != (v.Hash == "test1") {
			t.Fatalf("store %s listed with test_mode %v", v.Hash, v.TestMode)
		}
	}

	// Removed: gone from the file, the other store kept.
	if code, out, errOut := runIdgate(t, "", "store", "remove", "--file", file, "--hash", "abc123"); code != 0 || !strings.Contains(out, "store abc123 removed") {
		t.Fatalf("remove: exit %d: %s %s", code, out, errOut)
	}
	if _, out, _ := runIdgate(t, "", "store", "list", "--file", file); strings.Contains(out, "abc123") || !strings.Contains(out, "test1") {
		t.Fatalf("listed after remove: %s", out)
	}
	if code, _, errOut := runIdgate(t, "", "store", "remove", "--file", file, "--hash", "abc123"); code == 0 || !strings.Contains(errOut, "unknown store") {
		t.Fatalf("second remove: exit %d: %s", code, errOut)
	}
	raw, _ = os.ReadFile(file)
	if strings.Contains(string(raw), "abc123") {
		t.Fatalf("the removed store is still in the file:\n%s", raw)
	}

	t.Setenv(envProxyKey, "")
	if code, _, errOut := runIdgate(t, "", "store", "list", "--file", file); code == 0 || !strings.Contains(errOut, envProxyKey) {
		t.Fatalf("no key: exit %d %s", code, errOut)
	}
}

func TestStoreInstall(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	t.Setenv(envProxyKey, base64.StdEncoding.EncodeToString(key))
	d := bigcommercetest.Start(t, bigcommercetest.Options{StoreHash: "abc123"})
	file := filepath.Join(t.TempDir(), "stores.json")
	secrets := `{"access_token":"` + bigcommercetest.DefaultToken + `","app_client_secret":"cs","webhook_secret":"whsec_x"}`
	if code, _, errOut := runIdgate(t, secrets, "store", "add", "--file", file, "--hash", "abc123", "--client-id", "cid",
		"--integration-key", "k", "--origins", "https://shop.example", "--order-guard", "--api-base-url", d.BaseURL()); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	for range 2 { // idempotent: the two scripts, one webhook per event
		if code, out, errOut := runIdgate(t, "", "store", "install", "--file", file, "--hash", "abc123", "--proxy-url", "https://proxy.example"); code != 0 {
			t.Fatalf("install: %s %s", out, errOut)
		}
	}
	scripts, hooks := d.Scripts(), d.Webhooks()
	// With the order guard, the order confirmation page names the order
	// (its cart is verified after the order).
	if len(scripts) != 2 || scripts[0].Fields["src"] != "https://proxy.example/widget/v1/idgate.js?store=abc123&client=cid" ||
		scripts[0].Fields["location"] != "footer" || scripts[0].Fields["consent_category"] != "essential" ||
		scripts[1].Fields["name"] != "idgate order" || scripts[1].Fields["visibility"] != "order_confirmation" {
		t.Fatalf("scripts %+v", scripts)
	}
	if len(hooks) != 2 || hooks[0].Scope != "store/order/created" || hooks[1].Scope != "store/cart/converted" {
		t.Fatalf("webhooks %+v", hooks)
	}
	for _, h := range hooks {
		if h.Destination != "https://proxy.example/proxy/v1/stores/abc123/order-webhook" || len(h.Headers["X-Idgate-Proxy-Auth"]) < 40 {
			t.Fatalf("webhook %+v", h)
		}
	}
}
