package storefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

func store(hash string) *proxy.Store {
	return &proxy.Store{
		Hash: hash, AccessToken: bigcommerce.Secret("token-" + hash), AppClientID: "cid", AppClientSecret: bigcommerce.Secret("csecret-" + hash),
		IntegrationKey: "idgk_" + hash, WebhookSecret: bigcommerce.Secret("whsec-" + hash), WebhookHeaderValue: bigcommerce.Secret("hv-" + hash),
		HoldCheckout: true, OrderGuard: true, Ruleset: rulesets.Ruleset{RequireAuthentic: true, RequireOver21: true},
		AllowedOrigins: []string{"https://shop.example"},
	}
}

func TestPutLoadRoundTripSealsSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "stores.json")
	s := seal.Ephemeral()
	if err := Put(path, s, store("aaa")); err != nil {
		t.Fatal(err)
	}
	if err := Put(path, s, store("bbb")); err != nil {
		t.Fatal(err)
	}
	changed := store("aaa")
	changed.AccessToken = "rotated-token"
	changed.ReleaseStatus = 9
	if err := Put(path, s, changed); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Whole values, looked for as plaintext (testkit.HoldsPlain): the
	// sealed ones are base64url ciphertext, which held "hv-" by chance
	// (a three-character run turns up about once in 262,144 positions).
	for _, secret := range []string{"rotated-token", "token-bbb", "csecret-aaa", "csecret-bbb", "whsec-aaa", "whsec-bbb", "hv-aaa", "hv-bbb"} {
		if testkit.HoldsPlain(raw, secret) {
			t.Fatalf("file holds %q in clear:\n%s", secret, raw)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
	}
	loaded, err := Load(path, s)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := loaded.List(); err != nil || len(list) != 2 {
		n := len(list)
		t.Fatalf("%d stores, want 2 (Put replaces by hash)", n)
	}
	a, err := loaded.Store(context.Background(), "aaa")
	if err != nil {
		t.Fatal(err)
	}
	if a.AccessToken != "rotated-token" || a.AppClientSecret != "csecret-aaa" || a.WebhookSecret != "whsec-aaa" ||
		a.WebhookHeaderValue != "hv-aaa" || !a.HoldCheckout || !a.OrderGuard || !a.Ruleset.RequireOver21 || a.ApprovalTTL != proxy.DefaultApprovalTTL || a.ReleaseStatus != 9 {
		t.Fatalf("loaded %+v", a)
	}
	if _, err := loaded.Store(context.Background(), "zzz"); !errors.Is(err, proxy.ErrUnknownStore) {
		t.Fatalf("unknown store: %v", err)
	}
	// Another key cannot open the file, and says why.
	if _, err := Load(path, seal.Ephemeral()); !errors.Is(err, seal.ErrOpen) || !strings.Contains(err.Error(), "IDGATE_PROXY_KEY") {
		t.Fatalf("wrong key: %v", err)
	}
}

func TestLoadMissingAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	s := seal.Ephemeral()
	if st, err := Load(filepath.Join(dir, "none.json"), s); err != nil || len(must(st.List())) != 0 {
		t.Fatalf("missing file: %v", err)
	}
	for name, body := range map[string]string{
		"not JSON":      "{",
		"wrong version": `{"version":2,"stores":[]}`,
		"bad secret":    `{"version":1,"stores":[{"store_hash":"abc","access_token":"plain"}]}`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(p, s); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if err := Put(filepath.Join(dir, "x.json"), s, &proxy.Store{Hash: "abc"}); !errors.Is(err, proxy.ErrInvalidStore) {
		t.Fatalf("invalid store put: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
