// Package web is the end user's pages behind a verification's url: one
// small TypeScript app (src/, bundled by internal/bundle once per process
// and embedded in the binary) that walks the flow API under /v/{token}/,
// its stylesheet, the HTML that loads them, and the server-rendered pages
// of links that can no longer be used. Every string the pages show is in
// strings.json, read by both the Go side and the app.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"regexp"
	"strings"
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

// script is the app. It is told where the barcode reader (npm packages
// bundled at build time, npmbundle) is served as the build-time constant
// IDGATE_BARCODE ({js, wasm} paths), or null when this binary was built
// without it: the license back then keeps its manual shutter alone; and
// where the face tracker's files are (IDGATE_TRACKER, null without them:
// the page then paces the liveness step without it).
var script = sync.OnceValues(func() (*bundle.Bundle, error) {
	paths := map[string]string(nil)
	if r, err := barcodeReader(); err == nil {
		paths = map[string]string{"js": r.Script.Path(), "wasm": r.Wasm.Path()}
	} else if !errors.Is(err, npmbundle.ErrNotBuilt) {
		return nil, err
	}
	define, err := json.Marshal(paths)
	if err != nil {
		return nil, err
	}
	where := []byte("null")
	if set, err := tracker.Files(); err == nil {
		w, err := trackerWorker()
		if err != nil {
			return nil, err
		}
		if where, err = json.Marshal(struct {
			tracker.Config
			Worker string `json:"worker"`
		}{set.Config, w.Path()}); err != nil {
			return nil, err
		}
	}
	return bundle.Build(bundle.Options{Sources: sources, Entry: "src/main.ts",
		Define: map[string]string{"IDGATE_BARCODE": string(define), "IDGATE_TRACKER": string(where)}})
})

// trackerWorker is the face tracker's worker (src/trackerworker.ts), which
// runs the models off the page's thread; it is told the tracker's files
// when started, so it is built without them. Its name starts as the
// tracker's files do (tracker-*), as it is only of use with them.
var trackerWorker = sync.OnceValues(func() (*bundle.Asset, error) {
	b, err := bundle.Build(bundle.Options{Sources: sources, Entry: "src/trackerworker.ts"})
	if err != nil {
		return nil, err
	}
	return b.Named("tracker-worker", ".js", bundle.JS), nil
})

// barcodeReader is the barcode reader's script and WebAssembly, served
// under the pages' prefix (flow-).
var barcodeReader = sync.OnceValues(func() (*npmbundle.Reader, error) {
	r, err := npmbundle.BarcodeReader()
	if err != nil {
		return nil, err
	}
	flow := func(a *bundle.Asset) *bundle.Asset {
		return &bundle.Asset{Bundle: a.Bundle, Name: "flow-" + a.Name, ContentType: a.ContentType}
	}
	return &npmbundle.Reader{Script: flow(r.Script), Wasm: flow(r.Wasm)}, nil
})

var style = sync.OnceValues(func() (*bundle.Asset, error) { return bundle.NewAsset("flow", ".css", bundle.CSS, css) })

// Script is the app, built on first use.
func Script() (*bundle.Asset, error) {
	b, err := script()
	if err != nil {
		return nil, err
	}
	return b.Named("flow", ".js", bundle.JS), nil
}

// Style is the stylesheet.
func Style() (*bundle.Asset, error) { return style() }

// Assets are the script, the stylesheet and, when built, the barcode
// reader the license back loads on demand and the face tracker's files and
// worker the liveness step loads, by path.
func Assets() (map[string]*bundle.Asset, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := Style()
	if err != nil {
		return nil, err
	}
	all := map[string]*bundle.Asset{js.Path(): js, st.Path(): st}
	if r, err := barcodeReader(); err == nil {
		all[r.Script.Path()], all[r.Wasm.Path()] = r.Script, r.Wasm
	}
	if set, err := tracker.Files(); err == nil {
		for _, f := range set.Files {
			all[f.Path()] = f
		}
		w, err := trackerWorker()
		if err != nil {
			return nil, err
		}
		all[w.Path()] = w
	}
	return all, nil
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
<html lang="{{.Lang}}" dir="{{.Dir}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<link rel="stylesheet" href="{{.CSS}}">{{if .Who.Accent}}
<link rel="stylesheet" href="{{.Who.Accent}}">{{end}}{{if .JS}}
<script defer src="{{.JS}}"></script>
<script type="application/json" id="idgate-strings" data-lang="{{.Lang}}">{{.Strings}}</script>{{end}}
</head><body>{{template "langs" .}}
{{if .Who.Name}}<header class="who">{{if .Who.Logo}}<img class="logo" src="{{.Who.Logo}}" alt="">{{end}}<span class="who-name">{{.Who.Name}}</span></header>{{end}}
<main id="app" data-screen="{{.Screen}}"{{if .Who.Name}} data-requester="{{.Who.Name}}"{{end}}><h1>{{.Heading}}</h1>{{if .JS}}<noscript><p>{{.Body}}</p></noscript>{{else}}<p>{{.Body}}</p>{{end}}</main>
<footer class="foot">{{if .Privacy}}<p><a href="{{.Who.Privacy}}" rel="noopener noreferrer" target="_blank">{{.Privacy}}</a></p>{{end}}<p class="kept">{{.Kept}}</p>{{if .Contact}}<p><a href="{{.Who.ContactHref}}" rel="noopener noreferrer" target="_blank">{{.Contact}}</a></p>{{end}}</footer>
</body></html>
{{define "langs"}}<form class="langs" method="get"><svg class="globe" aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><circle cx="12" cy="12" r="10"/><path d="M2 12h20M12 2c3 3 4 6.5 4 10s-1 7-4 10c-3-3-4-6.5-4-10s1-7 4-10z"/></svg>
<label for="lang">{{.Menu.Label}}</label> <select id="lang" name="lang">{{range .Menu.Options}}<option value="{{.Code}}" lang="{{.Code}}" dir="{{.Dir}}"{{if .Selected}} selected{{end}}>{{.Name}}</option>{{end}}</select> <button type="submit" class="sec">{{.Menu.Apply}}</button></form>{{end}}`))

// menu is the pages' language menu: a GET form whose select names each
// language in itself, so a reader finds theirs whatever the page speaks.
// Choosing loads the page again with ?lang= (the app also keeps the choice
// for the link in the tab: src/i18n.ts). A button, not the select's
// change, submits it, so going through the list with the keyboard does
// not reload the page under the reader (WCAG 3.2.2).
type menu struct {
	Label, Apply string
	Options      []option
}

type option struct {
	Code, Name, Dir string
	Selected        bool
}

func menuFor(lang string) menu {
	m := menu{Label: T(lang, "lang.label"), Apply: T(lang, "lang.apply")}
	for _, l := range Langs() {
		m.Options = append(m.Options, option{Code: l, Name: T(l, "lang.name"), Dir: Dir(l), Selected: l == lang})
	}
	return m
}

// Dir is the writing direction of lang: "rtl" for Arabic, else "ltr".
func Dir(lang string) string {
	if lang == "ar" {
		return "rtl"
	}
	return "ltr"
}

// Requester is who asks, as the pages show it (the account's branding,
// docs/api.md): its name in a header on every page and in the start page's
// heading, its logo beside the name, its accent colour's stylesheet, and
// in the footer its privacy policy and support contact. The zero value
// keeps the pages neutral. The server fills it from the link's own
// account; the template escapes every value.
type Requester struct {
	Name string
	// Logo is the path of the link's logo (/v/{token}/logo), "" for none.
	Logo string
	// Accent is the path of the accent colour's stylesheet (AccentCSS),
	// "" for ours.
	Accent      string
	Privacy     string // https URL
	ContactHref string // mailto: or https URL
}

type pageView struct {
	Lang, Title, Heading, Body, Screen, CSS, JS string
	Who                                         Requester
	// Dir and Menu follow Lang (render sets them).
	Dir  string
	Menu menu
	// Strings is the app's table in Lang (JSON; "{}" for English, which
	// the script carries): the script bundles English only.
	Strings template.JS
	// Footer texts in Lang: the privacy policy and contact links (when
	// the requester has them) and our own note of what is kept.
	Privacy, Contact, Kept string
}

// named is key's text in lang with {name} filled in.
func named(lang, key, name string) string { return strings.ReplaceAll(T(lang, key), "{name}", name) }

// Heading is the start page's heading: "<name> asks you to verify your
// identity", or the neutral one when the requester has no name.
func Heading(lang, name string) string {
	if name == "" {
		return T(lang, "start.title")
	}
	return named(lang, "start.title.named", name)
}

// QRLabel names the QR code of the handoff (its SVG title and the image's
// alternative text) after the requester when it has a name.
func QRLabel(lang, name string) string {
	if name == "" {
		return T(lang, "handoff.qr")
	}
	return named(lang, "handoff.qr.named", name)
}

// accentName is an accent stylesheet's asset name: the colour is its
// whole content, so it carries nothing of the account.
var accentName = regexp.MustCompile(`^/assets/accent-([0-9a-f]{6})\.css$`)

// AccentPath is the stylesheet path of an accent colour ("#rrggbb", lower
// case, as the account stores it); "" for none.
func AccentPath(color string) string {
	if len(color) != 7 || !accentName.MatchString("/assets/accent-"+color[1:]+".css") {
		return ""
	}
	return "/assets/accent-" + color[1:] + ".css"
}

// AccentCSS is the stylesheet at an AccentPath: the colour of the
// buttons, links and accents; nil for any other path.
func AccentCSS(path string) *bundle.Asset {
	m := accentName.FindStringSubmatch(path)
	if m == nil {
		return nil
	}
	b, err := bundle.Pack([]byte(":root{--accent:#" + m[1] + "}\n"))
	if err != nil {
		return nil
	}
	// Named by its colour, not its digest.
	return &bundle.Asset{Bundle: b, Name: "accent-" + m[1] + ".css", ContentType: bundle.CSS}
}

func (v pageView) withFooter() pageView {
	if v.Who.Name != "" {
		if v.Who.Privacy != "" {
			v.Privacy = named(v.Lang, "who.privacy", v.Who.Name)
		}
		if v.Who.ContactHref != "" {
			v.Contact = named(v.Lang, "who.contact", v.Who.Name)
		}
	}
	v.Kept = T(v.Lang, "start.kept")
	return v
}

// App is the HTML that starts the app for a live link, in lang, naming
// who asks.
func App(lang string, who Requester) ([]byte, error) {
	js, err := Script()
	if err != nil {
		return nil, err
	}
	st, err := Style()
	if err != nil {
		return nil, err
	}
	if table[lang] == nil {
		lang = "en"
	}
	return render(pageView{Lang: lang, Title: T(lang, "app.title"), Heading: Heading(lang, who.Name), Body: T(lang, "app.noscript"),
		Screen: "loading", CSS: st.Path(), JS: js.Path(), Who: who, Strings: appStrings()[lang]})
}

// appStrings is each language's table as the JSON the app reads from its
// page ("{}" for English, which the script carries). encoding/json escapes
// <, > and &, so the text cannot close the script element.
var appStrings = sync.OnceValue(func() map[string]template.JS {
	out := map[string]template.JS{"en": "{}"}
	for l, t := range table {
		if l == "en" {
			continue
		}
		b, err := json.Marshal(t)
		if err != nil {
			panic("web: " + err.Error())
		}
		out[l] = template.JS(b)
	}
	return out
})

// EndedPage is the page of a link that can no longer be used: it needs
// no script. An expired or canceled link names who to ask for a new one.
func EndedPage(lang string, why Ended, who Requester) ([]byte, error) {
	st, err := Style()
	if err != nil {
		return nil, err
	}
	title := T(lang, "ended."+string(why)+".title")
	body := T(lang, "ended."+string(why)+".body")
	if who.Name != "" && (why == Expired || why == Canceled) {
		body = named(lang, "ended."+string(why)+".body.named", who.Name)
	}
	return render(pageView{Lang: lang, Title: title + " · " + T(lang, "app.title"), Heading: title,
		Body: body, Screen: "ended-" + string(why), CSS: st.Path(), Who: who})
}

func render(v pageView) ([]byte, error) {
	var b bytes.Buffer
	v.Dir, v.Menu = Dir(v.Lang), menuFor(v.Lang)
	if err := page.Execute(&b, v.withFooter()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
