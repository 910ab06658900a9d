// branding.go: who is asking. An account's display name, accent colour,
// support contact, privacy-policy URL and logo, shown on every end-user
// page of its links so a careful person can tell the request from a
// phishing page. Templates carry none of it: a template may
// change the message, never the identity.

package verifier

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // the logo formats we accept
	"image/png"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier/imgio"
)

// Branding is the requester's identity on its links' pages. Every field is
// optional: an account made before display names existed has none, its
// pages keep the neutral "Verify your identity", and creating a
// verification never depends on any of it.
type Branding struct {
	// DisplayName is how the pages name the requester ("Acme Wines asks
	// you to verify your identity"): 1 to 80 characters, no control ones.
	DisplayName string
	// AccentColor is "#rrggbb" (lower case) or "" for ours; it colours the
	// buttons (white text on it) and links (on the white page), so it must
	// reach WCAG AA's 4.5:1 against white.
	AccentColor string
	// SupportContact is an e-mail address or an https URL the end user can
	// reach the requester at.
	SupportContact string
	// PrivacyPolicyURL is the requester's privacy policy, https only.
	PrivacyPolicyURL string
	// Logo describes the stored logo (its bytes are read apart, GetAccountLogo);
	// zero when there is none.
	Logo LogoRef
}

// LogoRef is what the account row says of its logo: enough to link to it
// and to tell versions apart, without the bytes.
type LogoRef struct {
	SHA256        string // hex of the stored (re-encoded) bytes; "" when none
	ContentType   string // always image/png: we re-encode
	Width, Height int    // of the stored image
}

// Logo is a stored logo: our own PNG encoding of the uploaded picture.
type Logo struct {
	LogoRef
	Body []byte
}

// Bounds of branding input. The logo bounds are the upload's (512 KiB,
// 16 to 2048 px a side, at most 8:1) and the stored picture's (fitted in
// 480×160: twice the 40 px the header shows it at, for high-density
// screens; a wider logo than 3:1 is limited by its width).
const (
	MaxDisplayNameLen  = 80
	maxBrandingURLLen  = 2048
	MaxLogoBytes       = 512 << 10
	minLogoSide        = 16
	maxLogoSide        = 2048
	maxLogoAspect      = 8
	logoBoxW, logoBoxH = 480, 160
	// MinAccentContrast is WCAG 2.2 AA for normal text (SC 1.4.3).
	MinAccentContrast = 4.5
)

// pageBackground is the end-user pages' background (verifier/web's
// app.css, --bg), and the colour of the text on accent-coloured buttons.
var pageBackground = color.RGBA{0xff, 0xff, 0xff, 0xff}

// BrandingPatch changes some of the branding: a nil field is left as it
// is; "" clears an optional field (the display name cannot be cleared once
// given: the pages would fall back to a neutral heading nobody asked for).
type BrandingPatch struct {
	DisplayName      *string
	AccentColor      *string
	SupportContact   *string
	PrivacyPolicyURL *string
}

// lowered is *v in lower case (colours compare and store as #rrggbb).
func lowered(v *string) *string {
	if v == nil {
		return nil
	}
	l := strings.ToLower(*v)
	return &l
}

// Apply validates p and applies it to b; on any broken rule b is left as
// it was and a *ValidationError lists every one (fields named
// branding.<name>, as in the API's body).
func (b *Branding) Apply(p BrandingPatch) error {
	out := *b
	var ve ValidationError
	add := func(field, code, msg string) {
		ve.Fields = append(ve.Fields, problem.Detail{Field: "branding." + field, Code: code, Message: msg})
	}
	if p.DisplayName != nil {
		name := strings.TrimSpace(*p.DisplayName)
		if name == "" {
			add("display_name", "required", "a display name cannot be removed, only changed")
		} else if field, code, msg, ok := checkDisplayName(name); !ok {
			add(field, code, msg)
		}
		out.DisplayName = name
	}
	// The optional members: trimmed, checked unless "" (which clears).
	optional := func(field string, v *string, check func(string) (code, msg string), to *string) {
		if v == nil {
			return
		}
		s := strings.TrimSpace(*v)
		if s != "" {
			if code, msg := check(s); code != "" {
				add(field, code, msg)
			}
		}
		*to = s
	}
	optional("accent_color", lowered(p.AccentColor), checkAccent, &out.AccentColor)
	optional("support_contact", p.SupportContact, checkContact, &out.SupportContact)
	optional("privacy_policy_url", p.PrivacyPolicyURL, checkHTTPS, &out.PrivacyPolicyURL)
	if len(ve.Fields) > 0 {
		return &ve
	}
	*b = out
	return nil
}

func checkDisplayName(name string) (field, code, msg string, ok bool) {
	switch {
	case name == "":
		return "display_name", "required", "give the name your customers know you by", false
	case utf8.RuneCountInString(name) > MaxDisplayNameLen:
		return "display_name", "too_long", fmt.Sprintf("at most %d characters", MaxDisplayNameLen), false
	case !utf8.ValidString(name) || !controlFree(name, false):
		return "display_name", "invalid_text", "must be plain text without control characters", false
	}
	return "", "", "", true
}

// checkAccent: "#rrggbb" with at least 4.5:1 against the white page and
// the white button text.
func checkAccent(c string) (code, msg string) {
	rgb, ok := parseHexColor(c)
	if !ok {
		return "invalid_color", `must be a colour as "#rrggbb"`
	}
	if r := ContrastRatio(rgb, pageBackground); r < MinAccentContrast {
		return "low_contrast", fmt.Sprintf("contrast with the white page and button text is %.2f:1; WCAG AA needs at least %.1f:1 (choose a darker colour)", r, MinAccentContrast)
	}
	return "", ""
}

func parseHexColor(c string) (color.RGBA, bool) {
	if len(c) != 7 || c[0] != '#' {
		return color.RGBA{}, false
	}
	v, err := strconv.ParseUint(c[1:], 16, 32)
	if err != nil {
		return color.RGBA{}, false
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}, true
}

// ContrastRatio is WCAG 2.2's contrast ratio of two opaque colours, from
// 1 to 21.
func ContrastRatio(a, b color.RGBA) float64 {
	la, lb := relativeLuminance(a), relativeLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func relativeLuminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// checkContact: an e-mail address, or an https URL.
func checkContact(s string) (code, msg string) {
	if strings.Contains(s, "@") && !strings.Contains(s, "/") {
		if err := ValidateEmail(strings.ToLower(s)); err != nil {
			return "invalid_contact", "must be an e-mail address (help@example.com) or an https URL: " + err.Error()
		}
		return "", ""
	}
	if code, msg := checkHTTPS(s); code != "" {
		return code, "must be an e-mail address (help@example.com) or an https URL: " + msg
	}
	return "", ""
}

// checkHTTPS: an absolute https URL with a host, no credentials, at most
// 2048 bytes.
func checkHTTPS(s string) (code, msg string) {
	if len(s) > maxBrandingURLLen {
		return "too_long", fmt.Sprintf("at most %d characters", maxBrandingURLLen)
	}
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "" || !controlFree(s, false) || strings.ContainsAny(s, " <>\"'\\"):
		return "invalid_url", "must be an absolute https URL (https://example.com/privacy)"
	case !strings.EqualFold(u.Scheme, "https"):
		return "must_be_https", "must use https"
	case u.User != nil:
		return "invalid_url", "must not carry a user name or password"
	}
	return "", ""
}

// ContactHref is the link for a support contact: mailto: for an e-mail.
func ContactHref(contact string) string {
	if contact == "" {
		return ""
	}
	if _, err := mail.ParseAddress(contact); err == nil && !strings.Contains(contact, "/") {
		return "mailto:" + contact
	}
	return contact
}

// Logo errors (the API answers them as field errors on "logo").
var (
	ErrLogoFormat   = errors.New("logo must be a PNG, JPEG or WebP image")
	ErrLogoTooLarge = errors.New("logo too large")
)

// NewLogo checks an uploaded logo and re-encodes it as our own PNG: the
// bytes we serve are only pixels we drew, so nothing the upload carried
// besides its picture (metadata, a script appended or embedded for a
// polyglot file, an ICC profile, SVG markup) survives. SVG and anything
// but PNG, JPEG and WebP is refused; so is a file over MaxLogoBytes and a
// picture under 16 or over 2048 pixels a side or longer than 8:1 (the
// header's pixel bounds are checked before any pixel is decoded).
func NewLogo(data []byte) (Logo, error) {
	if len(data) > MaxLogoBytes {
		return Logo{}, fmt.Errorf("%w: %d bytes, at most %d", ErrLogoTooLarge, len(data), MaxLogoBytes)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg" && format != "webp") {
		return Logo{}, ErrLogoFormat
	}
	w, h := cfg.Width, cfg.Height
	switch {
	case w > maxLogoSide || h > maxLogoSide:
		return Logo{}, fmt.Errorf("%w: %d×%d pixels, at most %d a side", ErrLogoTooLarge, w, h, maxLogoSide)
	case w < minLogoSide || h < minLogoSide:
		return Logo{}, fmt.Errorf("%w: %d×%d pixels, at least %d a side", ErrLogoFormat, w, h, minLogoSide)
	case w > maxLogoAspect*h || h > maxLogoAspect*w:
		return Logo{}, fmt.Errorf("%w: %d×%d pixels is longer than %d:1", ErrLogoFormat, w, h, maxLogoAspect)
	}
	src, err := decodeLogo(data, format)
	if err != nil {
		return Logo{}, ErrLogoFormat
	}
	// Fit in the box, never enlarged; drawn onto a fresh NRGBA so the
	// PNG we write has nothing of the upload but its colours.
	scale := min(1, float64(logoBoxW)/float64(w), float64(logoBoxH)/float64(h))
	ow, oh := max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
	dst := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	draw.CatmullRom.Scale(dst, dst.Rect, src, src.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, dst); err != nil {
		return Logo{}, fmt.Errorf("encode logo: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return Logo{LogoRef: LogoRef{SHA256: hex.EncodeToString(sum[:]), ContentType: "image/png", Width: ow, Height: oh}, Body: buf.Bytes()}, nil
}

// decodeLogo decodes the picture upright (EXIF orientation applied, as
// browsers do) with its transparency. imgio expands a lossy WebP's studio
// range as browsers do (x/image/webp's own conversion flattens the
// contrast) but drops its alpha plane, which is put back here.
func decodeLogo(data []byte, format string) (image.Image, error) {
	img, err := imgio.DecodeImage(data, imgio.Limits{MaxBytes: MaxLogoBytes, MaxPixels: maxLogoSide * maxLogoSide})
	if err != nil || format != "webp" {
		return img, err
	}
	raw, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	m, ok := raw.(*image.NYCbCrA)
	rgba, isRGBA := img.(*image.RGBA)
	if !ok || !isRGBA || rgba.Rect.Size() != m.Rect.Size() {
		return img, nil // no alpha, or turned by EXIF: keep it opaque
	}
	out := image.NewNRGBA(image.Rect(0, 0, rgba.Rect.Dx(), rgba.Rect.Dy()))
	copy(out.Pix, rgba.Pix)
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			out.Pix[out.PixOffset(x, y)+3] = m.A[m.AOffset(m.Rect.Min.X+x, m.Rect.Min.Y+y)]
		}
	}
	return out, nil
}
