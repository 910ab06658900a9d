package card

import "math"

// The edge thresholds follow the table's texture. A fixed threshold is
// either too high for a light card on a smooth light table or too low
// for a speckled one. On bench/robust's bare tables (the working copy of
// a 1.2 MP photo), the colour step between pixels 4 px apart is at most
// 7.2 levels on the seven smooth surfaces (99.9th percentile: white,
// laminate, cloth, denim, light wood, dark table, black mat) and 17 at
// the median on granite, up to 134; a light card's edge on laminate or
// white steps by 13–20, its gradient magnitude 3–5, which the fixed
// thresholds before (a step of 12, a magnitude of 5) cut in two. So each
// tile of the working copy measures its texture, the lower quartile of
// its gradient magnitudes and of its 4 px colour steps (a card's print or
// edge crossing the tile leaves the quartile alone where it would raise
// the median: a band's edge beside the card's moved a tile's median
// magnitude from 0.3 to 3.8 and kept the card's edge out of the line
// search), and an edge must stand out of it by a factor, down to a floor
// above the noise of a smooth surface.
//
// On bench/robust (200 photos): fixed thresholds found 162 right with 1
// wrong quad; these found 175 with 2 (173 with the median of the tile
// instead of its lower quartile, 166 with 16 px tiles), and with the
// surround's median (oneSurround) and the rounded corners left out of
// the frame's run-up (outlineOf) 177 with none. A floor of 8 for the step
// found 175 as well, a factor of 2.5 found 175 and a wrong quad on
// granite.
const (
	// edgeLow is the least gradient magnitude (mag) of an edge pixel,
	// edgeK times its tile's texture on a rough surface: about 4.5× the
	// 99.9th percentile of the bare laminate, white and denim, 1.4× the
	// wood grain's (its texture, 1.3, times edgeK takes over there).
	edgeLow = 2.5
	edgeK   = 3.0
	// stepLow is the least colour step across a side (stepOff px either
	// side of it) for a sample to count as edge, stepK times its tile's
	// texture on a rough surface (granite: 3 × 7.3).
	stepLow = 9.0
	stepK   = 3.0
	stepOff = 2.0
)

// textureTile is the side of the tiles texture is measured on, in
// working pixels.
const textureTile = 32

// texture fills wk.tex and wk.texStep: each tile's lower quartile of
// gradient magnitude and of colour step, from every other pixel.
func (wk *work) texture() {
	tw, th := (wk.w+textureTile-1)/textureTile, (wk.h+textureTile-1)/textureTile
	wk.texW, wk.tex, wk.texStep = tw, make([]float32, tw*th), make([]float32, tw*th)
	mags := make([]float32, 0, textureTile*textureTile/4)
	steps := make([]float32, 0, textureTile*textureTile/4)
	c := wk.c
	for ty := range th {
		for tx := range tw {
			mags, steps = mags[:0], steps[:0]
			for y := ty * textureTile; y < min((ty+1)*textureTile, wk.h); y += 2 {
				for x := tx * textureTile; x < min((tx+1)*textureTile, wk.w); x += 2 {
					mags = append(mags, wk.mag[y*wk.w+x])
					a, b := y*wk.w+max(x-2, 0), y*wk.w+min(x+2, wk.w-1)
					dr, dg, db := c[0][a]-c[0][b], c[1][a]-c[1][b], c[2][a]-c[2][b]
					steps = append(steps, dr*dr+dg*dg+db*db) // squared: sorts alike
				}
			}
			wk.tex[ty*tw+tx] = nth(mags, len(mags)/4)
			wk.texStep[ty*tw+tx] = float32(math.Sqrt(float64(nth(steps, len(steps)/4))))
		}
	}
}

// nth is the k-th smallest of v (reordering v): Hoare's selection, as
// sorting every tile was a tenth of the finder's time.
func nth(v []float32, k int) float32 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i, j = i+1, j-1
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// tile is the index of the tile holding working point (x, y), clamped to
// the copy.
func (wk *work) tile(x, y int) int {
	return min(max(y, 0), wk.h-1)/textureTile*wk.texW + min(max(x, 0), wk.w-1)/textureTile
}

// edgeAt is the least gradient magnitude of an edge pixel at (x, y).
func (wk *work) edgeAt(x, y int) float32 {
	return max(edgeLow, edgeK*wk.tex[wk.tile(x, y)])
}

// stepAt is the least colour step across a side at (x, y).
func (wk *work) stepAt(x, y float64) float64 {
	return max(stepLow, stepK*float64(wk.texStep[wk.tile(int(x), int(y))]))
}
