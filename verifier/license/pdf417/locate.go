package pdf417

import (
	"image"
	"math"
	"sort"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Locating works on a copy no larger than this on its long side: enough to
// keep 2 px modules of a 12 MP photo resolvable, small enough to stay fast.
const locateMaxSide = 1600

// Blocks of the locator grid, in working-copy pixels.
const blockSize = 16

// minEnergy is the least mean squared gradient of a candidate block (an RMS
// gradient of 10 grey levels): flat card stock and sensor noise stay below.
const minEnergy = 100

// region is a candidate symbol in full-resolution coordinates (pixel
// centres at integers): an oriented rectangle whose u axis runs across the
// bars, along the symbol's rows, and whose v axis runs along the bars.
type region struct {
	center     raster.Point
	u, v       raster.Point
	halfU      float64
	halfV      float64
	angle      float64 // of u against the x axis, radians in (-π/2, π/2]
	blocks     int
	confidence float64
}

// block is one cell of the structure-tensor grid.
type block struct {
	energy, coherence, theta float64
	cand                     bool
}

// located is what locate found, with the working copy it measured on.
type located struct {
	work    *image.Gray
	f       float64 // full resolution = working copy × f
	regions []region
}

// locate finds up to two barcode-like regions, best first. A PDF417 symbol
// is a patch of strong, parallel edges: in the structure tensor of the
// gradient its blocks have high energy and high coherence, and they share
// one orientation. Text has energy but mixed orientations; the table and
// card stock have little energy.
func locate(g *image.Gray) located {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	f := 1
	for max(w, h)/f > locateMaxSide {
		f++
	}
	work := g
	if f > 1 {
		work = raster.Shrink(g, f)
	}
	loc := located{work: work, f: float64(f)}
	grid, nbx, nby := tensorGrid(work)
	if nbx < 3 || nby < 3 {
		return loc
	}
	theta0, ok := dominantOrientation(grid)
	if !ok {
		return loc
	}
	mask := make([]bool, len(grid))
	for i, b := range grid {
		mask[i] = b.cand && angleDiff(b.theta, theta0) < 15*math.Pi/180
	}
	var out []region
	for _, comp := range components(mask, nbx, nby) {
		if len(comp) < 6 {
			continue
		}
		r := regionOf(grid, comp, nbx, float64(f), tensorAngle(grid, comp))
		// The tensor angle is biased on fine bars; the projection search
		// is not. Refit the rectangle along the refined axes.
		out = append(out, regionOf(grid, comp, nbx, float64(f), refineAngle(work, r, float64(f), -1, 1)))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].confidence > out[j].confidence })
	if len(out) > 2 {
		out = out[:2]
	}
	loc.regions = out
	return loc
}

// tensorGrid sums the gradient structure tensor over blockSize cells.
func tensorGrid(g *image.Gray) ([]block, int, int) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	nbx, nby := w/blockSize, h/blockSize
	if nbx == 0 || nby == 0 {
		return nil, nbx, nby
	}
	jxx := make([]float64, nbx*nby)
	jyy := make([]float64, nbx*nby)
	jxy := make([]float64, nbx*nby)
	for y := 1; y < nby*blockSize && y < h-1; y++ {
		up, row, down := g.Pix[(y-1)*g.Stride:], g.Pix[y*g.Stride:], g.Pix[(y+1)*g.Stride:]
		rowBase := (y / blockSize) * nbx
		for x := 1; x < nbx*blockSize && x < w-1; x++ {
			gx := float64(int(row[x+1]) - int(row[x-1]))
			gy := float64(int(down[x]) - int(up[x]))
			i := rowBase + x/blockSize
			jxx[i] += gx * gx
			jyy[i] += gy * gy
			jxy[i] += gx * gy
		}
	}
	grid := make([]block, nbx*nby)
	energies := make([]float64, len(grid))
	for i := range grid {
		e := jxx[i] + jyy[i]
		grid[i].energy = e / (blockSize * blockSize)
		energies[i] = grid[i].energy
		if e > 0 {
			grid[i].coherence = math.Hypot(jxx[i]-jyy[i], 2*jxy[i]) / e
		}
		// The gradient direction; the bars run perpendicular to it.
		grid[i].theta = normAngle(0.5 * math.Atan2(2*jxy[i], jxx[i]-jyy[i]))
	}
	sort.Float64s(energies)
	// Candidates need a good share of the strongest edges in the photo (a
	// high percentile, not the maximum, so one glint cannot set the bar)
	// and a clear single orientation.
	ref := energies[len(energies)*995/1000]
	for i := range grid {
		grid[i].cand = grid[i].energy > 0.15*ref && grid[i].energy > minEnergy && grid[i].coherence > 0.4
	}
	return grid, nbx, nby
}

// dominantOrientation is the peak of the candidates' orientation histogram,
// weighted by energy and coherence, refined by a double-angle mean of the
// blocks near the peak.
func dominantOrientation(grid []block) (float64, bool) {
	const bins = 90
	var hist [bins]float64
	for _, b := range grid {
		if b.cand {
			hist[binOf(b.theta, bins)] += b.energy * b.coherence
		}
	}
	best, bestV := 0, 0.0
	for i := range hist {
		v := hist[(i+bins-1)%bins] + 2*hist[i] + hist[(i+1)%bins]
		if v > bestV {
			best, bestV = i, v
		}
	}
	if bestV == 0 {
		return 0, false
	}
	peak := normAngle((float64(best) + 0.5) * math.Pi / bins)
	var s, c float64
	for _, b := range grid {
		if b.cand && angleDiff(b.theta, peak) < 6*math.Pi/180 {
			wgt := b.energy * b.coherence
			s += wgt * math.Sin(2*b.theta)
			c += wgt * math.Cos(2*b.theta)
		}
	}
	return normAngle(0.5 * math.Atan2(s, c)), true
}

func binOf(theta float64, bins int) int {
	t := theta
	if t < 0 {
		t += math.Pi
	}
	return min(bins-1, int(t/math.Pi*float64(bins)))
}

// normAngle folds an orientation (defined modulo π) into (-π/2, π/2], so
// that small tilts stay small and the crop comes out upright.
func normAngle(a float64) float64 {
	a = math.Remainder(a, math.Pi) // in [-π/2, π/2]
	if a == -math.Pi/2 {
		a = math.Pi / 2
	}
	return a
}

// angleDiff is the distance between two orientations modulo π.
func angleDiff(a, b float64) float64 {
	return math.Abs(normAngle(a - b))
}

// components returns the 8-connected components of mask after closing
// one-block gaps, listing only blocks set in mask itself.
func components(mask []bool, nbx, nby int) [][]int {
	grown := make([]bool, len(mask))
	for i, m := range mask {
		if !m {
			continue
		}
		x, y := i%nbx, i/nbx
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < nbx && yy < nby {
					grown[yy*nbx+xx] = true
				}
			}
		}
	}
	label := make([]int, len(mask))
	var out [][]int
	for i := range grown {
		if !grown[i] || label[i] != 0 {
			continue
		}
		id := len(out) + 1
		var comp []int
		stack := []int{i}
		label[i] = id
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mask[j] {
				comp = append(comp, j)
			}
			x, y := j%nbx, j/nbx
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= nbx || yy >= nby {
						continue
					}
					if k := yy*nbx + xx; grown[k] && label[k] == 0 {
						label[k] = id
						stack = append(stack, k)
					}
				}
			}
		}
		out = append(out, comp)
	}
	return out
}

// tensorAngle is the weighted double-angle mean orientation of a
// component's blocks.
func tensorAngle(grid []block, comp []int) float64 {
	var s, c float64
	for _, i := range comp {
		b := grid[i]
		wgt := b.energy * b.coherence
		s += wgt * math.Sin(2*b.theta)
		c += wgt * math.Cos(2*b.theta)
	}
	return normAngle(0.5 * math.Atan2(s, c))
}

// regionOf fits the rectangle with u at angle a around a component's
// blocks, scaled to full resolution by f.
func regionOf(grid []block, comp []int, nbx int, f, a float64) region {
	var conf float64
	for _, i := range comp {
		conf += grid[i].energy * grid[i].coherence
	}
	u := raster.Point{X: math.Cos(a), Y: math.Sin(a)}
	v := raster.Point{X: -u.Y, Y: u.X}
	minU, maxU, minV, maxV := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, i := range comp {
		// Block centre in full-resolution coordinates.
		cx := (float64(i%nbx*blockSize)+blockSize/2)*f - 0.5
		cy := (float64(i/nbx*blockSize)+blockSize/2)*f - 0.5
		pu, pv := cx*u.X+cy*u.Y, cx*v.X+cy*v.Y
		minU, maxU = math.Min(minU, pu), math.Max(maxU, pu)
		minV, maxV = math.Min(minV, pv), math.Max(maxV, pv)
	}
	// Block centres sit half a block inside the symbol's edge. One more
	// block of margin keeps a quiet zone even when an edge block fell under
	// the thresholds; along the rows the margin is wider, because the wide
	// first bar of the start pattern has edges only at its sides and its
	// blocks are the likeliest to drop out.
	marginV := 1.5 * blockSize * f
	marginU := 2.5*blockSize*f + 0.04*(maxU-minU)
	minU, maxU, minV, maxV = minU-marginU, maxU+marginU, minV-marginV, maxV+marginV
	mu, mv := (minU+maxU)/2, (minV+maxV)/2
	return region{
		center:     raster.Point{X: mu*u.X + mv*v.X, Y: mu*u.Y + mv*v.Y},
		u:          u,
		v:          v,
		halfU:      (maxU - minU) / 2,
		halfV:      (maxV - minV) / 2,
		angle:      a,
		blocks:     len(comp),
		confidence: conf,
	}
}

// upright samples the region into an axis-aligned image, bars vertical,
// scaled by s.
func (r region) upright(g *image.Gray, s float64) *image.Gray {
	return raster.Warp(g, int(2*r.halfU*s), int(2*r.halfV*s), r.uprightMap(s), 0xff)
}

// uprightMap maps pixels of the upright image at scale s into the photo.
// Destination pixel (x, y) sits at (x+0.5)/s - halfU along u and
// (y+0.5)/s - halfV along v from the centre.
func (r region) uprightMap(s float64) raster.Homography {
	ox := r.center.X + (0.5/s-r.halfU)*r.u.X + (0.5/s-r.halfV)*r.v.X
	oy := r.center.Y + (0.5/s-r.halfU)*r.u.Y + (0.5/s-r.halfV)*r.v.Y
	return raster.Homography{r.u.X / s, r.v.X / s, ox, r.u.Y / s, r.v.Y / s, oy, 0, 0, 1}
}
