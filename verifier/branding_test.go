package verifier_test

import (
	"bytes"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// fieldCodes maps each broken field to its code.
func fieldCodes(t *testing.T, err error) map[string]string {
	t.Helper()
	var ve *verifier.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a *ValidationError, got %v", err)
	}
	out := map[string]string{}
	for _, f := range ve.Fields {
		out[f.Field] = f.Code
	}
	return out
}

func TestBrandingApplyValidates(t *testing.T) {
	good := verifier.BrandingPatch{DisplayName: ptr("  Acme Wines "), AccentColor: ptr("#1947C2"),
		SupportContact: ptr("help@acme.example"), PrivacyPolicyURL: ptr("https://acme.example/privacy")}
	var b verifier.Branding
	if err := b.Apply(good); err != nil {
		t.Fatal(err)
	}
	if b.DisplayName != "Acme Wines" || b.AccentColor != "#1947c2" || b.SupportContact != "help@acme.example" || b.PrivacyPolicyURL != "https://acme.example/privacy" {
		t.Fatalf("applied %+v", b)
	}
	if err := b.Apply(verifier.BrandingPatch{SupportContact: ptr("https://acme.example/help")}); err != nil || b.SupportContact != "https://acme.example/help" {
		t.Fatalf("an https contact: %v, %+v", err, b)
	}
	if err := b.Apply(verifier.BrandingPatch{AccentColor: ptr(""), PrivacyPolicyURL: ptr("")}); err != nil || b.AccentColor != "" || b.PrivacyPolicyURL != "" {
		t.Fatalf(`"" clears: %v, %+v`, err, b)
	}

	before := b
	err := b.Apply(verifier.BrandingPatch{
		DisplayName:      ptr(strings.Repeat("n", verifier.MaxDisplayNameLen+1)),
		AccentColor:      ptr("#ffcc00"), // yellow on white: 1.6:1
		SupportContact:   ptr("javascript:alert(1)"),
		PrivacyPolicyURL: ptr("http://acme.example/privacy"),
	})
	want := map[string]string{"branding.display_name": "too_long", "branding.accent_color": "low_contrast",
		"branding.support_contact": "invalid_url", "branding.privacy_policy_url": "must_be_https"}
	if got := fieldCodes(t, err); len(got) != len(want) {
		t.Errorf("codes %v, want %v", got, want)
	} else {
		for f, c := range want {
			if got[f] != c {
				t.Errorf("%s: code %q, want %q", f, got[f], c)
			}
		}
	}
	if b != before {
		t.Errorf("a refused patch changed the branding: %+v", b)
	}

	for _, tc := range []struct {
		p     verifier.BrandingPatch
		field string
		code  string
	}{
		{verifier.BrandingPatch{DisplayName: ptr("   ")}, "branding.display_name", "required"},
		{verifier.BrandingPatch{DisplayName: ptr("Acme\x1b[31m")}, "branding.display_name", "invalid_text"},
		{verifier.BrandingPatch{AccentColor: ptr("blue")}, "branding.accent_color", "invalid_color"},
		{verifier.BrandingPatch{AccentColor: ptr("#777777")}, "branding.accent_color", "low_contrast"}, // 4.48:1
		{verifier.BrandingPatch{SupportContact: ptr("not an address")}, "branding.support_contact", "invalid_url"},
		{verifier.BrandingPatch{SupportContact: ptr("Help <help@acme.example>")}, "branding.support_contact", "invalid_contact"},
		{verifier.BrandingPatch{PrivacyPolicyURL: ptr("https://user:pw@acme.example/")}, "branding.privacy_policy_url", "invalid_url"},
		{verifier.BrandingPatch{PrivacyPolicyURL: ptr("https:///privacy")}, "branding.privacy_policy_url", "invalid_url"},
		{verifier.BrandingPatch{PrivacyPolicyURL: ptr("https://acme.example/" + strings.Repeat("p", 2048))}, "branding.privacy_policy_url", "too_long"},
	} {
		if got := fieldCodes(t, b.Apply(tc.p)); got[tc.field] != tc.code || len(got) != 1 {
			t.Errorf("%+v: %v, want %s %s", tc.p, got, tc.field, tc.code)
		}
	}
	if err := b.Apply(verifier.BrandingPatch{AccentColor: ptr("#767676")}); err != nil { // 4.54:1, the lightest grey that passes
		t.Errorf("#767676 refused: %v", err)
	}
}

func TestContrastRatioMatchesWCAG(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	for _, tc := range []struct {
		a    color.RGBA
		want float64
	}{{black, 21}, {white, 1}, {color.RGBA{0x76, 0x76, 0x76, 255}, 4.54}, {color.RGBA{0x77, 0x77, 0x77, 255}, 4.48}} {
		if got := verifier.ContrastRatio(tc.a, white); got < tc.want-0.005 || got > tc.want+0.005 {
			t.Errorf("contrast %v on white = %.3f, want %.2f", tc.a, got, tc.want)
		}
	}
}

// logoPNG is a w×h picture: an opaque blue square on a transparent
// ground.
func logoImage(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			if x > w/4 && x < 3*w/4 && y > h/4 && y < 3*h/4 {
				m.SetNRGBA(x, y, color.NRGBA{0x19, 0x47, 0xc2, 0xff})
			}
		}
	}
	return m
}

func encodePNG(t *testing.T, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestNewLogoRefuses(t *testing.T) {
	noise := make([]byte, verifier.MaxLogoBytes+1)
	for i := range noise {
		noise[i] = byte(i * 7919 >> 3)
	}
	// A PNG header declaring 4000×100 pixels: refused before decoding.
	wide := encodePNG(t, image.NewGray(image.Rect(0, 0, 4000, 100)))
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"oversized file":  {append(encodePNG(t, logoImage(64, 64)), noise...), verifier.ErrLogoTooLarge},
		"too many pixels": {wide, verifier.ErrLogoTooLarge},
		"too small":       {encodePNG(t, logoImage(8, 8)), verifier.ErrLogoFormat},
		"too long":        {encodePNG(t, logoImage(900, 100)), verifier.ErrLogoFormat},
		"not an image":    {[]byte("%PDF-1.7\n1 0 obj <<>> endobj\n"), verifier.ErrLogoFormat},
		"empty":           {nil, verifier.ErrLogoFormat},
		"truncated PNG":   {encodePNG(t, logoImage(64, 64))[:80], verifier.ErrLogoFormat},
		"SVG": {[]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(document.cookie)</script>` +
			`<rect width="64" height="64" fill="#1947c2"/></svg>`), verifier.ErrLogoFormat},
		// GIF is not among the formats, even a valid one with a script
		// after it (a GIF/JavaScript polyglot).
		"GIF polyglot": {[]byte("GIF89a/*\x10\x00\x10\x00\x00\x00\x00;*/=alert(1)//;"), verifier.ErrLogoFormat},
	} {
		if _, err := verifier.NewLogo(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
}

// TestNewLogoReencodes: a PNG carrying a script twice — in a text chunk
// and appended after its end, where a browser sniffing it as HTML would
// find it — comes out as our own PNG of the same pixels with neither.
func TestNewLogoReencodes(t *testing.T) {
	src := logoImage(120, 40)
	raw := encodePNG(t, src)
	script := []byte("<script>alert(document.domain)</script>")
	// A tEXt chunk (with a correct CRC) before IEND.
	iend := bytes.LastIndex(raw, []byte("IEND")) - 4
	poly := append(append(append([]byte{}, raw[:iend]...), textChunk("Comment", script)...), raw[iend:]...)
	poly = append(poly, script...)
	if _, err := png.Decode(bytes.NewReader(poly)); err != nil {
		t.Fatalf("the polyglot is not a PNG Go reads: %v", err)
	}
	l, err := verifier.NewLogo(poly)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(l.Body, []byte("<script")) || bytes.Contains(l.Body, []byte("tEXt")) {
		t.Error("the stored logo still carries the script or the text chunk")
	}
	if bytes.Equal(l.Body, poly) || l.ContentType != "image/png" || l.Width != 120 || l.Height != 40 || len(l.SHA256) != 64 {
		t.Errorf("logo %+v (%d bytes)", l.LogoRef, len(l.Body))
	}
	got, err := png.Decode(bytes.NewReader(l.Body))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{{60, 20}, {2, 2}} {
		wr, wg, wb, wa := src.At(p.X, p.Y).RGBA()
		gr, gg, gb, ga := got.At(p.X, p.Y).RGBA()
		if wr>>8 != gr>>8 || wg>>8 != gg>>8 || wb>>8 != gb>>8 || wa>>8 != ga>>8 {
			t.Errorf("pixel %v: %v, want %v", p, got.At(p.X, p.Y), src.At(p.X, p.Y))
		}
	}
}

func TestNewLogoFitsTheBox(t *testing.T) {
	var j bytes.Buffer
	if err := jpeg.Encode(&j, logoImage(1600, 400), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	l, err := verifier.NewLogo(j.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if l.Width != 480 || l.Height != 120 || l.ContentType != "image/png" {
		t.Errorf("a 1600×400 JPEG became %d×%d %s, want 480×120 image/png", l.Width, l.Height, l.ContentType)
	}
}

// TestNewLogoWebPKeepsTransparency: a lossy WebP with alpha (libwebp's
// cwebp) keeps its transparent ground and its colour.
func TestNewLogoWebPKeepsTransparency(t *testing.T) {
	tool := testkit.Tool(t, "cwebp") // Debian package webp
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.png"), filepath.Join(dir, "out.webp")
	if err := os.WriteFile(in, encodePNG(t, logoImage(96, 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(tool, "-quiet", "-q", "90", in, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("cwebp: %v %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	l, err := verifier.NewLogo(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(l.Body))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := got.At(3, 3).RGBA(); a != 0 {
		t.Errorf("the transparent ground came out with alpha %d", a>>8)
	}
	c := color.NRGBAModel.Convert(got.At(48, 32)).(color.NRGBA)
	if c.A != 255 || absDiff(c.R, 0x19) > 6 || absDiff(c.G, 0x47) > 6 || absDiff(c.B, 0xc2) > 6 {
		t.Errorf("the blue square came out %v, want about #1947c2", c)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// textChunk is a PNG tEXt chunk with a correct CRC.
func textChunk(key string, text []byte) []byte {
	data := append(append([]byte(key), 0), text...)
	var b bytes.Buffer
	n := len(data)
	b.Write([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	body := append([]byte("tEXt"), data...)
	b.Write(body)
	c := crc32.ChecksumIEEE(body)
	b.Write([]byte{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c)})
	return b.Bytes()
}
