package card

import (
	"image"
	"math"
	"slices"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// A table can be the card's colour to within stockMatch and still be no
// card: the real Chinese ID card on light woven fabric (testdata/cards
// fabric.jpg) has the cloth beyond its short sides 7–8 levels from its
// stock, the card's own margin inside them 7 levels from it on the other
// side, 11–14 apart across the edge (its sides 85–96% edge), so
// stockOutside took both sides for print on a card and the card was
// refused. The weave that tells cloth from card is finer than a working
// pixel (its 20 px period in a 12 MP photo is 3 px of the 640 px copy,
// which the smoothing flattens), so it is read in the photo itself: the
// spread of luminance over a working pixel's footprint (grain).
const (
	// grainDepth is how far inside and beyond the side, in working px,
	// the grain is read: past the card's blurred edge (stepOff), within
	// its margin (5 px is 1.5 mm on the fabric card, 280 px long).
	grainDepth = 5
	// minGrain is the least grain, in levels of luminance, of a surface
	// with a texture of its own: the fabric's cloth reads 5.1–5.6; a
	// smooth sheet's sensor noise is under it (cardtest's white table
	// renders 1.5 levels of noise a pixel). grainRatio is how much
	// rougher than the card's margin it must be: the fabric's cloth
	// 1.47–1.69 times its card's (3.2–3.8, guilloche and JPEG noise).
	//
	// Over bench/robust's 944 photos (236 renders, JPEG and PNG, faces
	// and ovals), 10,854 outlines pass every test of accept but
	// stockOutside; none has every side with the stock beyond both
	// margined by the stock and rougher beyond by these bounds (the
	// nearest, a vertical light card's outline inside it with its pale
	// band beyond, 0.76 inside and 0 beyond), so none is taken: every
	// answer is unchanged. With no grain floor, 6 of them (3 photos, all
	// wrong) would pass at any ratio from 1.1 to 1.4.
	minGrain   = 2.0
	grainRatio = 1.3
)

// tableLikeStock reports whether what lies beyond a→b, though coloured
// like the card's stock (stockOutside), is a table: the card's margin just
// inside the side is its stock (the side is no band's or portrait's edge,
// which has print inside it), and beyond it the photo shows a grain of
// its own, minGrain or more and grainRatio times the margin's (more of
// the card would be as smooth as its margin). Medians over the 24
// crossings of across.
func (wk *work) tableLikeStock(a, b, centre raster.Point, stock [3]float32) bool {
	var margin []float64
	for _, p := range wk.across(a, b, centre, 3) {
		margin = append(margin, colourDist(p.in, stock))
	}
	if m, ok := medianOf(margin); !ok || m >= stockMatch {
		return false
	}
	n := outward(a, b, centre)
	var in, out []float64
	for i := range 24 {
		t := 0.1 + 0.8*(float64(i)+0.5)/24
		x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		in = append(in, wk.grain(x-grainDepth*n.X, y-grainDepth*n.Y))
		out = append(out, wk.grain(x+grainDepth*n.X, y+grainDepth*n.Y))
	}
	gIn, ok1 := medianOf(in)
	gOut, ok2 := medianOf(out)
	return ok1 && ok2 && gOut >= minGrain && gOut >= grainRatio*gIn
}

// grain is the standard deviation of the photo's luminance over the
// square of side 2f+1 photo px (f the working copy's shrink factor)
// centred on working point (x, y): the texture the working copy averages
// away; NaN when the square lies off the photo.
func (wk *work) grain(x, y float64) float64 {
	r := int(math.Round(max(wk.sx, wk.sy)))
	cx, cy := int(wk.photoX(x)), int(wk.photoY(y))
	var s, s2, n float64
	for py := max(cy-r, 0); py <= min(cy+r, wk.ph-1); py++ {
		for px := max(cx-r, 0); px <= min(cx+r, wk.pw-1); px++ {
			l := float64(wk.luma(px, py))
			s, s2, n = s+l, s2+l*l, n+1
		}
	}
	if n == 0 {
		return math.NaN()
	}
	m := s / n
	return math.Sqrt(max(s2/n-m*m, 0))
}

// lumaAt reads the photo's luminance (0–255) at (x, y) from its bounds'
// origin: a decoded JPEG's Y plane as it is, other images through
// pixelAt.
func lumaAt(img image.Image) func(x, y int) float32 {
	b := img.Bounds()
	if m, ok := img.(*image.YCbCr); ok {
		return func(x, y int) float32 { return float32(m.Y[m.YOffset(b.Min.X+x, b.Min.Y+y)]) }
	}
	at := pixelAt(img)
	return func(x, y int) float32 {
		r, g, bl, _ := at(b.Min.X+x, b.Min.Y+y)
		return (0.299*float32(r) + 0.587*float32(g) + 0.114*float32(bl)) / 257
	}
}

// medianOf is the median of v (reordering it); ok false for none or
// NaNs only.
func medianOf(v []float64) (float64, bool) {
	w := v[:0]
	for _, x := range v {
		if !math.IsNaN(x) {
			w = append(w, x)
		}
	}
	if len(w) == 0 {
		return 0, false
	}
	slices.Sort(w)
	return w[len(w)/2], true
}
