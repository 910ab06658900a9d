package cardtest

import (
	"image/color"
	"math"
)

// Design is how a card is printed: the colours and bands a jurisdiction
// chooses. The zero Scene.Design is Classic, the layout the tests were
// written on; Designs are the others the card finder is measured on.
type Design struct {
	Name string
	// Stock is the card's ground; with Stock2 set the ground is a
	// guilloche-like wave between the two.
	Stock, Stock2 color.RGBA
	// Band is the header band's colour; BandBleed runs it to the card's
	// top, left and right edges (full bleed) instead of inside a margin,
	// and Footer repeats it along the bottom edge.
	Band      color.RGBA
	BandBleed bool
	Footer    bool
	// Accents are thin lines printed edge to edge across the card.
	Accents []Accent
	// Ground is the portrait's background, Text the print's colour.
	Ground, Text color.RGBA
	// Radius rounds the card's corners, in card pixels (ID-1: 3.18 mm).
	Radius float64
}

// Accent is a line across the whole card at V (card pixels from the top of
// the layout), Thick pixels thick.
type Accent struct {
	V, Thick float64
	Color    color.RGBA
}

// ID1Radius is ID-1's corner radius, 3.18 mm, at 10 px/mm.
const ID1Radius = 31.8

// Classic is the layout the tests were written on: light stock, a blue
// band inside the card's margin, square corners.
var Classic = Design{Name: "classic", Stock: stock, Band: headerBand, Ground: color.RGBA{90, 95, 110, 255}, Text: text}

// Designs are the card designs the finder's evaluation renders besides
// Classic: dark bands to the edge, light cards, full-bleed accent lines,
// a dark card and a guilloche ground, all with rounded corners.
var Designs = []Design{
	Classic,
	{Name: "dark band to the edge", Stock: color.RGBA{236, 234, 226, 255}, Band: color.RGBA{22, 38, 84, 255},
		BandBleed: true, Footer: true, Ground: color.RGBA{150, 170, 200, 255}, Text: text, Radius: ID1Radius},
	{Name: "light card", Stock: color.RGBA{244, 245, 247, 255}, Band: color.RGBA{214, 222, 232, 255},
		BandBleed: true, Ground: color.RGBA{225, 232, 240, 255}, Text: color.RGBA{70, 70, 80, 255}, Radius: ID1Radius},
	{Name: "accent lines", Stock: color.RGBA{240, 236, 222, 255}, Band: color.RGBA{150, 25, 35, 255},
		Accents: []Accent{{V: 100, Thick: 6, Color: color.RGBA{150, 25, 35, 255}}, {V: 112, Thick: 3, Color: color.RGBA{20, 60, 140, 255}},
			{V: 500, Thick: 5, Color: color.RGBA{20, 60, 140, 255}}},
		Ground: color.RGBA{120, 140, 160, 255}, Text: text, Radius: ID1Radius},
	{Name: "dark card", Stock: color.RGBA{36, 70, 78, 255}, Stock2: color.RGBA{52, 92, 96, 255}, Band: color.RGBA{15, 30, 40, 255},
		BandBleed: true, Ground: color.RGBA{170, 180, 185, 255}, Text: color.RGBA{235, 235, 225, 255}, Radius: ID1Radius},
	{Name: "guilloche", Stock: color.RGBA{232, 214, 200, 255}, Stock2: color.RGBA{196, 214, 232, 255}, Band: color.RGBA{110, 40, 90, 255},
		BandBleed: true, Ground: color.RGBA{205, 200, 190, 255}, Text: text, Radius: ID1Radius},
}

// ground is the design's stock at card coordinate (u, v).
func (d Design) ground(u, v float64) color.RGBA {
	if d.Stock2 == (color.RGBA{}) {
		return d.Stock
	}
	t := 0.5 + 0.5*math.Sin(u*0.09+3*math.Sin(v*0.045))*math.Cos(v*0.07-2*math.Sin(u*0.021))
	mix := func(a, b uint8) uint8 { return uint8(float64(a)*(1-t) + float64(b)*t) }
	return color.RGBA{mix(d.Stock.R, d.Stock2.R), mix(d.Stock.G, d.Stock2.G), mix(d.Stock.B, d.Stock2.B), 255}
}

// edgePrint is what the design prints along the card's edges at upright
// coordinate (x, y) of a w×h card: the band (in the margin or to the
// edge), the footer and the accent lines; ok false where it prints none.
func (d Design) edgePrint(x, y, w, h float64) (color.RGBA, bool) {
	switch {
	case d.BandBleed && y < 110:
		return d.Band, true
	case !d.BandBleed && y > 20 && y < 90 && x > 20 && x < w-20:
		return d.Band, true
	case d.Footer && y > h-36:
		return d.Band, true
	}
	for _, a := range d.Accents {
		if y >= a.V && y < a.V+a.Thick {
			return a.Color, true
		}
	}
	return color.RGBA{}, false
}

// outsideCorner reports whether (u, v) of a w×h card lies in a corner cut
// away by the design's radius.
func (d Design) outsideCorner(u, v, w, h float64) bool {
	r := d.Radius
	if r <= 0 {
		return false
	}
	cx, cy := math.Min(math.Max(u, r), w-r), math.Min(math.Max(v, r), h-r)
	return sq(u-cx)+sq(v-cy) > r*r
}

// DesignNamed is the design of Designs called name; it panics on a name
// not among them (a test's typo).
func DesignNamed(name string) Design {
	for _, d := range Designs {
		if d.Name == name {
			return d
		}
	}
	panic("cardtest: no design named " + name)
}
