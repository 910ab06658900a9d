// Package dashboard is the account holder's pages at /dashboard: one
// TypeScript app (src/, bundled once per process by internal/bundle and
// embedded in the binary) with a small hash router and one module per page
// (src/router.ts states the contract a page module follows), its
// stylesheet, and the HTML shell that loads them. The app calls the JSON
// API with the dashboard session cookie and the CSRF header (docs/dashboard.md); nothing here talks to the database.
package dashboard

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/dashboard/npmbundle"
	"github.com/idgate/idgate/verifier/ipintel"
)

// sources is every file under src/ (subdirectories such as src/crypto/
// included): the bundle reads the .ts and .json files, the stylesheet is
// src/app.css.
//
//go:embed src
var sources embed.FS

// Security headers of the shell and its assets: the end-user pages' rules
// (only this origin's script and style, no inline code, nothing framed, no
// request leaving the origin), without camera or media. 'wasm-unsafe-eval'
// lets the page compile WebAssembly (Argon2id for passphrase keys) and
// nothing else: eval and inline script stay refused.
const (
	CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob: data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	PermissionsPolicy = "camera=(), microphone=(), geolocation=()"
)

// script is the app. It is told where the passphrase module (npm packages
// bundled at build time, verifier/dashboard/npmbundle) is served, or ""
// when this binary was built without it (src/crypto/npm.ts says so then),
// and which kinds of document a verification may accept
// (verifier.AvailableDocuments: the template form offers only these).
var script = sync.OnceValues(func() (*bundle.Bundle, error) {
	url := ""
	if a, err := passphraseAsset(); err == nil {
		url = a.Path()
	} else if !errors.Is(err, npmbundle.ErrNotBuilt) {
		return nil, err
	}
	quoted, err := json.Marshal(url)
	if err != nil {
		return nil, err
	}
	kinds, err := json.Marshal(verifier.AvailableDocuments)
	if err != nil {
		return nil, err
	}
	return bundle.Build(bundle.Options{Sources: sources, Entry: "src/main.ts",
		Define: map[string]string{"IDGATE_PASSPHRASE_URL": string(quoted), "IDGATE_DOCUMENTS": string(kinds)}})
})

// passphraseAsset is the passphrase module as an asset (the page loads it
// on first use), or npmbundle.ErrNotBuilt.
var passphraseAsset = sync.OnceValues(func() (*bundle.Asset, error) {
	a, err := npmbundle.Passphrase()
	if err != nil {
		return nil, err
	}
	return &bundle.Asset{Bundle: a.Bundle, Name: "dashboard-" + a.Name, ContentType: a.ContentType}, nil
})

var style = sync.OnceValues(func() (*bundle.Asset, error) {
	css, err := fs.ReadFile(sources, "src/app.css")
	if err != nil {
		return nil, fmt.Errorf("dashboard stylesheet: %w", err)
	}
	return bundle.NewAsset("dashboard", ".css", bundle.CSS, css)
})

// Script is the app, built on first use.
func Script() (*bundle.Asset, error) {
	b, err := script()
	if err != nil {
		return nil, err
	}
	return b.Named("dashboard", ".js", bundle.JS), nil
}

// Assets are the script, the stylesheet and, when this binary has it, the
// passphrase module the script loads on first use, by path.
func Assets() (map[string]*bundle.Asset, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := style()
	if err != nil {
		return nil, err
	}
	out := map[string]*bundle.Asset{js.Path(): js, st.Path(): st}
	if pp, err := passphraseAsset(); err == nil {
		out[pp.Path()] = pp
	}
	return out, nil
}

var shell = template.Must(template.New("shell").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>idgate dashboard</title>
<link rel="stylesheet" href="{{.CSS}}">
<script defer src="{{.JS}}"></script>
</head><body><div id="root"><main id="main"><h1>idgate dashboard</h1><noscript><p>The dashboard needs JavaScript.</p></noscript></main></div>
<footer class="credits"><p>{{.Credits}}</p></footer></body></html>
`))

// Page is the HTML shell every dashboard route is served from (the router
// picks the page from the URL's fragment).
func Page() ([]byte, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := style()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	// The footer credits the IP data the results' indicators come from, as
	// its CC BY licences ask of every page showing them. It
	// stands outside #root, which the router redraws.
	data := struct {
		CSS, JS string
		Credits template.HTML
	}{st.Path(), js.Path(), template.HTML(ipintel.AttributionHTML)}
	if err := shell.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
