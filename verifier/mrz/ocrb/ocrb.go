// Package ocrb draws the characters of a machine-readable zone in OCR-B,
// the font ICAO Doc 9303 prescribes (Part 3, 4.1: ISO 1073-2 size 1, 10
// characters per inch), from Debian's fonts-ocr-b (scripts/deps.sh). Both
// sides of the MRZ reader use it: the reader's glyph templates, rendered at
// start-up, and the synthetic data pages of mrztest, so no glyph image is
// ever committed.
package ocrb

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// DebianPath is where fonts-ocr-b installs the regular weight.
const DebianPath = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"

// ErrNoFont: the font file is missing or not OpenType.
var ErrNoFont = errors.New("ocrb: no OCR-B font (install fonts-ocr-b: scripts/deps.sh)")

// Font is OCR-B, measured once.
type Font struct {
	sf     *sfnt.Font
	cff    *cff
	glyphs map[rune][]pathOp // the zone's characters' outlines, font units
	// advance and capHeight in font units: what sets a scale from a
	// character pitch.
	advance, capHeight float64
}

// Charset is what a zone may hold.
const Charset = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"

// Load reads the font at path (DebianPath on Debian) and the outlines of
// Charset.
func Load(path string) (*Font, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoFont, err)
	}
	sf, err := sfnt.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoFont, err)
	}
	t, err := cffTable(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoFont, err)
	}
	c, err := parseCFF(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoFont, err)
	}
	f := &Font{sf: sf, cff: c, glyphs: map[rune][]pathOp{}}
	var b sfnt.Buffer
	upem := fixed.Int26_6(sf.UnitsPerEm()) << 6
	for _, r := range Charset {
		g, err := sf.GlyphIndex(&b, r)
		if err != nil || g == 0 {
			return nil, fmt.Errorf("%w: no glyph for %q", ErrNoFont, r)
		}
		if f.glyphs[r], err = c.outline(int(g)); err != nil {
			return nil, fmt.Errorf("%w: %q: %v", ErrNoFont, r, err)
		}
		if r == '0' {
			adv, err := sf.GlyphAdvance(&b, g, upem, font.HintingNone)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrNoFont, err)
			}
			f.advance = fix(adv)
		}
	}
	for _, op := range f.glyphs['H'] {
		f.capHeight = max(f.capHeight, op.pts[0][1])
	}
	if f.advance <= 0 || f.capHeight <= 0 {
		return nil, fmt.Errorf("%w: no advance or cap height", ErrNoFont)
	}
	return f, nil
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }

// CapHeight is the height of a capital at the given pitch (pixels per
// character): the zone's line height as the reader measures it.
func (f *Font) CapHeight(pitch float64) float64 { return f.capHeight * pitch / f.advance }

// Draw writes text onto dst in OCR-B at the given pitch, one character
// every pitch pixels from x (its left edge) with its baseline at y, in
// colour ink (anti-aliased, over what dst holds). Characters outside
// Charset are ErrNoFont.
func (f *Font) Draw(dst draw.Image, text string, x, y, pitch float64, ink image.Image) error {
	scale := pitch / f.advance
	b := dst.Bounds()
	ras := vector.NewRasterizer(b.Dx(), b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	for i, c := range text {
		ops, ok := f.glyphs[c]
		if !ok {
			return fmt.Errorf("%w: no glyph for %q", ErrNoFont, c)
		}
		gx := x + float64(i)*pitch - ox
		pt := func(p [2]float64) (float32, float32) {
			return float32(gx + p[0]*scale), float32(y - oy - p[1]*scale)
		}
		for _, op := range ops {
			switch op.kind {
			case moveTo:
				ras.ClosePath()
				ras.MoveTo(pt(op.pts[0]))
			case lineTo:
				ras.LineTo(pt(op.pts[0]))
			case cubeTo:
				ax, ay := pt(op.pts[0])
				bx, by := pt(op.pts[1])
				cx, cy := pt(op.pts[2])
				ras.CubeTo(ax, ay, bx, by, cx, cy)
			}
		}
		ras.ClosePath()
	}
	ras.Draw(dst, b, ink, image.Point{})
	return nil
}
