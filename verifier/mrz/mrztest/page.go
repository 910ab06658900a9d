// Package mrztest renders what the MRZ reader is tested and measured on:
// data pages of passports (TD3) and cards (TD1) with their zone printed in
// OCR-B (Debian's fonts-ocr-b, through verifier/mrz/ocrb) beside a
// portrait, the visual inspection zone (the zone's own values under their
// captions, or tampered ones) in other fonts and a guilloche ground, and
// camera photos of them (scale, rotation, blur, light, noise, JPEG).
// Synthetic: no real data page could be had (docs/engines.md).
package mrztest

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// geometry is a format's page in millimetres (Doc 9303 Parts 4 and 5:
// TD3 125 × 88, TD1 85.6 × 53.98; the zone at 10 characters per inch, its
// lines 4.23 mm apart, the last baseline about 5 mm above the bottom edge,
// centred).
type geometry struct {
	w, h, lineGap, bottom float64
	chars                 int
}

var geometries = map[mrz.Format]geometry{
	mrz.TD3: {w: 125, h: 88, lineGap: 4.23, bottom: 5.5, chars: 44},
	mrz.TD1: {w: 85.6, h: 53.98, lineGap: 4.23, bottom: 4.5, chars: 30},
}

// pitchMM is the zone's character pitch: 10 per inch.
const pitchMM = 2.54

// Page renders the data page of format f carrying the zone lines, at
// pxPerMM pixels per millimetre, light ground, dark print (no lines: a page
// without its zone).
func Page(f *ocrb.Font, format mrz.Format, lines []string, pxPerMM float64, r *rand.Rand) (*image.Gray, error) {
	return PrintedPage(f, format, lines, nil, Print{}, pxPerMM, r)
}

// Print is how the zone came out of the issuer's printer.
type Print struct {
	// Weight is added to every stroke's width, mm (negative: thinner):
	// OCR-B's 0.35 mm stroke printed heavier or lighter, to the nearest
	// page pixel.
	Weight float64
	// Shift moves the zone from where the format puts it, mm right and
	// up: a zone printed (or pasted) out of its place.
	Shift [2]float64
	// VIZ, when set, changes the values the visual inspection zone prints
	// from the zone's own: a tampered page, whose printed data disagree
	// with its zone.
	VIZ func(*mrz.MRZ)
	// Rows prints the visual inspection zone as ICAO's specimen page lays
	// it out (Doc 9303 Part 4, Appendix A), several fields side by side on
	// a row (type, code and number; birth date and personal number; sex
	// and place of birth; issue and expiry dates), instead of one field
	// under another.
	Rows bool
	// NamesRow, with Rows, prints the surname and the given names side by
	// side on one row (as some issuers do) instead of one under the other.
	NamesRow bool
}

// RandomPrint draws a print: strokes up to 0.07 mm (a fifth) heavier or
// lighter.
func RandomPrint(r *rand.Rand) Print { return Print{Weight: 0.14*r.Float64() - 0.07} }

// PrintedPage is Page with face (a photo of a real face, in grey as the
// page) printed as its portrait instead of a shaded head, for the face
// engine to find (nil draws the shaded head), and the zone printed as p
// says.
func PrintedPage(f *ocrb.Font, format mrz.Format, lines []string, face image.Image, p Print, pxPerMM float64, r *rand.Rand) (*image.Gray, error) {
	geo, ok := geometries[format]
	if !ok {
		return nil, fmt.Errorf("mrztest: format %v", format)
	}
	w, h := int(geo.w*pxPerMM), int(geo.h*pxPerMM)
	page := image.NewGray(image.Rect(0, 0, w, h))
	paper := 225 + r.IntN(25)
	phase, freq := r.Float64()*6, 0.6+r.Float64()*0.6
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			// A guilloche: two crossing families of fine sine waves, the
			// security print every data page carries, a few levels darker.
			xm, ym := float64(x)/pxPerMM, float64(y)/pxPerMM
			a := math.Sin(ym*freq+3*math.Sin(xm*0.15+phase)) * math.Sin(xm*freq*0.8+2*math.Sin(ym*0.2))
			v := float64(paper) - 18*math.Max(0, a*a*a*a-0.3)
			page.Pix[y*page.Stride+x] = uint8(v)
		}
	}
	portrait(page, pxPerMM, geo, face, r)
	rows := stacked(vizValues(lines, p.VIZ))
	if p.Rows {
		rows = icaoRows(lines, p.VIZ, p.NamesRow)
	}
	if err := fields(page, pxPerMM, geo, rows); err != nil {
		return nil, err
	}
	ink := uint8(20 + r.IntN(40))
	left := (geo.w-float64(geo.chars)*pitchMM)/2 + p.Shift[0]
	// The zone is drawn black on white, weighted, then printed in ink
	// over the ground.
	layer := raster.New(w, h, 255)
	for i, line := range lines {
		base := geo.h - geo.bottom - float64(len(lines)-1-i)*geo.lineGap - p.Shift[1]
		if err := f.Draw(layer, line, left*pxPerMM, base*pxPerMM, pitchMM*pxPerMM, image.Black); err != nil {
			return nil, err
		}
	}
	if k := int(math.Round(p.Weight / 2 * pxPerMM)); k != 0 && len(lines) > 0 {
		top := int((geo.h - geo.bottom - float64(len(lines))*geo.lineGap - p.Shift[1]) * pxPerMM)
		weigh(layer, max(0, top), k)
	}
	for i, v := range layer.Pix {
		if v < 255 {
			a := float64(v) / 255
			page.Pix[i] = uint8(float64(page.Pix[i])*a + float64(ink)*(1-a))
		}
	}
	return page, nil
}

// weigh thickens the dark print of g's rows from top down by k pixels
// each side (a minimum filter), or thins it by -k (a maximum filter),
// along rows then columns.
func weigh(g *image.Gray, top, k int) {
	pick := func(a, b uint8) uint8 { return min(a, b) }
	if k < 0 {
		k, pick = -k, func(a, b uint8) uint8 { return max(a, b) }
	}
	w, h := g.Rect.Dx(), g.Rect.Dy()
	tmp := make([]uint8, max(w, h))
	for y := top; y < h; y++ {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := range row {
			v := row[x]
			for d := max(0, x-k); d <= min(w-1, x+k); d++ {
				v = pick(v, row[d])
			}
			tmp[x] = v
		}
		copy(row, tmp[:w])
	}
	for x := 0; x < w; x++ {
		for y := top; y < h; y++ {
			v := g.Pix[y*g.Stride+x]
			for d := max(top, y-k); d <= min(h-1, y+k); d++ {
				v = pick(v, g.Pix[d*g.Stride+x])
			}
			tmp[y] = v
		}
		for y := top; y < h; y++ {
			g.Pix[y*g.Stride+x] = tmp[y]
		}
	}
}

// portrait draws a shaded head and shoulders, or face, where the format
// puts the portrait (left, above the zone): a dark mass the zone finder
// must not take for text.
func portrait(page *image.Gray, px float64, geo geometry, face image.Image, r *rand.Rand) {
	x0, y0 := 5*px, 8*px
	pw, ph := geo.w*0.26*px, (geo.h-geo.bottom-3*geo.lineGap-12)*px
	if face != nil {
		// The photo scaled to the portrait's width, its top at the box's.
		b := face.Bounds()
		h := math.Min(ph, pw*float64(b.Dy())/float64(b.Dx()))
		dst := image.Rect(int(x0), int(y0), int(x0+pw), int(y0+h))
		draw.CatmullRom.Scale(page, dst, face, b, draw.Src, nil)
		return
	}
	bg := 150 + r.Float64()*60
	for y := int(y0); y < int(y0+ph); y++ {
		for x := int(x0); x < int(x0+pw); x++ {
			u, v := (float64(x)-x0)/pw-0.5, (float64(y)-y0)/ph
			val := bg
			if head := u*u/0.09 + (v-0.38)*(v-0.38)/0.08; head < 1 {
				val = 90 + 60*head
			} else if v > 0.7 && math.Abs(u) < 0.45 {
				val = 60
			}
			page.Pix[y*page.Stride+x] = uint8(val + r.Float64()*12)
		}
	}
}

// fields prints the visual inspection zone right of the portrait in the
// Go fonts, as data pages print it in their own typefaces: each field's
// caption (English / French, small, regular) over its value (larger,
// bold, as the license fronts of cardtest print theirs), a row of fields
// under another (Doc 9303 Part 4, zone II), a row's fields at the
// columns' places (mm from the row's left).
func fields(page *image.Gray, px float64, geo geometry, rows []row) error {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return err
	}
	small, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 1.6 * px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return err
	}
	defer small.Close()
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return err
	}
	big, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: 2.8 * px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return err
	}
	defer big.Close()
	x := (5 + geo.w*0.26 + 4) * px
	y := 10 * px
	for _, r := range rows {
		if y > (geo.h-geo.bottom-3*geo.lineGap-4)*px {
			break
		}
		for i, fv := range r.cells {
			yy := y
			for _, t := range []struct {
				face font.Face
				s    string
				gap  float64
			}{{small, fv[0], 3.2}, {big, fv[1], 4.4}} {
				d := font.Drawer{Dst: page, Src: image.NewUniform(color.Gray{40}), Face: t.face,
					Dot: fixed.Point26_6{X: fixed.Int26_6((x + r.at[i]*px) * 64), Y: fixed.Int26_6(yy * 64)}}
				d.DrawString(t.s)
				yy += t.gap * px
			}
		}
		y += (3.2 + 4.4) * px
	}
	return nil
}

// row is one row of the visual inspection zone: its fields (caption,
// value) and where each starts, mm from the row's left.
type row struct {
	cells [][2]string
	at    []float64
}

// stacked is one field a row.
func stacked(values [][2]string) []row {
	out := make([]row, len(values))
	for i, v := range values {
		out[i] = row{cells: [][2]string{v}, at: []float64{0}}
	}
	return out
}

// icaoRows are the specimen page's rows (Print.Rows) for the zone lines,
// tampered as VIZValues is: type, code and number; surname; given names;
// nationality; birth date and personal number; sex and place of birth;
// issue date (ten years before expiry) and expiry date; with namesRow,
// the surname and the given names on one row.
func icaoRows(lines []string, tamper func(*mrz.MRZ), namesRow bool) []row {
	v := VIZValues(lines, tamper, nil, time.Now())
	m, err := mrz.Parse(strings.Join(lines, "\n"))
	if err != nil {
		m, _ = mrz.Parse(specimenTD3)
	}
	issue := v[4][:len(v[4])-4] + fmt.Sprint(atoiTail(v[4])-10)
	sex := m.Sex
	if sex == "" {
		sex = "X"
	}
	names := []row{
		{cells: [][2]string{{"Surname / Nom", v[1]}}, at: []float64{0}},
		{cells: [][2]string{{"Given names / Prénoms", v[2]}}, at: []float64{0}},
	}
	if namesRow {
		names = []row{{cells: [][2]string{{"Surname / Nom", v[1]}, {"Given names / Prénoms", v[2]}}, at: []float64{0, 36}}}
	}
	return append(append([]row{
		{cells: [][2]string{{"Type / Type", m.DocumentCode}, {"Code / Code", m.IssuingState}, {"Passport No. / No. du passeport", v[0]}}, at: []float64{0, 16, 32}},
	}, names...), []row{
		{cells: [][2]string{{"Nationality / Nationalité", m.Nationality}}, at: []float64{0}},
		{cells: [][2]string{{"Date of birth / Date de naissance", v[3]}, {"Personal No. / No personnel", m.OptionalData}}, at: []float64{0, 44}},
		{cells: [][2]string{{"Sex / Sexe", sex}, {"Place of birth / Lieu de naissance", "ZENITH"}}, at: []float64{0, 22}},
		{cells: [][2]string{{"Date of issue / Date de délivrance", issue}, {"Date of expiry / Date d'expiration", v[4]}}, at: []float64{0, 44}},
	}...)
}

// atoiTail is the number s ends with (a printed date's four-digit year).
func atoiTail(s string) int {
	n, mul := 0, 1
	for i := len(s) - 1; i >= 0 && s[i] >= '0' && s[i] <= '9'; i-- {
		n += int(s[i]-'0') * mul
		mul *= 10
	}
	return n
}

// VIZCaptions are the captions the visual inspection zone prints over its
// values, in the order of VIZValues.
var VIZCaptions = []string{"Passport No. / No. du passeport", "Surname / Nom", "Given names / Prénoms",
	"Date of birth / Date de naissance", "Date of expiry / Date d'expiration"}

// CardCaptions are the captions an ID card's front prints over the same
// values (Doc 9303 Part 5): the card's number, then as a data page.
var CardCaptions = append([]string{"Card No. / No. de la carte"}, VIZCaptions[1:]...)

// CardFields are the captioned fields of an ID card's front whose back
// carries the zone lines: captions (nil: CardCaptions; in the order of
// VIZValues) over VIZValues on today (changed by tamper, the dates as date
// prints them, each when set), for cardtest.Front's Fields.
func CardFields(captions, lines []string, tamper func(*mrz.MRZ), date func(license.Date) string) [][2]string {
	if captions == nil {
		captions = CardCaptions
	}
	var out [][2]string
	for i, v := range VIZValues(lines, tamper, date, time.Now()) {
		out = append(out, [2]string{captions[i], v})
	}
	return out
}

// specimenTD3 is ICAO's specimen zone (Doc 9303 Part 4, Appendix A).
const specimenTD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"

// VIZValues are the values the visual inspection zone of a page carrying
// the zone lines prints, as Doc 9303 prints them: the document number, the
// surname, the given names, and the dates of birth and expiry as day,
// month's abbreviation and four-digit year (the centuries as
// mrz.Document chooses them on the day of now), or as date prints them
// when set. tamper, when set, changes them first. A zone that does not
// parse (a test's broken check digit) prints the ICAO specimen's values,
// as does a page without a zone.
func VIZValues(lines []string, tamper func(*mrz.MRZ), date func(license.Date) string, now time.Time) []string {
	m, err := mrz.Parse(strings.Join(lines, "\n"))
	if err != nil {
		m, _ = mrz.Parse(specimenTD3)
	}
	if tamper != nil {
		tamper(m)
	}
	l := mrz.NewDocument(*m, now).License()
	if date == nil {
		date = func(d license.Date) string {
			return fmt.Sprintf("%02d %s %04d", d.Day, strings.ToUpper(d.Month.String()[:3]), d.Year)
		}
	}
	return []string{m.DocumentNumber, m.Surname, m.GivenNames, date(l.DOB), date(l.ExpiryDate)}
}

// vizValues pairs VIZValues (on today) with their captions (a page
// without its zone prints the specimen's: text the zone finder must not
// take for a zone).
func vizValues(lines []string, tamper func(*mrz.MRZ)) [][2]string {
	var out [][2]string
	for i, v := range VIZValues(lines, tamper, nil, time.Now()) {
		out = append(out, [2]string{VIZCaptions[i], v})
	}
	return out
}

// Width is the format's page width in millimetres.
func Width(f mrz.Format) float64 { return geometries[f].w }
