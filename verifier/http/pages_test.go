package http

import (
	"bytes"
	"compress/gzip"
	"io"
	nethttp "net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/qr"
	"github.com/idgate/idgate/internal/qr/qrtest"
	"github.com/idgate/idgate/verifier/web"
)

// The app's script and stylesheet: gzipped when asked, cached for good
// under content paths, revalidated by ETag, under the pages' CSP.
func TestPageAssets(t *testing.T) {
	h := newHarness(t)
	assets, err := web.Assets()
	if err != nil {
		t.Fatal(err)
	}
	for path, a := range assets {
		r := h.do("GET", path, "", "Accept-Encoding", "gzip")
		if r.status != 200 || r.header.Get("Content-Encoding") != "gzip" || r.header.Get("Content-Type") != a.ContentType ||
			r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" || r.header.Get("ETag") != a.ETag ||
			r.header.Get("Content-Security-Policy") != web.CSP || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s: %d %v", path, r.status, r.header)
		}
		zr, err := gzip.NewReader(bytes.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, a.JS) {
			t.Fatalf("%s: gzip body is not the asset (%v)", path, err)
		}
		if r := h.do("GET", path, "", "Accept-Encoding", "identity"); r.status != 200 || !bytes.Equal(r.body, a.JS) || r.header.Get("Content-Encoding") != "" {
			t.Fatalf("%s plain: %d %v", path, r.status, r.header)
		}
		if r := h.do("GET", path, "", "If-None-Match", a.ETag); r.status != 304 || len(r.body) != 0 {
			t.Fatalf("%s revalidation: %d", path, r.status)
		}
	}
	if r := h.do("GET", "/assets/flow-0000000000000000.js", ""); r.status != 404 {
		t.Fatalf("unknown asset: %d", r.status)
	}
}

// The page speaks the language of Accept-Language, ended pages included.
func TestLinkPageLanguage(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	v := h.create(bearer, `{}`)
	r := h.do("GET", "/v/"+token(t, v), "", "Accept-Language", "es-MX,es;q=0.9,en;q=0.5")
	if r.status != 200 || !strings.Contains(string(r.body), `<html lang="es" dir="ltr">`) || !strings.Contains(string(r.body), "<h1>Verifica tu identidad</h1>") ||
		r.header.Get("Vary") != "Accept-Language" || r.header.Get("Cache-Control") != "no-store" || r.header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", bearer)
	r = h.do("GET", "/v/"+token(t, v), "", "Accept-Language", "es")
	if r.status != 410 || !strings.Contains(string(r.body), "<h1>Verificación cancelada</h1>") || strings.Contains(string(r.body), "<script") {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// A browser sent to a path under /v that leads nowhere (a link cut short,
// or with something after it) gets the "Link not found" page, in its
// language, not the API's JSON; a page's own API calls keep the JSON.
func TestLinkNavigationsNowhere(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	tok := token(t, h.create(bearer, `{}`))
	const nav = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" // Chromium's navigation Accept
	// Not through h.do: these paths are not endpoints of the document.
	get := func(path, accept string) response {
		req, _ := nethttp.NewRequest("GET", h.url()+path, nil)
		req.Header.Set("Accept", accept)
		req.Header.Set("Accept-Language", "fr")
		resp, err := h.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return response{status: resp.StatusCode, header: resp.Header, body: body}
	}
	for _, path := range []string{"/v", "/v/", "/v/" + tok + "/extra", "/v/" + tok + "/", "/v/" + tok + "/license"} {
		r := get(path, nav)
		if r.status != 404 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(string(r.body), "<h1>"+web.T("fr", "ended.unknown.title")+"</h1>") ||
			r.header.Get("Cache-Control") != "no-store" || r.header.Get("Content-Security-Policy") != web.CSP {
			t.Errorf("%s: %d %v %s", path, r.status, r.header, r.body)
		}
		expectError(t, get(path, "*/*"), 404, httperr.NotFound)
	}
}

var qrSVG = regexp.MustCompile(`^<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 (\d+) \d+" role="img" aria-label="([^"]+)".*<path d="([^"]+)"/></svg>$`)

// The QR code of a live link reads back to the link; ended and unknown
// links have none.
func TestLinkQR(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	v := h.create(bearer, `{}`)
	tok := token(t, v)
	r := h.do("GET", "/v/"+tok+"/qr.svg", "", "Accept-Language", "es")
	m := qrSVG.FindStringSubmatch(string(r.body))
	if r.status != 200 || r.header.Get("Content-Type") != "image/svg+xml" || r.header.Get("Cache-Control") != "no-store" || m == nil {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	if m[2] != web.T("es", "handoff.qr") {
		t.Fatalf("label %q", m[2])
	}
	size, _ := strconv.Atoi(m[1])
	img, err := qrtest.Draw(qr.Code{Size: size, Path: m[3]}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := qrtest.Read(img); err != nil || got != v.URL {
		t.Fatalf("QR code reads %q (%v), want %q", got, err, v.URL)
	}
	h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", bearer)
	expectError(t, h.do("GET", "/v/"+tok+"/qr.svg", ""), 404, httperr.NotFound)
	expectError(t, h.do("GET", "/v/"+strings.Repeat("A", 43)+"/qr.svg", ""), 404, httperr.NotFound)
}
