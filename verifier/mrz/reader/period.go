package reader

import "math"

// The lines' period: a page whose zone is framed by a drawn ellipse
// (DocsaidLab's img1.jpg, an Azerbaijani passport scan with the zone
// circled in red) has the ellipse's ink join both ends of each line, so
// the ink spans a cell or two more than the line and the fit from its ends
// (fitCells) took a pitch 10 % long. The period of the ink along the line
// does not depend on its ends: the pitch and phase whose cell boundaries
// cross the least ink anywhere inside it. Its cells start at the first
// boundary of the ink, or one or two further when the ink spans more
// cells than the line holds; each of those is a zone to read (the check
// digits and margins choose).

// maxExtraCells: how many cells past the line the ink may span and still
// be read from each of its first boundaries.
const maxExtraCells = 2

// minPeriodGap: the period's pitch must differ from the fit's by this
// share for the zone to be read again by it.
const minPeriodGap = 0.02

// byPeriod is the zone laid out again by its lines' period, one zone for
// each place the lines may start, when the period differs from the fit's
// pitch (none otherwise; nil for nil).
func (z *Zone) byPeriod() []*Zone {
	if z == nil {
		return nil
	}
	return z.alts
}

// periodAlternatives lays the lines' cells out by their period (linePeriod).
func periodAlternatives(z *Zone, xs, ys []float64, pitch float64) []*Zone {
	type fit struct{ x0, p float64 }
	fits := make([]fit, len(z.Lines))
	extra, off := 0, false
	for i, l := range z.Lines {
		x0, p, cells, ok := linePeriod(l, xs, ys, z.Crop.Rect.Dx(), pitch)
		if !ok {
			return nil
		}
		fits[i] = fit{x0, p}
		extra = max(extra, min(maxExtraCells, cells-l.Chars))
		off = off || math.Abs(p-l.Pitch) > minPeriodGap*l.Pitch
	}
	if !off {
		return nil
	}
	var out []*Zone
	for k := 0; k <= extra; k++ {
		alt := *z
		alt.alts = nil
		alt.Lines = append([]Line(nil), z.Lines...)
		for i := range alt.Lines {
			alt.Lines[i].X0, alt.Lines[i].Pitch = fits[i].x0+float64(k)*fits[i].p, fits[i].p
		}
		out = append(out, &alt)
	}
	return out
}

// linePeriod is the line's pitch and phase whose boundaries, inside its
// ink, cross the least ink (per boundary), within 12 % of pitch: the first
// boundary at or before the ink's left end (x0), the pitch, and how many
// cells the ink spans from there.
func linePeriod(l Line, xs, ys []float64, w int, pitch float64) (x0, p float64, cells int, ok bool) {
	prof, left, right := lineInk(l, xs, ys, w, pitch)
	if left < 0 || right-left < int(pitch)*l.Chars/2 {
		return 0, 0, 0, false
	}
	at := profileAt(prof)
	best := math.Inf(1)
	for q := pitch * 0.88; q <= pitch*1.12; q += 0.01 * pitch {
		for phase := 0.0; phase < q; phase += 0.25 {
			sum, n := 0.0, 0
			for b := float64(left) + phase; b <= float64(right); b += q {
				sum += at(b)
				n++
			}
			if s := sum / float64(n); s < best {
				best, p, x0 = s, q, float64(left)+phase-q
			}
		}
	}
	// x0 is the boundary before the first inside the ink: the first cell
	// holds the ink's left end.
	cells = int(math.Ceil((float64(right) - x0) / p))
	return x0, p, cells, true
}
