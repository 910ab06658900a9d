package card

import (
	"math"
	"sort"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// refine fits each seen side of the outline to the edge: along the side,
// the strongest colour step within ±4 px across it is found, a line is fitted
// to those points (the quarter farthest from the first fit dropped, for
// print or table texture that came nearer) and the corners are the fitted
// lines' crossings. The Hough lines are 1° and 1 px coarse; the fitted ones
// put the corners within about a working pixel.
func (wk *work) refine(o outline) [4]raster.Point {
	centre := raster.Point{}
	for _, c := range o.corners {
		centre.X, centre.Y = centre.X+c.X/4, centre.Y+c.Y/4
	}
	sides := o.sides
	for k := range 4 {
		if sides[k].frame {
			continue
		}
		if l, ok := wk.fitSide(o.corners[k], o.corners[(k+1)%4], centre); ok {
			sides[k] = l
		}
	}
	out := o.corners
	for k := range 4 {
		if x, y, ok := intersect(sides[(k+3)%4], sides[k]); ok {
			out[k] = raster.Point{X: x, Y: y}
		}
	}
	return out
}

// fitSide finds the edge along a→b and fits a line to it.
func (wk *work) fitSide(a, b, centre raster.Point) (line, bool) {
	n := outward(a, b, centre)
	length := math.Hypot(b.X-a.X, b.Y-a.Y)
	k := min(max(int(length/2), 12), 120)
	var pts []raster.Point
	for i := range k {
		t := 0.1 + 0.8*(float64(i)+0.5)/float64(k)
		px, py := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		best, bestO := 0.0, 0.0
		for o := -4.0; o <= 4; o += 0.5 {
			in, ok1 := wk.colour(px+(o-1)*n.X, py+(o-1)*n.Y)
			out, ok2 := wk.colour(px+(o+1)*n.X, py+(o+1)*n.Y)
			if !ok1 || !ok2 {
				continue
			}
			if d := colourDist(in, out); d > best {
				best, bestO = d, o
			}
		}
		if best >= wk.stepAt(px, py) {
			pts = append(pts, raster.Point{X: px + bestO*n.X, Y: py + bestO*n.Y})
		}
	}
	if len(pts) < k/3 {
		return line{}, false
	}
	l := fitLine(pts)
	res := make([]float64, len(pts))
	for i, p := range pts {
		res[i] = math.Abs(p.X*l.cos + p.Y*l.sin - l.rho)
	}
	sorted := append([]float64(nil), res...)
	sort.Float64s(sorted)
	cut := sorted[len(sorted)*3/4]
	var kept []raster.Point
	for i, p := range pts {
		if res[i] <= cut {
			kept = append(kept, p)
		}
	}
	return fitLine(kept), true
}

// fitLine is the total-least-squares line through the points.
func fitLine(pts []raster.Point) line {
	var mx, my float64
	for _, p := range pts {
		mx, my = mx+p.X, my+p.Y
	}
	mx, my = mx/float64(len(pts)), my/float64(len(pts))
	var sxx, sxy, syy float64
	for _, p := range pts {
		dx, dy := p.X-mx, p.Y-my
		sxx, sxy, syy = sxx+dx*dx, sxy+dx*dy, syy+dy*dy
	}
	// The normal is the direction of least spread.
	theta := 0.5*math.Atan2(2*sxy, sxx-syy) + math.Pi/2
	return newLine(theta, mx*math.Cos(theta)+my*math.Sin(theta))
}
