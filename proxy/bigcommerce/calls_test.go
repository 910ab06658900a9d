package bigcommerce_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

func TestInstallFooterScriptIsIdempotent(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	s := bigcommerce.FooterScript{Name: "idgate", Description: "ID verification", Src: "https://idgate.example/widget.js"}
	first, err := c.InstallFooterScript(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	s.Src = "https://idgate.example/widget.v2.js"
	second, err := c.InstallFooterScript(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	scripts := d.Scripts()
	if first != second || len(scripts) != 1 || scripts[0].UUID != first {
		t.Fatalf("uuids %s, %s; stored %+v: want one script updated in place", first, second, scripts)
	}
	want := map[string]any{
		"name": "idgate", "src": "https://idgate.example/widget.v2.js", "kind": "src", "location": "footer",
		"visibility": "all_pages", "consent_category": "essential", "auto_uninstall": true, "enabled": true,
	}
	for k, v := range want {
		if scripts[0].Fields[k] != v {
			t.Errorf("script %s = %v, want %v", k, scripts[0].Fields[k], v)
		}
	}
}

func TestInstallFooterScriptRefusesUnsafeSrc(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	for _, src := range []string{"http://idgate.example/w.js", "//idgate.example/w.js", "javascript:alert(1)", "", "widget.js"} {
		if _, err := c.InstallFooterScript(context.Background(), bigcommerce.FooterScript{Name: "idgate", Src: src}); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("src %q: %v, want ErrInvalidInput", src, err)
		}
	}
	if _, err := c.InstallFooterScript(context.Background(), bigcommerce.FooterScript{Name: "idgate", Src: "http://localhost:8080/w.js"}); err != nil {
		t.Errorf("local demo src: %v", err)
	}
	if n := len(d.Scripts()); n != 1 {
		t.Fatalf("%d scripts stored, want only the localhost one", n)
	}
}

// An inline script is exactly one script tag with no src, on all pages or
// the order confirmation page (scripts.v3.yml); the double checks the
// body it accepts against the document.
func TestInstallInlineScript(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	for _, s := range []bigcommerce.FooterScript{
		{Name: "o", HTML: `<script></script><script></script>`, Visibility: "order_confirmation"},
		{Name: "o", HTML: `<div data-x="1"></div>`, Visibility: "order_confirmation"},
		{Name: "o", HTML: `<script></script>`, Src: "https://idgate.example/w.js"},
		{Name: "o", HTML: `<script></script>`, Visibility: "checkout"},
	} {
		if _, err := c.InstallFooterScript(ctx, s); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("%+v: %v, want ErrInvalidInput", s, err)
		}
	}
	const html = `<script data-idgate-order="{{checkout.order.id}}"></script>`
	if _, err := c.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: "o", HTML: html, Visibility: "order_confirmation"}); err != nil {
		t.Fatal(err)
	}
	if s := d.Scripts(); len(s) != 1 || s[0].Fields["kind"] != "script_tag" || s[0].Fields["html"] != html || s[0].Fields["src"] != nil {
		t.Fatalf("stored %+v", s)
	}
}

func TestOrderStatus(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	d.AddOrder(bigcommercetest.Order{ID: 218, StatusID: 11, CustomerID: 4927, CartID: cartID})
	o, err := c.GetOrder(ctx, 218)
	if err != nil || o.ID != 218 || o.StatusID != 11 || o.CustomerID != 4927 || o.CartID != cartID {
		t.Fatalf("get = %+v, %v", o, err)
	}
	if err := c.SetOrderStatus(ctx, 218, bigcommerce.StatusManualVerificationRequired); err != nil {
		t.Fatal(err)
	}
	if stored, _ := d.Order(218); stored.StatusID != 12 {
		t.Fatalf("stored status %d, want 12", stored.StatusID)
	}
	if _, err := c.GetOrder(ctx, 219); !errors.Is(err, bigcommerce.ErrNotFound) {
		t.Fatalf("missing order: %v, want ErrNotFound", err)
	}
	if err := c.SetOrderStatus(ctx, 0, 12); !errors.Is(err, bigcommerce.ErrInvalidInput) {
		t.Fatalf("order 0: %v, want ErrInvalidInput", err)
	}
}

func TestEnsureWebhook(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	const dest = "https://proxy.idgate.example/bigcommerce/webhooks"
	headers := map[string]string{"X-Idgate-Hook": "s3cret"}
	for _, scope := range []string{bigcommerce.ScopeOrderCreated, bigcommerce.ScopeCartConverted} {
		h, err := c.EnsureWebhook(ctx, scope, dest, headers)
		if err != nil || h.ID == 0 || h.Scope != scope || !h.IsActive {
			t.Fatalf("register %s = %+v, %v", scope, h, err)
		}
	}
	// Again: no duplicates, no writes.
	before := len(d.Requests())
	if _, err := c.EnsureWebhook(ctx, bigcommerce.ScopeOrderCreated, dest, headers); err != nil {
		t.Fatal(err)
	}
	if writes := len(d.Requests()) - before; writes != 1 {
		t.Fatalf("%d requests for an unchanged hook, want the one lookup", writes)
	}
	// New headers update the existing hook.
	rotated := map[string]string{"X-Idgate-Hook": "rotated"}
	h, err := c.EnsureWebhook(ctx, bigcommerce.ScopeOrderCreated, dest, rotated)
	if err != nil || h.Headers["X-Idgate-Hook"] != "rotated" {
		t.Fatalf("rotate = %+v, %v", h, err)
	}
	hooks := d.Webhooks()
	if len(hooks) != 2 {
		t.Fatalf("stored %d hooks, want 2", len(hooks))
	}
	// http on loopback only with Config.LoopbackPlatform (the demo's
	// double; TestStorefrontDemoInChromium's app walk).
	for _, dest := range []string{"http://proxy.idgate.example/h", "https://proxy.idgate.example:8443/h", "proxy.idgate.example/h", "http://127.0.0.1:8083/h"} {
		if _, err := c.EnsureWebhook(ctx, bigcommerce.ScopeOrderCreated, dest, nil); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("destination %q: %v, want ErrInvalidInput", dest, err)
		}
	}
}

// TestConcurrentCallsShareOneClient: the proxy serves many shoppers through
// one client per store (run under -race in CI as well as here).
func TestConcurrentCallsShareOneClient(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			_, err := c.UpsertMetafield(ctx, bigcommerce.Customer(int64(i%4+1)), "verification", "v", "")
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for id := range 4 {
		if n := len(d.Metafields("customer", strconv.Itoa(id+1))); n != 1 {
			t.Errorf("customer %d has %d metafields, want 1", id+1, n)
		}
	}
}
