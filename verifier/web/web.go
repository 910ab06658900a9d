// Package web is the end user's pages behind a verification's url: one
// small TypeScript app (src/, bundled by internal/bundle once per process
// and embedded in the binary) that walks the flow API under /v/{token}/,
// its stylesheet, the HTML that loads them, and the server-rendered pages
// of links that can no longer be used. Every string the pages show is in
// strings.json, read by both the Go side and the app.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/verifier/web/npmbundle"
	"github.com/idgate/idgate/verifier/web/tracker"
)

//go:embed src/*.ts strings.json
var sources embed.FS

//go:embed src/app.css
var css []byte

// Security headers of every page and asset. No inline script or style is
// used, so CSP allows only this origin; the camera is this origin's only.
// 'wasm-unsafe-eval' lets the license back compile the barcode reader's
// WebAssembly (npmbundle) and the liveness step its face tracker's
// (verifier/web/tracker); it allows no JavaScript eval.
// The token is in the page's path, so no page may be kept in a cache (and
// every response says Referrer-Policy: no-referrer, internal/secheaders).
const (
	CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	PermissionsPolicy = "camera=(self), microphone=(), geolocation=()"
)

// Asset is a built file ready to serve: its bytes, their gzip form, a
// strong ETag and a path that changes with the content (so it may be
// cached for good; it carries no token).
type Asset struct {
	Body, Gzip  []byte
	ETag        string
	Path        string
	ContentType string
}

// script is the app. It is told where the barcode reader (npm packages
// bundled at build time, npmbundle) is served as the build-time constant
// IDGATE_BARCODE ({js, wasm} paths), or null when this binary was built
// without it: the license back then keeps its manual shutter alone; and
// where the face tracker's files are (IDGATE_TRACKER, null without them:
// the page then paces the liveness step without it).
var script = sync.OnceValues(func() (*bundle.Bundle, error) {
	paths := map[string]string(nil)
	if r, err := barcodeReader(); err == nil {
		paths = map[string]string{"js": r.Script.Path, "wasm": r.Wasm.Path}
	} else if !errors.Is(err, npmbundle.ErrNotBuilt) {
		return nil, err
	}
	define, err := json.Marshal(paths)
	if err != nil {
		return nil, err
	}
	where := []byte("null")
	if set, err := tracker.Files(); err == nil {
		if where, err = json.Marshal(set.Config); err != nil {
			return nil, err
		}
	}
	return bundle.Build(bundle.Options{Sources: sources, Entry: "src/main.ts",
		Define: map[string]string{"IDGATE_BARCODE": string(define), "IDGATE_TRACKER": string(where)}})
})

// reader is the barcode reader's script and WebAssembly as assets.
type reader struct{ Script, Wasm *Asset }

var barcodeReader = sync.OnceValues(func() (*reader, error) {
	r, err := npmbundle.BarcodeReader()
	if err != nil {
		return nil, err
	}
	asset := func(a *npmbundle.Asset, ctype string) *Asset {
		return &Asset{Body: a.JS, Gzip: a.Gzip, ETag: a.ETag, Path: "/assets/flow-" + a.Name, ContentType: ctype}
	}
	return &reader{Script: asset(r.Script, "text/javascript; charset=utf-8"), Wasm: asset(r.Wasm, "application/wasm")}, nil
})

var style = sync.OnceValues(func() (*Asset, error) { return pack(css, "flow-%s.css", "text/css; charset=utf-8") })

// Script is the app, built on first use.
func Script() (*Asset, error) {
	b, err := script()
	if err != nil {
		return nil, err
	}
	return &Asset{Body: b.JS, Gzip: b.Gzip, ETag: b.ETag, Path: "/assets/flow-" + b.ETag[1:17] + ".js", ContentType: "text/javascript; charset=utf-8"}, nil
}

// Style is the stylesheet.
func Style() (*Asset, error) { return style() }

// Assets are the script, the stylesheet and, when built, the barcode
// reader the license back loads on demand and the face tracker's files the
// liveness step loads, by path.
func Assets() (map[string]*Asset, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := Style()
	if err != nil {
		return nil, err
	}
	all := map[string]*Asset{js.Path: js, st.Path: st}
	if r, err := barcodeReader(); err == nil {
		all[r.Script.Path], all[r.Wasm.Path] = r.Script, r.Wasm
	}
	if set, err := tracker.Files(); err == nil {
		for name, f := range set.Files {
			all["/assets/"+name] = &Asset{Body: f.JS, Gzip: f.Gzip, ETag: f.ETag, Path: "/assets/" + name, ContentType: f.ContentType}
		}
	}
	return all, nil
}

func pack(body []byte, name, ctype string) (*Asset, error) {
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(body); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	return &Asset{Body: body, Gzip: gz.Bytes(), ETag: `"` + tag + `"`, Path: "/assets/" + fmt.Sprintf(name, tag[:16]), ContentType: ctype}, nil
}

// Ended is why a link can no longer be used.
type Ended string

const (
	Unknown   Ended = "unknown"
	Expired   Ended = "expired"
	Canceled  Ended = "canceled"
	Completed Ended = "completed"
	InReview  Ended = "review"
)

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<link rel="stylesheet" href="{{.CSS}}">{{if .JS}}
<script defer src="{{.JS}}"></script>{{end}}
</head><body><main id="app" data-screen="{{.Screen}}"><h1>{{.Heading}}</h1>{{if .JS}}<noscript><p>{{.Body}}</p></noscript>{{else}}<p>{{.Body}}</p>{{end}}</main></body></html>
`))

type pageView struct {
	Lang, Title, Heading, Body, Screen, CSS, JS string
}

// App is the HTML that starts the app for a live link, in lang.
func App(lang string) ([]byte, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := Style()
	if err != nil {
		return nil, err
	}
	return render(pageView{Lang: lang, Title: T(lang, "app.title"), Heading: T(lang, "start.title"), Body: T(lang, "app.noscript"),
		Screen: "loading", CSS: st.Path, JS: js.Path})
}

// EndedPage is the page of a link that can no longer be used: it needs
// no script.
func EndedPage(lang string, why Ended) ([]byte, error) {
	st, err := Style()
	if err != nil {
		return nil, err
	}
	title := T(lang, "ended."+string(why)+".title")
	return render(pageView{Lang: lang, Title: title + " · " + T(lang, "app.title"), Heading: title,
		Body: T(lang, "ended."+string(why)+".body"), Screen: "ended-" + string(why), CSS: st.Path})
}

func render(v pageView) ([]byte, error) {
	var b bytes.Buffer
	if err := page.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
