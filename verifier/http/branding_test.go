package http

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/web"
)

// pngLogo is a w×h PNG of one colour.
func pngLogo(t *testing.T, w, h int, c color.NRGBA) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func withLogoBodies(d *Deps) { d.Config.BodyLimit = 1 << 20 }

// TestMeBranding: GET /me carries the branding (nulls for an account
// without any), PATCH /me validates every member at once in the one
// error format and changes nothing then, and a good patch shows in
// GET /me.
func TestMeBranding(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	var me accountResponse
	h.do("GET", "/me", "", "Authorization", bearer).json(t, &me)
	if b := me.Branding; b.DisplayName != nil || b.AccentColor != nil || b.SupportContact != nil || b.PrivacyPolicyURL != nil || b.Logo != nil {
		t.Fatalf("an account without branding: %+v", b)
	}
	codes := validationCodes(t, h.do("PATCH", "/me", `{"branding":{"display_name":"Acme","accent_color":"#ffcc00",
		"support_contact":"Help <help@acme.example>","privacy_policy_url":"http://acme.example/privacy"}}`, "Authorization", bearer))
	if len(codes) != 3 || codes["branding.accent_color"] != "low_contrast" || codes["branding.privacy_policy_url"] != "must_be_https" ||
		codes["branding.support_contact"] != "invalid_contact" {
		t.Fatalf("%v", codes)
	}
	h.do("GET", "/me", "", "Authorization", bearer).json(t, &me)
	if me.Branding.DisplayName != nil {
		t.Fatalf("a refused patch changed the name: %q", *me.Branding.DisplayName)
	}
	if codes := validationCodes(t, h.do("PATCH", "/me", `{"email":"x@example.com"}`, "Authorization", bearer)); codes["email"] != "unknown_field" {
		t.Fatalf("%v", codes)
	}
	if codes := validationCodes(t, h.do("PATCH", "/me", `{}`, "Authorization", bearer)); codes["branding"] != "required" {
		t.Fatalf("%v", codes)
	}
	if r := h.do("PATCH", "/me", `{"branding":{"display_name":"x"`, "Authorization", bearer); r.status != 400 {
		t.Fatalf("malformed: %d", r.status)
	}
	r := h.do("PATCH", "/me", `{"branding":{"display_name":"Acme Wines","accent_color":"#1947C2","support_contact":"help@acme.example",
		"privacy_policy_url":"https://acme.example/privacy"}}`, "Authorization", bearer)
	r.json(t, &me)
	b := me.Branding
	if r.status != 200 || *b.DisplayName != "Acme Wines" || *b.AccentColor != "#1947c2" || *b.SupportContact != "help@acme.example" ||
		*b.PrivacyPolicyURL != "https://acme.example/privacy" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var again accountResponse
	h.do("GET", "/me", "", "Authorization", bearer).json(t, &again)
	if again.Branding.DisplayName == nil || *again.Branding.DisplayName != "Acme Wines" {
		t.Fatalf("GET /me right after PATCH: %+v", again.Branding)
	}
	// null keeps, "" clears an optional member; the name stays.
	h.do("PATCH", "/me", `{"branding":{"accent_color":"","display_name":null}}`, "Authorization", bearer).json(t, &me)
	if me.Branding.AccentColor != nil || *me.Branding.DisplayName != "Acme Wines" || *me.Branding.SupportContact != "help@acme.example" {
		t.Fatalf("%+v", me.Branding)
	}
	if codes := validationCodes(t, h.do("PATCH", "/me", `{"branding":{"display_name":""}}`, "Authorization", bearer)); codes["branding.display_name"] != "required" {
		t.Fatalf("%v", codes)
	}
}

// TestMeLogoValidation: only PNG, JPEG and WebP within the bounds are
// taken; what is stored and served is our PNG, not the upload.
func TestMeLogoValidation(t *testing.T) {
	h := newHarness(t, withLogoBodies)
	_, bearer := h.owner()
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	if r := h.send("PUT", "/me/logo", "image/svg+xml", svg, "Authorization", bearer); r.status != 415 {
		t.Fatalf("SVG: %d %s", r.status, r.body)
	}
	if codes := validationCodes(t, h.send("PUT", "/me/logo", "image/png", svg, "Authorization", bearer)); codes["logo"] != "invalid_image" {
		t.Fatalf("SVG sent as PNG: %v", codes)
	}
	if codes := validationCodes(t, h.send("PUT", "/me/logo", "image/png", []byte("not an image at all"), "Authorization", bearer)); codes["logo"] != "invalid_image" {
		t.Fatalf("non-image: %v", codes)
	}
	big := append(pngLogo(t, 64, 64, color.NRGBA{0x19, 0x47, 0xc2, 255}), bytes.Repeat([]byte{0x5a}, 600<<10)...)
	if codes := validationCodes(t, h.send("PUT", "/me/logo", "image/png", big, "Authorization", bearer)); codes["logo"] != "too_large" {
		t.Fatalf("600 KiB: %v", codes)
	}
	if r := h.send("PUT", "/me/logo", "image/png", bytes.Repeat([]byte{1}, 2<<20), "Authorization", bearer); r.status != 413 {
		t.Fatalf("over the body limit: %d", r.status)
	}
	if r := h.do("GET", "/me/logo", "", "Authorization", bearer); r.status != 404 {
		t.Fatalf("no logo yet: %d", r.status)
	}

	// A PNG with a script after its end is taken, and served re-encoded.
	poly := append(pngLogo(t, 90, 30, color.NRGBA{0x19, 0x47, 0xc2, 255}), []byte("<script>alert(document.domain)</script>")...)
	r := h.send("PUT", "/me/logo", "image/png", poly, "Authorization", bearer)
	var me accountResponse
	r.json(t, &me)
	if r.status != 200 || me.Branding.Logo == nil || me.Branding.Logo.Width != 90 || me.Branding.Logo.URL != "/me/logo" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = h.do("GET", "/me/logo", "", "Authorization", bearer)
	if r.status != 200 || r.header.Get("Content-Type") != "image/png" || r.header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.Contains(r.header.Get("Content-Security-Policy"), "sandbox") || bytes.Contains(r.body, []byte("<script")) || bytes.Equal(r.body, poly) {
		t.Fatalf("%d %v (%d bytes)", r.status, r.header, len(r.body))
	}
	if _, err := png.Decode(bytes.NewReader(r.body)); err != nil {
		t.Fatal(err)
	}
	r = h.do("DELETE", "/me/logo", "", "Authorization", bearer)
	r.json(t, &me)
	if r.status != 200 || me.Branding.Logo != nil {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
}

// TestLinkLogoIsTheLinksAccounts: a link serves its own account's logo
// and never another's, on both backends; an account without a logo has
// none on its links, whoever else has one.
func TestLinkLogoIsTheLinksAccounts(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t), withLogoBodies)
		_, a := h.owner()
		_, b := h.owner()
		_, c := h.owner()
		for _, o := range []struct {
			bearer string
			col    color.NRGBA
		}{{a, color.NRGBA{200, 0, 0, 255}}, {b, color.NRGBA{0, 0, 200, 255}}} {
			if r := h.send("PUT", "/me/logo", "image/png", pngLogo(t, 40, 40, o.col), "Authorization", o.bearer); r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
		}
		for _, o := range []struct {
			bearer string
			want   color.NRGBA
		}{{a, color.NRGBA{200, 0, 0, 255}}, {b, color.NRGBA{0, 0, 200, 255}}} {
			r := h.do("GET", "/v/"+token(t, h.create(o.bearer, `{}`))+"/logo", "")
			if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%d %v", r.status, r.header)
			}
			m, err := png.Decode(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			if got := color.NRGBAModel.Convert(m.At(20, 20)).(color.NRGBA); got != o.want {
				t.Errorf("the link served a logo of colour %v, want its own account's %v", got, o.want)
			}
		}
		if r := h.do("GET", "/v/"+token(t, h.create(c, `{}`))+"/logo", ""); r.status != 404 {
			t.Errorf("an account without a logo: its link answered %d", r.status)
		}
		if r := h.do("GET", "/v/idv_unknown/logo", ""); r.status != 404 {
			t.Errorf("an unknown link: %d", r.status)
		}
	})
}

// TestNoDisplayNameStillCreates: an account made before display names
// creates verifications as before.
func TestNoDisplayNameStillCreates(t *testing.T) {
	h := newHarness(t)
	acct, bearer := h.owner()
	if acct.Branding.DisplayName != "" {
		t.Fatal("the harness's account has a display name")
	}
	if v := h.create(bearer, `{"encryption_key_mode":"none"}`); v.ID == "" || v.URL == "" {
		t.Fatalf("%+v", v)
	}
}

// TestBrandedPages: the link's pages name its own account — the start
// page's heading, a header with the logo, the footer with the privacy
// policy, our note of what is kept and the contact, the accent
// stylesheet, the QR code's label, and the canceled and expired pages —
// with every value escaped; an account without a name keeps the neutral
// pages, which still carry our note.
func TestBrandedPages(t *testing.T) {
	h := newHarness(t, withLogoBodies)
	acct, bearer := h.owner()
	plainAcct, _ := h.owner()
	const name = `Acme <Wines> & Co`
	const esc = `Acme &lt;Wines&gt; &amp; Co`
	if r := h.do("PATCH", "/me", `{"branding":{"display_name":"`+name+`","accent_color":"#1947c2","support_contact":"help@acme.example",
		"privacy_policy_url":"https://acme.example/privacy?a=1&b=2"}}`, "Authorization", bearer); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := h.send("PUT", "/me/logo", "image/png", pngLogo(t, 120, 40, color.NRGBA{0x19, 0x47, 0xc2, 255}), "Authorization", bearer); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// A template may carry the message, never the identity.
	if codes := validationCodes(t, h.do("POST", "/templates", `{"name":"t","display_name":"Someone Else"}`, "Authorization", bearer)); codes["display_name"] != "unknown_field" {
		t.Fatalf("%v", codes)
	}

	v := h.create(bearer, `{"message":"Your order 1042 needs an ID check"}`)
	tok := token(t, v)
	page := string(h.do("GET", "/v/"+tok, "").body)
	for _, want := range []string{
		`<header class="who"><img class="logo" src="/v/` + tok + `/logo" alt=""><span class="who-name">` + esc + `</span></header>`,
		`data-requester="` + esc + `"`,
		`<h1>` + esc + ` asks you to verify your identity</h1>`,
		`<link rel="stylesheet" href="/assets/accent-1947c2.css">`,
		`<a href="https://acme.example/privacy?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">` + esc + `&#39;s privacy policy</a>`,
		`<a href="mailto:help@acme.example" rel="noopener noreferrer" target="_blank">Contact ` + esc + `</a>`,
		web.T("en", "start.kept"),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the branded page lacks %s\n%s", want, page)
		}
	}
	if strings.Contains(page, name) {
		t.Error("the name reached the page unescaped")
	}
	r := h.do("GET", "/assets/accent-1947c2.css", "")
	if r.status != 200 || string(r.body) != ":root{--accent:#1947c2}\n" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/css") {
		t.Fatalf("accent stylesheet: %d %q %v", r.status, r.body, r.header)
	}
	if r := h.do("GET", "/assets/accent-1947C2.css", ""); r.status != 404 {
		t.Errorf("an accent path not as we write it: %d", r.status)
	}
	if m := qrSVG.FindStringSubmatch(string(h.do("GET", "/v/"+tok+"/qr.svg", "").body)); m == nil || !strings.Contains(m[2], "for Acme") {
		t.Errorf("the QR code's label does not name the requester: %v", m)
	}
	h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", bearer)
	r = h.do("GET", "/v/"+tok, "", "Accept-Language", "es")
	if body := string(r.body); r.status != 410 || !strings.Contains(body, esc+" canceló esta verificación") || !strings.Contains(body, `<span class="who-name">`+esc) ||
		!strings.Contains(body, "Política de privacidad de "+esc) {
		t.Errorf("canceled page: %d %s", r.status, body)
	}
	v = h.create(bearer, `{"lifetime_days":1}`)
	h.clock.Advance(25 * time.Hour)
	bearer = h.resign(acct)
	r = h.do("GET", "/v/"+token(t, v), "")
	if body := string(r.body); r.status != 410 || !strings.Contains(body, "Ask "+esc+" for a new one.") {
		t.Errorf("expired page: %d %s", r.status, body)
	}

	// An account without a display name: today's neutral pages.
	v = h.create(h.resign(plainAcct), `{}`)
	page = string(h.do("GET", "/v/"+token(t, v), "").body)
	if !strings.Contains(page, "<h1>Verify your identity</h1>") || strings.Contains(page, `class="who"`) || strings.Contains(page, "data-requester") ||
		strings.Contains(page, "privacy policy") || strings.Contains(page, "accent-") || !strings.Contains(page, web.T("en", "start.kept")) {
		t.Errorf("the page of an account without a name is not neutral:\n%s", page)
	}
	if m := qrSVG.FindStringSubmatch(string(h.do("GET", "/v/"+token(t, v)+"/qr.svg", "").body)); m == nil || m[2] != web.T("en", "handoff.qr") {
		t.Errorf("neutral QR label: %v", m)
	}
}
