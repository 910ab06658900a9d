package card

import (
	"slices"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// The portrait test: an ID-1 license prints its portrait at one short end
// — left of the data in the horizontal layout, at the top of the vertical
// one — so the card turned long side across shows it at its left or right
// end, whichever way up it lies. portraitCore is the part of the card both
// layouts cover with the portrait, as shares of the long and short side
// measured from the end (horizontal: 5–34% by 26–68%; vertical, turned:
// 14–41% by 29–71%).
var portraitCore = struct{ u0, u1, v0, v1 float64 }{0.12, 0.33, 0.30, 0.70}

const (
	// portraitDiff is how far (colour distance) a pixel must be from the
	// card's stock to count as print.
	portraitDiff = 40
	// minPortrait is the least share of the core that must be print.
	minPortrait = 0.4
)

// cardSpace maps the card at 1 px/mm (cardGW × cardGH, the long side
// across) to working coordinates through the outline's corners.
const cardGW, cardGH = 86, 54

func cardSpace(c [4]raster.Point) (raster.Homography, error) {
	return raster.FromQuad([4]raster.Point{{X: 0, Y: 0}, {X: cardGW, Y: 0}, {X: cardGW, Y: cardGH}, {X: 0, Y: cardGH}}, longFirst(c))
}

// stock is the card's ground colour inside the outline: its most common
// colour (to 8 levels a channel), since print, bands and the portrait
// each cover less of an ID-1 card than its ground; ok false when the
// outline lies off the photo.
func (wk *work) stock(toWork raster.Homography) ([3]float32, bool) {
	type bin struct {
		n   int
		sum [3]float32
	}
	bins := map[int]*bin{}
	var best *bin
	for v := 1.5; v < cardGH-1; v++ {
		for u := 1.5; u < cardGW-1; u++ {
			col, ok := wk.colour(toWork.Apply(u, v))
			if !ok {
				continue
			}
			key := int(col[0])/8<<10 | int(col[1])/8<<5 | int(col[2])/8
			b := bins[key]
			if b == nil {
				b = &bin{}
				bins[key] = b
			}
			b.n++
			for k := range col {
				b.sum[k] += col[k]
			}
			if best == nil || b.n > best.n {
				best = b
			}
		}
	}
	if best == nil {
		return [3]float32{}, false
	}
	n := float32(best.n)
	return [3]float32{best.sum[0] / n, best.sum[1] / n, best.sum[2] / n}, true
}

// hasPortrait reports whether the outline shows a portrait at one of its
// short ends: enough of portraitCore differs from the card's stock.
func (wk *work) hasPortrait(toWork raster.Homography, stock [3]float32) bool {
	pc := portraitCore
	for _, left := range []bool{true, false} {
		print, n := 0, 0
		for v := pc.v0 * cardGH; v < pc.v1*cardGH; v++ {
			for s := pc.u0 * cardGW; s < pc.u1*cardGW; s++ {
				u := s
				if !left {
					u = cardGW - s
				}
				col, ok := wk.colour(toWork.Apply(u, v))
				if !ok {
					continue
				}
				n++
				if colourDist(col, stock) >= portraitDiff {
					print++
				}
			}
		}
		if n > 0 && float64(print) >= minPortrait*float64(n) {
			return true
		}
	}
	return false
}

// stockOutside reports whether more than half of what lies just outside
// the side a→b (3 px out) has the card's stock colour: then the side is
// print on the card (a band's or a portrait's edge), not the card's edge,
// whatever step it shows.
func (wk *work) stockOutside(a, b, centre raster.Point, stock [3]float32) bool {
	out := wk.strip(a, b, centre, 3)
	same := 0
	for _, col := range out {
		if colourDist(col, stock) < stepMin {
			same++
		}
	}
	return len(out) > 0 && 2*same > len(out)
}

// longFirst turns a cyclic quadrilateral so its first side is one of the
// long pair.
func longFirst(c [4]raster.Point) [4]raster.Point {
	if dist(c[0], c[1])+dist(c[2], c[3]) >= dist(c[1], c[2])+dist(c[3], c[0]) {
		return c
	}
	return [4]raster.Point{c[1], c[2], c[3], c[0]}
}

// strip samples 24 colours along the middle 80% of a→b, off pixels
// outward (negative: inward), leaving out those off the photo.
func (wk *work) strip(a, b, centre raster.Point, off float64) [][3]float32 {
	n := outward(a, b, centre)
	var out [][3]float32
	for i := range 24 {
		t := 0.1 + 0.8*(float64(i)+0.5)/24
		if col, ok := wk.colour(a.X+t*(b.X-a.X)+off*n.X, a.Y+t*(b.Y-a.Y)+off*n.Y); ok {
			out = append(out, col)
		}
	}
	return out
}

// maxSurround is how far apart the colours beyond two sides of a card may
// be: one table all round, lit unevenly (the evaluation's ramps change the
// light by up to half across the photo; a light wood then differs by about
// 50 levels from one side of the card to the other). An outline drawn
// inside a card has the band beyond one side, the stock beyond another
// and the table beyond a third.
const maxSurround = 60

// oneSurround reports whether what lies beyond the outline's seen sides
// (the strip 3 px out, its lower quartile in each channel: a glare spot
// brightens part of the table) is one surface.
func (wk *work) oneSurround(o outline, centre raster.Point) bool {
	var meds [][3]float32
	for k, v := range o.support {
		if v < 0 {
			continue
		}
		out := wk.strip(o.corners[k], o.corners[(k+1)%4], centre, 3)
		if len(out) == 0 {
			continue
		}
		var m [3]float32
		for c := range m {
			ch := make([]float32, len(out))
			for i, col := range out {
				ch[i] = col[c]
			}
			slices.Sort(ch)
			m[c] = ch[len(ch)/4]
		}
		meds = append(meds, m)
	}
	for i := range meds {
		for j := i + 1; j < len(meds); j++ {
			if colourDist(meds[i], meds[j]) > maxSurround {
				return false
			}
		}
	}
	return true
}
