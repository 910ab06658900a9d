package card

import (
	"fmt"
	"image"
	"math"
	"sort"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Segmentation works on a copy no larger than this on its long side: the
// card's outline needs no more, and the component search stays fast.
const segmentMaxSide = 640

// Shape tests a segmented component must pass to count as a card.
const (
	minArea        = 0.02 // of the working copy
	minRectangular = 0.85 // hull area over its minimum-area rectangle
	minSolidity    = 0.35 // component area over hull area (print makes holes)
	minRectAspect  = 1.15 // loose bounds: the strict ID-1 test comes later
	maxRectAspect  = 2.20
)

// A card that fills the frame touches its border, where the search for a
// card on a table stops. Such a component is taken for the card when its
// rectangle has ID-1 proportions (AspectTolerance) and it covers at least
// fullFrameMin of the photo (the card filling 60–100% of the frame). When
// it spans the whole photo (wholeFrame of its area: a flat scan, a tight
// crop) nothing in it tells card from table, and the photo's own shape must
// be ID-1 within fullFrameAspect: a 3:2 photo (5.4% off) of a table is not
// a card, and neither is a 4:3 (16%) or 16:9 one (12%).
const (
	fullFrameMin    = 0.5
	wholeFrame      = 0.95
	fullFrameAspect = 0.04
)

// findQuad returns the card's corners in photo coordinates (pixel edges at
// integers, so the photo spans 0..width): top-left,
// top-right, bottom-right, bottom-left with the long side on top.
//
// The card is told from the table by brightness: Otsu's threshold splits
// the smoothed photo into bright and dark, and the card is the largest
// component of either polarity, away from the photo's border, whose convex
// hull is nearly a rectangle of card-like proportions. Its corners are the
// hull points farthest out along the diagonals of that rectangle, which
// follows perspective as well as rotation.
//
// When that component is not ID-1-shaped (it is something printed on a
// card that fills the frame: the portrait, a block of text) or there is
// none, a component touching the border that passes the full-frame tests
// above is the card. An ID-1-shaped card away from the border always
// wins, so a real card far away is still found, and refused as too small.
//
// Known limits: print that runs to the card's edge in the table's
// brightness (a full-bleed dark band on a dark table) is taken for table,
// and the quadrilateral stops at it; an ID-1-shaped block printed on a
// card that fills the frame is taken for the card.
func findQuad(g *image.Gray) ([4]raster.Point, error) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	f := 1
	for max(w, h)/f > segmentMaxSide {
		f++
	}
	work := raster.GaussianBlur(raster.Shrink(g, f), 1.5)
	ww, wh := work.Rect.Dx(), work.Rect.Dy()
	if ww < 16 || wh < 16 {
		return [4]raster.Point{}, fmt.Errorf("%w: photo too small", ErrNoCard)
	}
	t := otsu(work)
	var inner, outer *candidate
	for _, bright := range []bool{true, false} {
		mask := make([]bool, ww*wh)
		for i, v := range work.Pix {
			mask[i] = (v >= t) == bright
		}
		for _, comp := range pixelComponents(mask, ww, wh) {
			c, ok := judge(comp, ww, wh)
			switch {
			case !ok:
			case !comp.onBorder && (inner == nil || c.hullArea > inner.hullArea):
				inner = &c
			case comp.onBorder && fillsFrame(c, ww, wh) && (outer == nil || c.hullArea > outer.hullArea):
				outer = &c
			}
		}
	}
	best := inner
	if outer != nil && (inner == nil || !idShaped(inner.rect)) {
		best = outer
	}
	if best == nil {
		return [4]raster.Point{}, ErrNoCard
	}
	var quad [4]raster.Point
	for i, p := range best.corners {
		quad[i] = raster.Point{X: edge(p.X, ww, w, f), Y: edge(p.Y, wh, h, f)}
	}
	return quad, nil
}

// edge maps a working-copy coordinate to the photo's; the working copy's
// first and last pixels map to the photo's edges, so a card that fills the
// frame keeps all of it.
func edge(v float64, workSide, side, f int) float64 {
	switch {
	case v <= 0:
		return 0
	case v >= float64(workSide-1):
		return float64(side)
	}
	return (v + 0.5) * float64(f)
}

// idShaped reports whether a rectangle has ID-1 proportions.
func idShaped(r rect) bool { return math.Abs(r.long/r.short/ID1Aspect-1) <= AspectTolerance }

// fillsFrame applies the full-frame tests to a candidate touching the
// border of a w×h working copy.
func fillsFrame(c candidate, w, h int) bool {
	frame := float64(w * h)
	if !idShaped(c.rect) || c.hullArea < fullFrameMin*frame {
		return false
	}
	if c.rect.area < wholeFrame*frame {
		return true
	}
	photo := float64(max(w, h)) / float64(min(w, h))
	return math.Abs(photo/ID1Aspect-1) <= fullFrameAspect
}

// otsu returns the threshold that best separates the grey-level histogram
// into two classes.
func otsu(g *image.Gray) uint8 {
	var hist [256]float64
	for _, v := range g.Pix {
		hist[v]++
	}
	n := float64(len(g.Pix))
	var sumAll float64
	for i, c := range hist {
		sumAll += float64(i) * c
	}
	var wB, sumB, bestVar float64
	best := uint8(128)
	for t := 0; t < 256; t++ {
		wB += hist[t]
		if wB == 0 || wB == n {
			continue
		}
		sumB += float64(t) * hist[t]
		mB, mF := sumB/wB, (sumAll-sumB)/(n-wB)
		if v := wB * (n - wB) * (mB - mF) * (mB - mF); v > bestVar {
			bestVar, best = v, uint8(t+1)
		}
	}
	return best
}

// component is a 4-connected set of pixels: its size, for each row its
// leftmost and rightmost pixel, and whether it touches the border.
type component struct {
	area     int
	rows     map[int][2]int
	onBorder bool
}

func pixelComponents(mask []bool, w, h int) []component {
	seen := make([]bool, len(mask))
	var out []component
	var stack []int
	for start := range mask {
		if !mask[start] || seen[start] {
			continue
		}
		c := component{rows: map[int][2]int{}}
		stack = append(stack[:0], start)
		seen[start] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := i%w, i/w
			c.area++
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				c.onBorder = true
			}
			if r, ok := c.rows[y]; !ok {
				c.rows[y] = [2]int{x, x}
			} else {
				c.rows[y] = [2]int{min(r[0], x), max(r[1], x)}
			}
			for _, j := range [4]int{i - 1, i + 1, i - w, i + w} {
				if j < 0 || j >= len(mask) || seen[j] || !mask[j] {
					continue
				}
				if (j == i-1 && x == 0) || (j == i+1 && x == w-1) {
					continue
				}
				seen[j] = true
				stack = append(stack, j)
			}
		}
		out = append(out, c)
	}
	return out
}

type candidate struct {
	hullArea float64
	rect     rect
	corners  [4]raster.Point
}

// judge applies the shape tests and finds the corners; whether a
// component on the border may be the card is findQuad's call.
func judge(c component, w, h int) (candidate, bool) {
	if float64(c.area) < minArea*float64(w*h) {
		return candidate{}, false
	}
	pts := make([]raster.Point, 0, 2*len(c.rows))
	for y, r := range c.rows {
		pts = append(pts, raster.Point{X: float64(r[0]), Y: float64(y)}, raster.Point{X: float64(r[1]), Y: float64(y)})
	}
	hull := convexHull(pts)
	if len(hull) < 4 {
		return candidate{}, false
	}
	hullArea := polygonArea(hull)
	rect := minAreaRect(hull)
	if rect.area <= 0 || hullArea/rect.area < minRectangular || float64(c.area)/hullArea < minSolidity {
		return candidate{}, false
	}
	if a := rect.long / rect.short; a < minRectAspect || a > maxRectAspect {
		return candidate{}, false
	}
	// Hull points farthest along each diagonal of the rectangle, in the
	// order TL, TR, BR, BL of the long axis pointing right.
	var corners [4]raster.Point
	for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		bestV := math.Inf(-1)
		for _, p := range hull {
			dx, dy := p.X-rect.center.X, p.Y-rect.center.Y
			v := s[0]*(dx*rect.e1.X+dy*rect.e1.Y)/rect.long + s[1]*(dx*rect.e2.X+dy*rect.e2.Y)/rect.short
			if v > bestV {
				bestV, corners[k] = v, p
			}
		}
	}
	return candidate{hullArea: hullArea, rect: rect, corners: corners}, true
}

// convexHull is Andrew's monotone chain, counter-clockwise in image
// coordinates' sense of the cross product.
func convexHull(pts []raster.Point) []raster.Point {
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].X != pts[j].X {
			return pts[i].X < pts[j].X
		}
		return pts[i].Y < pts[j].Y
	})
	cross := func(o, a, b raster.Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var hull []raster.Point
	for pass := 0; pass < 2; pass++ {
		start := len(hull)
		for _, p := range pts {
			for len(hull) >= start+2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, p)
		}
		hull = hull[:len(hull)-1]
		// Second pass: the upper chain, right to left.
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	return hull
}

// rect is a rotated rectangle: e1 along the long side, pointing right, e2
// along the short side, pointing down; long and short are full lengths.
type rect struct {
	center      raster.Point
	e1, e2      raster.Point
	long, short float64
	area        float64
}

// minAreaRect tries each hull edge as a side (rotating calipers, the
// quadratic way: hulls here have few vertices).
func minAreaRect(hull []raster.Point) rect {
	best := rect{area: math.Inf(1)}
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l == 0 {
			continue
		}
		ux, uy := (b.X-a.X)/l, (b.Y-a.Y)/l
		minU, maxU, minV, maxV := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			pu, pv := p.X*ux+p.Y*uy, -p.X*uy+p.Y*ux
			minU, maxU = math.Min(minU, pu), math.Max(maxU, pu)
			minV, maxV = math.Min(minV, pv), math.Max(maxV, pv)
		}
		du, dv := maxU-minU, maxV-minV
		if du*dv >= best.area {
			continue
		}
		cu, cv := (minU+maxU)/2, (minV+maxV)/2
		r := rect{
			center: raster.Point{X: cu*ux - cv*uy, Y: cu*uy + cv*ux},
			e1:     raster.Point{X: ux, Y: uy},
			e2:     raster.Point{X: -uy, Y: ux},
			long:   du, short: dv, area: du * dv,
		}
		if dv > du {
			r.e1, r.e2, r.long, r.short = r.e2, r.e1, dv, du
		}
		if r.e1.X < 0 || (r.e1.X == 0 && r.e1.Y < 0) {
			r.e1 = raster.Point{X: -r.e1.X, Y: -r.e1.Y}
		}
		// e2 is e1 turned clockwise on screen (y down), so it points down.
		r.e2 = raster.Point{X: -r.e1.Y, Y: r.e1.X}
		best = r
	}
	return best
}
