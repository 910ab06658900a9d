package reader

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// The fine reading: a zone the glyph matcher left unsure is read again at
// the photo's own pixels. Every cell's pixels are compared with the fine
// templates (finetemplates.go) sampled where those pixels lie, at the
// zone's own blur and print weight (measured on the zone: the set whose
// templates of the characters first read match the cells best), with the
// ink its neighbours' blur carries into the cell drawn in too. The glyph
// matcher resamples a small zone onto its 16 px grid twice, and compares
// it with one glyph alone at the nearest of six blurs and one weight:
// those differences stood as large as the ones between blurred
// look-alikes (docs/engines.md).

// fineMaxPitch: zones of a wider pitch, photo px, are read from a copy
// shrunk by a whole factor (cost grows with a cell's pixels).
const fineMaxPitch = 12

// fineMargin: a cell's window reaches this far past its cell, pitches (as
// the glyph matcher's gridMargin of its 16 px).
const fineMargin = 0.125

// fineCell is one cell's pixels: where each lies in the cell, pitches
// from its left edge (u) and from the capitals' middle (v), and its grey
// level less the cell's mean.
type fineCell struct {
	u, v, x []float32
	sxx     float64 // Σx²
	ok      bool    // the window lies inside the photo
}

// fineZone is a zone's cells and where each was found to lie: shifts from
// its line's fitted cells, pitches.
type fineZone struct {
	cells  [][]fineCell
	du, dv [][]float64
}

// fineSource is the image a zone's cells are read from and how its pixels
// map into the crop: the zone's source, shrunk to a pitch of at most
// fineMaxPitch, cut around the zone.
func fineSource(z *Zone) (*image.Gray, func(x, y int) (float64, float64)) {
	v := z.view
	pitch := 0.0
	for _, l := range z.Lines {
		pitch += l.Pitch * v.k / float64(len(z.Lines))
	}
	f := max(1, int(math.Ceil(pitch/fineMaxPitch)))
	// The crop's corners in the source, and the box holding them.
	w, h := float64(z.Crop.Rect.Dx()), float64(z.Crop.Rect.Dy())
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	s, c := math.Sincos(v.angle)
	for _, p := range [][2]float64{{0, 0}, {w, 0}, {0, h}, {w, h}} {
		x, y := v.k*(c*p[0]-s*p[1])+v.tx, v.k*(s*p[0]+c*p[1])+v.ty
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	b := image.Rect(int(x0), int(y0), int(x1)+1, int(y1)+1).Intersect(v.src.Rect)
	sub := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		copy(sub.Pix[y*sub.Stride:(y+1)*sub.Stride], v.src.Pix[v.src.PixOffset(b.Min.X, b.Min.Y+y):])
	}
	if f > 1 {
		sub = raster.Shrink(sub, f)
	}
	// A shrunk pixel averages f×f source pixels: its middle lies (f-1)/2
	// past the first one's.
	half := float64(f-1) / 2
	return sub, func(x, y int) (float64, float64) {
		cx, cy := v.toCrop(float64(b.Min.X+f*x)+half, float64(b.Min.Y+f*y)+half)
		// Crop coordinates with pixel middles at whole numbers; the
		// lines' cells are laid out from pixel edges.
		return cx + 0.5, cy + 0.5
	}
}

// newFineZone gathers every cell's pixels.
func newFineZone(z *Zone, capH float64) *fineZone {
	src, toCrop := fineSource(z)
	fz := &fineZone{}
	W, H := src.Rect.Dx(), src.Rect.Dy()
	for _, l := range z.Lines {
		row := make([]fineCell, l.Chars)
		for c := range row {
			row[c] = gatherCell(src, toCrop, l, c, capH, W, H)
		}
		fz.cells = append(fz.cells, row)
		fz.du = append(fz.du, make([]float64, l.Chars))
		fz.dv = append(fz.dv, make([]float64, l.Chars))
	}
	return fz
}

// gatherCell lists the source pixels whose middles fall in cell c's
// window (the cell and fineMargin round it, a capital high).
func gatherCell(src *image.Gray, toCrop func(x, y int) (float64, float64), l Line, c int, capH float64, W, H int) fineCell {
	ox, oy := l.X0+float64(c)*l.Pitch, l.Center
	u0, u1 := -fineMargin, 1+fineMargin
	v0, v1 := -capH/2-fineMargin, capH/2+fineMargin
	// The window's box in the source: the pixel mapping is a similarity,
	// so its inverse at the window's corners bounds it. Found by probing
	// the mapping's scale and turn at two pixels.
	ax, ay := toCrop(0, 0)
	bx, by := toCrop(1, 0)
	dxu, dxv := bx-ax, by-ay // a source step right, in crop px
	det := dxu*dxu + dxv*dxv
	var bx0, by0, bx1, by1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{u0, v0}, {u1, v0}, {u0, v1}, {u1, v1}} {
		cx, cy := ox+p[0]*l.Pitch-ax, oy+p[1]*l.Pitch-ay
		// Invert [dxu -dxv; dxv dxu] (a similarity).
		x, y := (dxu*cx+dxv*cy)/det, (-dxv*cx+dxu*cy)/det
		bx0, by0, bx1, by1 = math.Min(bx0, x), math.Min(by0, y), math.Max(bx1, x), math.Max(by1, y)
	}
	if bx0 < 0 || by0 < 0 || bx1 >= float64(W) || by1 >= float64(H) {
		return fineCell{}
	}
	var fc fineCell
	mean := 0.0
	for y := int(by0); y <= int(by1)+1 && y < H; y++ {
		for x := int(bx0); x <= int(bx1)+1 && x < W; x++ {
			cx, cy := toCrop(x, y)
			u, v := (cx-ox)/l.Pitch, (cy-oy)/l.Pitch
			if u < u0 || u > u1 || v < v0 || v > v1 {
				continue
			}
			g := float64(src.Pix[y*src.Stride+x])
			fc.u, fc.v, fc.x = append(fc.u, float32(u)), append(fc.v, float32(v)), append(fc.x, float32(g))
			mean += g
		}
	}
	if len(fc.x) < 16 {
		return fineCell{}
	}
	mean /= float64(len(fc.x))
	for i := range fc.x {
		fc.x[i] -= float32(mean)
		fc.sxx += float64(fc.x[i]) * float64(fc.x[i])
	}
	fc.ok = fc.sxx > 1e-6
	return fc
}

// scores are the correlations of the cell's pixels, its template shifted
// by (du, dv) pitches, with the glyphs listed (all when nil), into out
// (Charset order; -Inf where not scored). ctx is the neighbours' ink at
// each pixel. Ink darkens, so a glyph's score is the correlation with its
// cover negated.
func (t *fineTemplates) scores(s *fineSet, fc *fineCell, du, dv float64, ctx []float32, glyphs []int, out []float64) {
	n := t.n
	st, stt, sxt := make([]float64, n), make([]float64, n), make([]float64, n)
	if glyphs == nil {
		glyphs = make([]int, n)
		for i := range glyphs {
			glyphs[i] = i
		}
	}
	for i := range fc.x {
		X := (float64(fc.u[i]) - du + fineReach) * hrPitch
		Y := (float64(fc.v[i])-dv)*hrPitch + t.oy
		x0, y0 := int(math.Floor(X)), int(math.Floor(Y))
		fx, fy := float32(X-float64(x0)), float32(Y-float64(y0))
		c := float64(ctx[i])
		xi := float64(fc.x[i])
		if x0 < 0 || y0 < 0 || x0+1 >= t.w || y0+1 >= t.h {
			for _, g := range glyphs {
				st[g] += c
				stt[g] += c * c
				sxt[g] += xi * c
			}
			continue
		}
		p00 := s.ink[(y0*t.w+x0)*n:]
		p01 := s.ink[(y0*t.w+x0+1)*n:]
		p10 := s.ink[((y0+1)*t.w+x0)*n:]
		p11 := s.ink[((y0+1)*t.w+x0+1)*n:]
		w00, w01, w10, w11 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
		for _, g := range glyphs {
			v := float64(w00*p00[g]+w01*p01[g]+w10*p10[g]+w11*p11[g]) + c
			st[g] += v
			stt[g] += v * v
			sxt[g] += xi * v
		}
	}
	for i := range out {
		out[i] = math.Inf(-1)
	}
	m := float64(len(fc.x))
	for _, g := range glyphs {
		vt := stt[g] - st[g]*st[g]/m
		if vt <= 1e-12 {
			continue
		}
		out[g] = -sxt[g] / math.Sqrt(fc.sxx*vt)
	}
}

// cover samples one glyph's cover at a point, pitches from its cell's left
// edge and capitals' middle.
func (t *fineTemplates) cover(s *fineSet, g int, u, v float64) float32 {
	X := (u + fineReach) * hrPitch
	Y := v*hrPitch + t.oy
	x0, y0 := int(math.Floor(X)), int(math.Floor(Y))
	if x0 < 0 || y0 < 0 || x0+1 >= t.w || y0+1 >= t.h {
		return 0
	}
	fx, fy := float32(X-float64(x0)), float32(Y-float64(y0))
	n := t.n
	return (1-fx)*(1-fy)*s.ink[(y0*t.w+x0)*n+g] + fx*(1-fy)*s.ink[(y0*t.w+x0+1)*n+g] +
		(1-fx)*fy*s.ink[((y0+1)*t.w+x0)*n+g] + fx*fy*s.ink[((y0+1)*t.w+x0+1)*n+g]
}

// context is the ink cell (li, c)'s neighbours on its line, read as
// chars, carry into its pixels at their found places.
func (t *fineTemplates) context(s *fineSet, fz *fineZone, chars [][]int, li, c int) []float32 {
	fc := &fz.cells[li][c]
	ctx := make([]float32, len(fc.x))
	for _, d := range []int{-1, 1} {
		k := c + d
		if k < 0 || k >= len(chars[li]) {
			continue
		}
		du, dv := float64(d)+fz.du[li][k], fz.dv[li][k]
		for i := range ctx {
			ctx[i] += t.cover(s, chars[li][k], float64(fc.u[i])-du, float64(fc.v[i])-dv)
		}
	}
	return ctx
}
