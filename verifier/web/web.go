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
	"fmt"
	"html/template"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
)

//go:embed src/*.ts strings.json
var sources embed.FS

//go:embed src/app.css
var css []byte

// Security headers of every page and asset. No inline script or style is
// used, so CSP allows only this origin; the camera is this origin's only.
// The token is in the page's path, so no page may be kept in a cache (and
// every response says Referrer-Policy: no-referrer, internal/secheaders).
const (
	CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; " +
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

var script = bundle.Once(bundle.Options{Sources: sources, Entry: "src/main.ts"})

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

// Assets are the script and the stylesheet, by path.
func Assets() (map[string]*Asset, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := Style()
	if err != nil {
		return nil, err
	}
	return map[string]*Asset{js.Path: js, st.Path: st}, nil
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
