package cardtest

import (
	"fmt"
	"image"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Front is what a card prints in its personal-data zone, line by line, in
// the AAMVA labelled style (FrontLines). A Scene with Lines set prints
// them instead of the text-like bars.
type Front struct {
	Lines []string
	// Fields, when set, are printed instead of Lines as an ID card's
	// front prints them (ICAO 9303 TD1, Doc 9303 Part 5): each caption
	// (small, regular: CaptionSize) over its value (Size, bold), one field
	// under another.
	Fields [][2]string
	// Size is the font's em in card pixels (0 = DefaultTextSize).
	Size float64
	// Smudge, from 0 to 1, smears the print (a blur of up to 5 px, 0.5 mm)
	// and fades it toward the card stock (up to halfway): a worn, rubbed
	// or laminate-scratched front; from about 0.6 nothing can be read.
	Smudge float64
}

// DefaultTextSize: a 26 px em at 10 px/mm is 2.6 mm, a capital about
// 1.9 mm high, as licenses print their data fields.
const DefaultTextSize = 26

// CaptionSize is a Fields caption's em: 1.6 mm, as mrztest prints a data
// page's captions (ID cards print theirs 1.2-1.8 mm).
const CaptionSize = 16

// Where the personal-data zone starts, in card pixels of the upright
// card, and the line pitch: right of the portrait in the horizontal
// layout, under it in the vertical one (where the bars are otherwise).
var (
	TextOrigin         = image.Pt(330, 140)
	VerticalTextOrigin = image.Pt(40, 470)
	LinePitch          = 46
)

// FrontLines prints l as an AAMVA card does: numbered field labels (1
// family name, 2 given names, 3 date of birth, 4a issue, 4b expiry, 4d
// number) with their word labels, dates MM/DD/YYYY (YYYY/MM/DD in Canada).
func FrontLines(l license.License) []string {
	date := func(d license.Date) string {
		if l.Country == "CAN" {
			return fmt.Sprintf("%04d/%02d/%02d", d.Year, int(d.Month), d.Day)
		}
		return fmt.Sprintf("%02d/%02d/%04d", int(d.Month), d.Day, d.Year)
	}
	given := l.FirstNames
	if l.MiddleNames != "" {
		given += " " + l.MiddleNames
	}
	lines := []string{
		"4d DLN " + l.DocumentNumber,
		"1 " + l.LastName,
		"2 " + given,
		"8 " + l.Address.Line1,
		"3 DOB " + date(l.DOB),
	}
	if !l.IssueDate.IsZero() {
		lines = append(lines, "4a ISS "+date(l.IssueDate))
	}
	return append(lines, "4b EXP "+date(l.ExpiryDate), fmt.Sprintf("15 SEX %s 18 EYES %s", l.Sex, l.EyeColor))
}

// textScale is how much finer than the card the text mask is drawn, so
// sampling it through the perspective is anti-aliased.
const textScale = 2

var (
	fontsOnce         sync.Once
	labelFace, valueF *opentype.Font
)

// textMask draws the lines (labels regular, values bold, as cards do)
// into a coverage mask textScale times the card's resolution, upright.
func (f *Front) textMask(vertical bool) *image.Alpha {
	fontsOnce.Do(func() {
		var err error
		if labelFace, err = opentype.Parse(goregular.TTF); err != nil {
			panic(err)
		}
		if valueF, err = opentype.Parse(gobold.TTF); err != nil {
			panic(err)
		}
	})
	size := f.Size
	if size == 0 {
		size = DefaultTextSize
	}
	w, h, o := card.Width, card.Height, TextOrigin
	if vertical {
		w, h, o = card.Height, card.Width, VerticalTextOrigin
	}
	mask := image.NewAlpha(image.Rect(0, 0, w*textScale, h*textScale))
	opt := &opentype.FaceOptions{Size: size * textScale, DPI: 72, Hinting: font.HintingNone}
	regular, err := opentype.NewFace(labelFace, opt)
	if err != nil {
		panic(err)
	}
	bold, err := opentype.NewFace(valueF, opt)
	if err != nil {
		panic(err)
	}
	if len(f.Fields) > 0 {
		f.drawFields(mask, o, bold, size)
	}
	for i, line := range f.Lines {
		if len(f.Fields) > 0 {
			break // Fields are printed instead
		}
		d := &font.Drawer{Dst: mask, Src: image.Opaque,
			Dot: fixed.P(o.X*textScale, (o.Y+i*LinePitch)*textScale+int(size*textScale*0.75))}
		for j, word := range splitKeep(line) {
			d.Face = bold
			if isLabel(word) {
				d.Face = regular
			}
			if j > 0 {
				d.DrawString(" ")
			}
			d.DrawString(word)
		}
	}
	if f.Smudge > 0 {
		sm := math.Min(f.Smudge, 1)
		g := &image.Gray{Pix: mask.Pix, Stride: mask.Stride, Rect: mask.Rect}
		b := raster.GaussianBlur(g, 5*textScale*sm)
		for i, a := range b.Pix {
			mask.Pix[i] = uint8(float64(a) * (1 - sm/2))
		}
	}
	return mask
}

// drawFields draws Fields into mask from o: each caption in the regular
// face at CaptionSize, its value in bold at size, every baseline under the
// last by its face's em and a gap (a field takes about 6.5 mm at the
// default size).
func (f *Front) drawFields(mask *image.Alpha, o image.Point, bold font.Face, size float64) {
	small, err := opentype.NewFace(labelFace, &opentype.FaceOptions{Size: CaptionSize * textScale, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err)
	}
	y := float64(o.Y)
	for _, fv := range f.Fields {
		for _, t := range []struct {
			face        font.Face
			s           string
			size, after float64
		}{{small, fv[0], CaptionSize, 0.4 * CaptionSize}, {bold, fv[1], size, 0.6 * size}} {
			y += t.size * 0.8
			d := &font.Drawer{Dst: mask, Src: image.Opaque, Face: t.face, Dot: fixed.P(o.X*textScale, int(y*textScale))}
			d.DrawString(t.s)
			y += t.after
		}
	}
}

// isLabel tells the field labels (numbers like 4d, and capital words of
// up to 4 letters that FrontLines uses) from values.
func isLabel(w string) bool {
	switch w {
	case "1", "2", "3", "4a", "4b", "4d", "8", "15", "18", "DLN", "DOB", "ISS", "EXP", "SEX", "EYES":
		return true
	}
	return false
}

func splitKeep(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if r == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// textCover is the mask's coverage (0–1) at upright card coordinates,
// bilinear.
func textCover(m *image.Alpha, x, y float64) float64 {
	x, y = x*textScale-0.5, y*textScale-0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(px, py int) float64 {
		if !(image.Point{px, py}.In(m.Rect)) {
			return 0
		}
		return float64(m.Pix[py*m.Stride+px]) / 255
	}
	top := at(x0, y0)*(1-fx) + at(x0+1, y0)*fx
	bottom := at(x0, y0+1)*(1-fx) + at(x0+1, y0+1)*fx
	return top*(1-fy) + bottom*fy
}

// Alteration is one way a forged front disagrees with its barcode.
type Alteration string

// Alterations a forger makes: another holder's name, an older birth date,
// one digit of the number changed.
const (
	AlterLastName  Alteration = "last_name"
	AlterFirstName Alteration = "first_name"
	AlterDOB       Alteration = "date_of_birth"
	AlterNumber    Alteration = "document_number"
	AlterExpiry    Alteration = "expiry_date"
)

// Alterations lists them all.
var Alterations = []Alteration{AlterLastName, AlterFirstName, AlterDOB, AlterNumber, AlterExpiry}

// Altered is l with one field changed as a forged front prints it: the
// last name MORGAN (or HOLLOWAY when it was MORGAN), the first name
// ROBERT (or DANIEL), the birth year three earlier, the expiry year four
// later, or the number's last digit moved by four (7 goes to 2: 1 and 7
// are the one pair of digits OCR confuses).
func Altered(l license.License, a Alteration) license.License {
	other := func(cur, name, alt string) string {
		if cur == name {
			return alt
		}
		return name
	}
	switch a {
	case AlterLastName:
		l.LastName = other(l.LastName, "MORGAN", "HOLLOWAY")
	case AlterFirstName:
		l.FirstNames, l.MiddleNames = other(l.FirstNames, "ROBERT", "DANIEL"), ""
	case AlterDOB:
		l.DOB.Year -= 3
	case AlterExpiry:
		l.ExpiryDate.Year += 4
	case AlterNumber:
		n := []byte(l.DocumentNumber)
		for i := len(n) - 1; i >= 0; i-- {
			if n[i] >= '0' && n[i] <= '9' {
				if n[i] == '7' {
					n[i] = '2'
				} else {
					n[i] = '0' + (n[i]-'0'+4)%10
				}
				break
			}
		}
		l.DocumentNumber = string(n)
	}
	return l
}
