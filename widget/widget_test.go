package widget

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// maxGzip is the budget for the footer script.
const maxGzip = 12 << 10

func TestBundleBuildsUnderBudget(t *testing.T) {
	b, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("widget bundle: %d bytes minified, %d bytes gzipped (budget %d)", len(b.JS), len(b.Gzip), maxGzip)
	if len(b.Gzip) > maxGzip {
		t.Fatalf("gzipped bundle is %d bytes, over the %d byte budget", len(b.Gzip), maxGzip)
	}
	r, err := gzip.NewReader(bytes.NewReader(b.Gzip))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(plain, b.JS) {
		t.Fatalf("gzip form does not decompress to the script (err %v)", err)
	}
	if !strings.HasPrefix(b.ETag, `"`) || !strings.HasSuffix(b.ETag, `"`) || len(b.ETag) != 26 {
		t.Fatalf("ETag %q is not a quoted 24-hex validator", b.ETag)
	}
}

// The script is an IIFE that assigns no global and never speaks to the
// Management API or carries a store token. The one thing it keeps on the
// shopper's device is the ID of a cart it saw verified as a guest
// (remember.ts: localStorage's set, get and remove of that one key), for
// an account made later; no cookie, session storage or database.
func TestBundleIsSelfContained(t *testing.T) {
	b, err := Get()
	if err != nil {
		t.Fatal(err)
	}
	js := string(b.JS)
	if !strings.HasPrefix(js, "(()=>{") || !strings.HasSuffix(strings.TrimSpace(js), "})();") {
		t.Fatalf("bundle is not one IIFE: starts %q", js[:min(20, len(js))])
	}
	for _, banned := range []string{"X-Auth-Token", "api.bigcommerce.com", "sessionStorage", "document.cookie", "indexedDB", "window.idgate="} {
		if strings.Contains(js, banned) {
			t.Errorf("bundle contains %q", banned)
		}
	}
	if n := strings.Count(js, "localStorage"); n != 3 || !strings.Contains(js, `"idgate:guest-cart:"`) {
		t.Errorf("bundle uses localStorage %d times (want the guest cart's set, get and remove only)", n)
	}
	for _, want := range []string{"/api/storefront/carts", "/customer/current.jwt", "attachShadow", "Idgate-Customer-Token"} {
		if !strings.Contains(js, want) {
			t.Errorf("bundle lacks %q", want)
		}
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	a, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	if a.ETag != b.ETag {
		t.Fatalf("two builds differ: %s vs %s", a.ETag, b.ETag)
	}
}
