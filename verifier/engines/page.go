package engines

import (
	"image"
	"image/color"
	"math"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// layout is the side of a document that carries the zone: its size and
// where its zone stands. The zone, read, fixes the document around it: its
// turn, its scale (the pitch) and its place; the edges are then looked for
// where that puts them. The passport's data page and the ID card's back
// are placed alike, each by its own layout.
type layout struct {
	format mrz.Format
	// w, h: the side's size, mm.
	w, h float64
	// inkCentre is how far above the bottom edge the zone's ink is
	// centred, mm (the zone is centred across).
	inkCentre float64
	// search is how far either side of the predicted edge an edge is
	// looked for, mm: issuers place the zone within about ±1 mm of the
	// standard's position and the pitch read from the zone is within 1-2%
	// (1.5 mm over a data page's height, 1 mm over a card's); the bottom
	// edge's search, with its edgeWindow, must stay clear of the zone's own
	// ink above it.
	search float64
	// need are the edges that must be found for the side to be found.
	need [4]bool
	// missing is the problem of a photo where the side is not found.
	missing flow.Problem
}

// The TD3 data page (Doc 9303 Part 4): 125 × 88 mm, its zone of two lines
// of 44 characters 2.54 mm apart centred across it, the centre of the
// zone's ink about 8.5 mm above the bottom edge (the lower baseline 5.5 mm
// up, the upper 4.23 mm above it, capitals about 1.8 mm high). The top
// edge of a booklet's data page is often its fold, with the facing page
// beyond, so it is not required (the proportions need it); the bottom
// edge's search ends 1 mm short of the zone's ink 5.5 mm up.
var td3Page = layout{format: mrz.TD3, w: td3W, h: td3H, inkCentre: 8.5, search: 3.5,
	need: [4]bool{sideLeft: true, sideRight: true, sideBottom: true}, missing: flow.ProblemPageNotFound}

// The TD1 card (Doc 9303 Part 5; ID-1, ISO/IEC 7810): 85.6 × 53.98 mm, its
// zone of three lines of 30 characters on the back, 4.23 mm apart, the
// lowest baseline 4.5 mm above the bottom edge as mrztest prints it
// (Part 5 places the zone within a band, not to the tenth of a
// millimetre). The zone's ink centre as the reader finds it stood 0.5-0.7
// mm above the 9.6 mm that TD3's 8.5 gives a third line over that
// baseline (TestIDCardBackZonePlace, the zone's pitch and centre from its
// cells), so 10.2. A card's four edges are all free, so all four must be
// found; the bottom edge's search ends 0.5 mm short of the ink.
var td1Card = layout{format: mrz.TD1, w: td1W, h: td1H, inkCentre: 10.2, search: 3.0,
	need: [4]bool{true, true, true, true}, missing: flow.ProblemCardNotFound}

const (
	td3W, td3H = 125.0, 88.0
	td1W, td1H = 85.6, 53.98
	// TD3Aspect is the data page's width over its height.
	TD3Aspect = td3W / td3H
	// TD1Aspect is the card's width over its height (ID-1).
	TD1Aspect = td1W / td1H
	pitchMM   = 2.54
)

// The edges, looked for across each side where the zone puts them.
const (
	// edgeWindow is the strip averaged either side of an edge, mm.
	edgeWindow = 1.0
	// MinEdgeStep is the least difference in mean grey level, page side
	// against outside, that makes an edge. The rendered pages against
	// their desks step by 70-150 levels; the page's own print near its
	// edge (guilloche, a level or two) far under it.
	MinEdgeStep = 12.0
	// PageAspectTolerance is how far the measured side's width over height
	// may stray from its layout's (TD3Aspect, TD1Aspect), relative: TD1's
	// card (1.586) and TD3's page (1.420) stand 11.6% apart, TD2 (105 × 74
	// mm, 1.419) cannot be told from TD3 by shape and has 36 characters a
	// line, which the reader does not take.
	PageAspectTolerance = 0.06
	// pageRes bounds the straightened page's resolution, px/mm: the
	// portrait's face (about 20 mm) is then 160 px across, four times
	// the 40 px the descriptor needs.
	pageRes = 8.0
	// The portrait's part of the page: the left 55 mm above the zone
	// (the portrait, zone V, is 32-45 mm wide, 5-7 mm from the left edge).
	portraitW, portraitH = 55.0, 70.0
)

// MinPageSharpness is the Sharpness (card.SharpnessOf on the page
// straightened at up to pageRes) under which an unreadable zone is also
// told too blurry, so the advice names the cause. It decides no
// acceptance: the zone's reading does. Rendered 3 MP pages measured 0.71
// sharp, 0.38 blurred by σ = 1.4 px and still read, 0.20 at σ = 5 px and
// unreadable (TestPassportProblems).
const MinPageSharpness = 0.25

// The sides of the page, in pageEdges' order.
const (
	sideLeft = iota
	sideTop
	sideRight
	sideBottom
)

// pageEdges is the page (or card) as its zone places it in the (turned)
// photo, and where each of its edges was found.
type pageEdges struct {
	lay *layout
	// zoneMap maps page millimetres, as the zone predicts them, to the
	// photo's pixels.
	zoneMap raster.Homography
	// px is the photo's pixels per millimetre on the page.
	px float64
	// Offset is each side's edge, mm along its outward normal from where
	// the zone predicts it; OK whether it was found; Step its grey step.
	Offset [4]float64
	OK     [4]bool
	Step   [4]float64
}

// found: the edges its layout needs were found.
func (p pageEdges) found() bool {
	if p.lay == nil {
		return false
	}
	for side, need := range p.lay.need {
		if need && !p.OK[side] {
			return false
		}
	}
	return true
}

// aspect is the measured page's width over height; 0 unless all four
// edges were found.
func (p pageEdges) aspect() float64 {
	if !p.found() || !p.OK[sideTop] {
		return 0
	}
	return (p.lay.w + p.Offset[sideLeft] + p.Offset[sideRight]) / (p.lay.h + p.Offset[sideTop] + p.Offset[sideBottom])
}

// MaxZoneShift is how far, mm, the zone may stand from where TD3 puts it
// on the page its edges outline (ZoneInPlace): a zone printed elsewhere,
// or a strip pasted on, is not the issuer's. Rendered 3 MP pages with the
// zone where mrztest prints it measured 0-0.05 mm across and 0.4-0.6 mm up
// (td3Page.inkCentre is rounded down); printed 3 mm right, 2.95 mm; 3 mm up,
// 3.5; 1.8 mm left and down, 1.8 and 1.3 (2.2 off: out of place)
// (TestPassportZonePlace; the zone's pitch and centre from its cells). A real issuer's tolerance is not known to us
// (no real data page), so the bound is wide; a shift beyond the layout's search
// leaves the page unfound. The card's zone is placed the same way and held
// to the same bound (TestIDCardBackZonePlace).
const MaxZoneShift = 2.0

// zoneShift is how far the zone stands from where TD3 puts it on the page
// as its edges were found, mm right and up; ok only when the page was
// found. Across: half the difference of the side edges' offsets (a scale
// error moves both alike); up: the bottom edge's offset alone (8.5 mm from
// a data page's zone, 10.2 from a card's, where the pitch's error stays
// under 0.2 mm; the top edge's, 44-80 mm off, would add up to 1.5).
func (p pageEdges) zoneShift() (x, y float64, ok bool) {
	if !p.found() {
		return 0, 0, false
	}
	return (p.Offset[sideLeft] - p.Offset[sideRight]) / 2, p.Offset[sideBottom], true
}

// findPage places the side of layout lay around the zone z of g and looks
// for its four edges.
func findPage(g *image.Gray, z *reader.Zone, lay *layout) pageEdges {
	s := z.Pitch / pitchMM
	sin, cos := math.Sincos(z.Angle * math.Pi / 180)
	// Side (x, y) mm → photo: the zone's ink centre at (W/2, H - centre),
	// the side's x along the zone's lines.
	cx, cy := lay.w/2, lay.h-lay.inkCentre
	p := pageEdges{lay: lay, px: s, zoneMap: raster.Homography{
		s * cos, -s * sin, z.CX - s*(cos*cx-sin*cy),
		s * sin, s * cos, z.CY - s*(sin*cx+cos*cy),
		0, 0, 1,
	}}
	for side := range 4 {
		p.Offset[side], p.Step[side], p.OK[side] = p.edge(g, side)
	}
	return p
}

// edge looks for one side's edge: the grey level averaged along the
// side's middle half at each distance across it, and the distance within
// the layout's search where the mean over edgeWindow inside differs most from the
// mean outside. Samples outside the photo make no edge.
func (p pageEdges) edge(g *image.Gray, side int) (offset, step float64, ok bool) {
	const along = 40
	dt := math.Max(0.1, 1/p.px) // a photo pixel, at most 0.1 mm
	n := int((p.lay.search + edgeWindow) / dt)
	profile := make([]float64, 2*n+1) // index i: offset (i-n)·dt outward
	w, h := float64(g.Rect.Dx()), float64(g.Rect.Dy())
	for i := range profile {
		t := float64(i-n) * dt
		sum := 0.0
		for k := range along {
			a := 0.25 + 0.5*(float64(k)+0.5)/along
			var x, y float64
			switch side {
			case sideLeft:
				x, y = -t, a*p.lay.h
			case sideRight:
				x, y = p.lay.w+t, a*p.lay.h
			case sideTop:
				x, y = a*p.lay.w, -t
			case sideBottom:
				x, y = a*p.lay.w, p.lay.h+t
			}
			px, py := p.zoneMap.Apply(x, y)
			if px < 0 || py < 0 || px > w-1 || py > h-1 {
				return 0, 0, false
			}
			sum += raster.Bilinear(g, px, py, 0)
		}
		profile[i] = sum / along
	}
	win := int(edgeWindow / dt)
	mean := func(lo, hi int) float64 {
		s := 0.0
		for _, v := range profile[lo:hi] {
			s += v
		}
		return s / float64(hi-lo)
	}
	for i := win; i+win < len(profile); i++ {
		if d := math.Abs(mean(i-win, i) - mean(i, i+win)); d > step {
			offset, step = float64(i-n)*dt, d
		}
	}
	return offset, step, step >= MinEdgeStep
}

// pageMap maps millimetres of the page as its edges were found to the
// photo: the zone's prediction moved and stretched to the found edges
// (an edge not found stays where the zone puts it).
func (p pageEdges) pageMap() raster.Homography {
	off := p.Offset
	for side, ok := range p.OK {
		if !ok {
			off[side] = 0
		}
	}
	sx := (p.lay.w + off[sideLeft] + off[sideRight]) / p.lay.w
	sy := (p.lay.h + off[sideTop] + off[sideBottom]) / p.lay.h
	return raster.Homography{sx, 0, -off[sideLeft], 0, sy, -off[sideTop], 0, 0, 1}.Then(p.zoneMap)
}

// toPart maps the pixels of a w × h mm part of the page at (x0, y0),
// sampled at res px/mm, to the photo.
func (p pageEdges) toPart(x0, y0, res float64) raster.Homography {
	return raster.Homography{1 / res, 0, x0 + 0.5/res, 0, 1 / res, y0 + 0.5/res, 0, 0, 1}.Then(p.pageMap())
}

// res is the straightened page's resolution: the photo's, at most pageRes.
func (p pageEdges) res() float64 { return math.Min(p.px, pageRes) }

// warp straightens a part of the page from the grey photo.
func (p pageEdges) warp(g *image.Gray, x0, y0, w, h float64) *image.Gray {
	res := p.res()
	return raster.Warp(g, int(w*res), int(h*res), p.toPart(x0, y0, res), 0)
}

// warpColor straightens a part of the page from the colour photo, through
// toPhoto (the turned copy's coordinates to the photo's), nearest pixel.
func (p pageEdges) warpColor(photo image.Image, toPhoto raster.Homography, x0, y0, w, h float64) *image.RGBA {
	res := p.res()
	m := p.toPart(x0, y0, res).Then(toPhoto)
	out := image.NewRGBA(image.Rect(0, 0, int(w*res), int(h*res)))
	b := photo.Bounds()
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			sx, sy := m.Apply(float64(x), float64(y))
			ix, iy := b.Min.X+int(math.Round(sx)), b.Min.Y+int(math.Round(sy))
			if image.Pt(ix, iy).In(b) {
				out.Set(x, y, photo.At(ix, iy))
			} else {
				out.SetRGBA(x, y, color.RGBA{A: 255})
			}
		}
	}
	return out
}
