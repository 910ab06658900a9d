package card

import "github.com/idgate/idgate/verifier/license/pdf417/raster"

// frameIsCard reports whether each seen side of o that meets the photo's
// edge has the card inside it right up to the edge: then the card runs
// off the photo there, or ends at its edge, and the frame can stand for
// its side. Just inside the seen side (3 px in), the card's colour shows
// along the side and the table's beyond its corner; a card ending inside
// the photo shows the table there over more than its rounded corner's
// radius (at 3 px in, the rounding shows the table over less than the
// radius: R − √(6R − 9) for a corner of R px). A card on a white border,
// or running off one side of the photo, was taken with a frame side
// where the photo's edge lies beyond its corner (bench/robust: two
// rendered cards 7.8% and 9.3% off; the real card on a carpet, 6.3% off).
// The edge support of that stretch (runsOff, outlineOf's run-up) does not
// tell: a textured table beyond the corner shows edges too, and the
// rounding is left out of it.
func (wk *work) frameIsCard(o outline) bool {
	long := max(dist(o.corners[0], o.corners[1]), dist(o.corners[1], o.corners[2]))
	allow := cornerRadius*long + 2 // the rounding, and the corner's ±2 px
	centre := centreOf(o.corners)
	for k := range 4 {
		if o.support[k] < 0 {
			continue
		}
		a, b := o.corners[k], o.corners[(k+1)%4]
		var mi, mo [3]float32
		{
			var in, out [][3]float32
			for _, p := range wk.across(a, b, centre, 3) {
				in, out = append(in, p.in), append(out, p.out)
			}
			var ok1, ok2 bool
			if mi, ok1 = median(in); !ok1 {
				continue
			}
			if mo, ok2 = median(out); !ok2 || colourDist(mi, mo) < stepLow {
				continue // card and table alike along this side: nothing to tell
			}
		}
		for end, toFrame := range [2]bool{o.support[(k+3)%4] < 0, o.support[(k+1)%4] < 0} {
			if !toFrame {
				continue
			}
			from, to := a, b // walk from the frame's end inwards
			if end == 1 {
				from, to = b, a
			}
			if wk.tableRun(from, to, centre, mi, mo) > allow {
				return false
			}
		}
	}
	return true
}

// tableRun is how far from `from` along from→to the colour 3 px inside
// (towards centre) stays nearer the table's colour mo than the card's mi:
// where three samples 1 px apart in a row are the card's, the card has
// begun. Samples off the photo count as the table's.
func (wk *work) tableRun(from, to, centre raster.Point, mi, mo [3]float32) float64 {
	l := dist(from, to)
	n := outward(from, to, centre)
	ux, uy := (to.X-from.X)/l, (to.Y-from.Y)/l
	run := 0
	for s := 0.0; s < l/2; s++ {
		c, ok := wk.colour(from.X+s*ux-3*n.X, from.Y+s*uy-3*n.Y)
		if ok && colourDist(c, mi) <= colourDist(c, mo) {
			if run++; run == 3 {
				return s - 2
			}
			continue
		}
		run = 0
	}
	return l / 2
}
