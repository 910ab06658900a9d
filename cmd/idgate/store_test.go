package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		"--ruleset", `{"require_over_21":true}`)
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
	if v.Hash != "abc123" || !v.HoldCheckout || !v.Ruleset.RequireOver21 || !v.Ruleset.RequireAuthentic || len(v.AllowedOrigins) != 2 || v.ApprovalTTL != "720h0m0s" {
		t.Fatalf("listed %+v", v)
	}

	for name, c := range map[string]struct {
		stdin string
		args  []string
		want  string
	}{
		"no url":        {secrets, []string{"--file", file}, "--url or --hash"},
		"bad secrets":   {`{"token":"x"}`, []string{"--file", file, "--hash", "abc"}, "read secrets"},
		"bad ruleset":   {secrets, []string{"--file", file, "--hash", "abc", "--ruleset", `{"over21":true}`}, "invalid ruleset"},
		"missing field": {`{"access_token":"x"}`, []string{"--file", file, "--hash", "abc", "--client-id", "c", "--integration-key", "k"}, "missing app client secret, webhook secret"},
	} {
		if code, _, errOut := runIdgate(t, c.stdin, append([]string{"store", "add"}, c.args...)...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errOut, c.want)
		}
	}
	t.Setenv(envProxyKey, "")
	if code, _, errOut := runIdgate(t, "", "store", "list", "--file", file); code == 0 || !strings.Contains(errOut, envProxyKey) {
		t.Fatalf("no key: exit %d %s", code, errOut)
	}
}
