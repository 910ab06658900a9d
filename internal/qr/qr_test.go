package qr_test

import (
	"encoding/base64"
	"encoding/xml"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/qr"
	"github.com/idgate/idgate/internal/qr/qrtest"
)

var pathAlphabet = regexp.MustCompile(`^[0-9Mhvz -]+$`)

// Codes read back, from one byte to MaxLen, non-ASCII included, each
// inside its quiet zone and in the smallest version that holds it.
func TestReadBack(t *testing.T) {
	for _, n := range []int{1, 14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 300, qr.MaxLen} {
		text := strings.Repeat("x", n)
		if n >= 26 {
			text = "https://v.example/v/" + strings.Repeat("x", n-20-2) + "é"
		}
		c, err := qr.New(text)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !pathAlphabet.MatchString(c.Path) {
			t.Fatalf("%d bytes: path has other characters: %.40q", n, c.Path)
		}
		img, err := qrtest.Draw(c, 4)
		if err != nil {
			t.Fatal(err)
		}
		got, err := qrtest.Read(img)
		if err != nil || got != text {
			t.Fatalf("%d bytes (%d modules): read %q, %v", n, c.Size, got, err)
		}
		version := (c.Size - 8 - 17) / 4
		if (c.Size-8-17)%4 != 0 || version < 1 || version > 40 {
			t.Fatalf("%d bytes: size %d is no QR version", n, c.Size)
		}
		t.Logf("%3d bytes: version %2d, %d modules with the quiet zone, path %d bytes", n, version, c.Size, len(c.Path))
	}
}

// A verification link fits version 4 at level M (the size the widget
// shows at 164 px, 4.9 px a module, read by phone cameras).
func TestLinkIsSmall(t *testing.T) {
	c, err := qr.New("https://verify.idgate.example/v/vrf_01JD8T3Y6W0Q9M2K7H5C4B1A0Z")
	if err != nil {
		t.Fatal(err)
	}
	if c.Size != 33+8 {
		t.Fatalf("a 64-byte link draws %d modules, want version 4 (41 with the quiet zone)", c.Size)
	}
}

func TestQuietZone(t *testing.T) {
	c, err := qr.New("https://v.example/v/1")
	if err != nil {
		t.Fatal(err)
	}
	img, err := qrtest.Draw(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for y := range c.Size {
		for x := range c.Size {
			inside := x >= 4 && y >= 4 && x < c.Size-4 && y < c.Size-4
			if r, _, _, _ := img.At(x, y).RGBA(); !inside && r == 0 {
				t.Fatalf("dark module at %d,%d in the quiet zone", x, y)
			}
		}
	}
	// The finder pattern's corner is dark, its separator light.
	if r, _, _, _ := img.At(4, 4).RGBA(); r != 0 {
		t.Fatal("top-left finder corner is light")
	}
}

func TestRefused(t *testing.T) {
	for _, text := range []string{"", strings.Repeat("x", qr.MaxLen+1)} {
		if c, err := qr.New(text); err == nil {
			t.Fatalf("%d bytes drew a %d-module code", len(text), c.Size)
		}
	}
}

// The SVG is one svg element holding a white rect and the path; the
// label is escaped; the text itself never appears.
func TestSVG(t *testing.T) {
	text := `https://v.example/v/"><script>alert(1)</script>`
	c, err := qr.New(text)
	if err != nil {
		t.Fatal(err)
	}
	label := `Scan "me" <b>& go</b>`
	svg := c.SVG(label)
	if strings.Contains(svg, "script") || strings.Contains(svg, "<b>") {
		t.Fatalf("markup leaked into the SVG: %s", svg)
	}
	d := xml.NewDecoder(strings.NewReader(svg))
	var names []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		names = append(names, se.Name.Local)
		for _, a := range se.Attr {
			switch {
			case se.Name.Local == "svg" && a.Name.Local == "aria-label" && a.Value != label:
				t.Fatalf("aria-label reads %q, want %q", a.Value, label)
			case se.Name.Local == "path" && a.Name.Local == "d" && a.Value != c.Path:
				t.Fatal("path data changed on the way into the SVG")
			}
		}
	}
	if strings.Join(names, ",") != "svg,rect,path" {
		t.Fatalf("elements %v, want svg,rect,path", names)
	}
}

// Links as the verifier makes them (a random 32-byte token) read back at
// the scales the tests draw and screenshot them: gozxing's finder-pattern
// search alone missed about 2 % of these, which made every test that reads
// a link back fail now and then; qrtest.Read must read them all. The
// tokens come from a fixed seed, so a failure names the same link again.
func TestReadsRandomLinks(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'i', 'd', 'g', 'a', 't', 'e'}))
	token := make([]byte, 32)
	for range 150 {
		for i := range token {
			token[i] = byte(r.Uint32())
		}
		link := "http://127.0.0.1:8080/v/" + base64.RawURLEncoding.EncodeToString(token)
		c, err := qr.New(link)
		if err != nil {
			t.Fatal(err)
		}
		for _, scale := range []int{3, 4, 5} {
			img, err := qrtest.Draw(c, scale)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := qrtest.Read(img); err != nil || got != link {
				t.Errorf("%s at %d px per module: read %q, %v", link, scale, got, err)
			}
		}
	}
}

// New never panics; what it draws is made of runs inside the code, and
// printable ASCII reads back (testdata/fuzz/FuzzNew keeps two valid codes
// that gozxing's finder-pattern search alone could not read, qrtest.Read).
func FuzzNew(f *testing.F) {
	f.Add("https://v.example/v/abc")
	f.Add("é\x00\xff")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := qr.New(text)
		if err != nil {
			return
		}
		img, err := qrtest.Draw(c, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`^[ -~]+$`).MatchString(text) {
			return
		}
		if got, err := qrtest.Read(img); err != nil || got != text {
			t.Fatalf("read %q, %v", got, err)
		}
	})
}
