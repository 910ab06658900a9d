// Package qr draws QR codes of links, such as the verification link a
// desktop shows for a phone to scan (the storefront widget, the end-user
// pages' desktop-to-phone handoff). Encoding is github.com/yeqown/go-qrcode;
// this package only turns its module grid into SVG path data.
//
// Injection: the text never reaches the markup. Path holds only numbers and
// the letters M, h, v, z, and SVG escapes the one caller string, the label.
package qr

import (
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// MaxLen bounds the text in bytes: links are far shorter, and a longer
// text would draw a code too dense to scan from a screen.
const MaxLen = 512

// quiet is the light border around the code, in modules (ISO/IEC 18004).
const quiet = 4

// Code is a QR code ready to draw.
type Code struct {
	// Size is the side in modules, quiet zone included: the viewBox is
	// "0 0 Size Size".
	Size int `json:"size"`
	// Path is SVG path data that fills the dark modules, one subpath per
	// horizontal run.
	Path string `json:"path"`
}

// New encodes text in byte mode at error-correction level M (15% of the
// code may be lost), in the smallest version that holds it.
func New(text string) (Code, error) {
	if text == "" {
		return Code{}, errors.New("qr: empty text")
	}
	if len(text) > MaxLen {
		return Code{}, fmt.Errorf("qr: text of %d bytes, at most %d", len(text), MaxLen)
	}
	q, err := qrcode.NewWith(text,
		qrcode.WithEncodingMode(qrcode.EncModeByte),
		qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return Code{}, fmt.Errorf("qr: %w", err)
	}
	var g grid
	if err := q.Save(&g); err != nil {
		return Code{}, fmt.Errorf("qr: %w", err)
	}
	var p strings.Builder
	for y, row := range g.bits {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			w := 1
			for x+w < len(row) && row[x+w] {
				w++
			}
			n := strconv.Itoa(w)
			p.WriteString("M" + strconv.Itoa(x+quiet) + " " + strconv.Itoa(y+quiet) + "h" + n + "v1h-" + n + "z")
			x += w
		}
	}
	return Code{Size: len(g.bits) + 2*quiet, Path: p.String()}, nil
}

// SVG is the code as an <svg> element, dark on white, scaling to its box,
// announced to assistive technology as an image named label.
func (c Code) SVG(label string) string {
	n := strconv.Itoa(c.Size)
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + n + " " + n + `" role="img" aria-label="` +
		html.EscapeString(label) + `" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path d="` +
		c.Path + `"/></svg>`
}

// grid receives the module grid from the encoder (its Writer interface).
type grid struct{ bits [][]bool }

func (g *grid) Write(m qrcode.Matrix) error { g.bits = m.Bitmap(); return nil }
func (g *grid) Close() error                { return nil }
