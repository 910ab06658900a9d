package engines

import (
	"context"
	"fmt"
	"image"
	"math"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// Passport judges a photo of a passport's data page (ICAO 9303 TD3): it
// reads the machine-readable zone (verifier/mrz/reader: found, straightened,
// matched against OCR-B, every check digit held by verifier/mrz), places
// the page around the zone and finds its edges (page.go), and finds the
// portrait on the page's left part through the face engine, as the
// license front does. A zone that does not read is never guessed:
// mrz_unreadable asks for another photo.
func (e *Engines) Passport(ctx context.Context, data []byte) (flow.PassportReport, error) {
	x, err := e.ExaminePassport(ctx, data)
	return x.PassportReport, err
}

// PassportExam is Passport's report with what it was decided from, for
// tests and calibration.
type PassportExam struct {
	flow.PassportReport
	// Turn is how far, clockwise in degrees, the photo was turned for the
	// zone to stand upright (0, 180, 90, 270).
	Turn int
	// Zone is the zone the page was placed around; nil when none was found.
	Zone *reader.Zone
	// ReadErr is the reader's error (nil when the zone read).
	ReadErr error
	// Page is where the page's edges were found.
	Page pageEdges
	// ZoneShift is how far the zone stands from where TD3 puts it on the
	// page found, mm right and up (zero when no page was found).
	ZoneShift [2]float64
	Timings   PassportTimings
}

// PassportTimings is the wall time of each step of a data-page
// examination.
type PassportTimings struct {
	Decode, Zone, Page, Portrait time.Duration
}

// ExaminePassport is Passport with everything it measured.
func (e *Engines) ExaminePassport(ctx context.Context, data []byte) (PassportExam, error) {
	rd, err := e.mrzReader()
	if err != nil {
		return PassportExam{}, fmt.Errorf("passport: %w", err)
	}
	var x PassportExam
	err = e.run(ctx, func(w *worker) error {
		start := time.Now()
		img, err := imgio.DecodeImage(data, imgio.Upload)
		x.Timings.Decode = time.Since(start)
		if p, ok := imageProblem(err); ok {
			x.Problems = []flow.Problem{p}
			return nil
		} else if err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		start = time.Now()
		grey, toPhoto, m := x.readZone(rd, raster.Luminance(img))
		x.Timings.Zone = time.Since(start)
		if x.Zone == nil {
			x.Problems = append(x.Problems, noZoneProblem(img))
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		start = time.Now()
		x.Page = findPage(grey, x.Zone)
		x.PageFound, x.Aspect = x.Page.found(), x.Page.aspect()
		x.ProportionsOK = x.Aspect > 0 && math.Abs(x.Aspect/TD3Aspect-1) <= PageAspectTolerance
		if sx, sy, ok := x.Page.zoneShift(); ok {
			x.ZoneShift = [2]float64{sx, sy}
			x.ZoneInPlace = math.Hypot(sx, sy) <= MaxZoneShift
		}
		pageGrey := x.Page.warp(grey, 0, 0, td3W, td3H)
		x.Sharpness, x.Glare = card.SharpnessOf(pageGrey), card.GlareOf(pageGrey)
		x.Timings.Page = time.Since(start)
		x.judge(m, e.cfg.Now())
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		start = time.Now()
		defer func() { x.Timings.Portrait = time.Since(start) }()
		return w.pagePortrait(&x, img, toPhoto)
	})
	return x, err
}

// readZone reads the zone of the photo's grey copy turned upright: as it
// stands, then upside down, then on either side (a page photographed with
// the phone held across it). It keeps the first turn where the zone
// reads, or else the first where one was found (the reader finds lines of
// a zone upside down too, and cannot read them): the grey copy at that
// turn, the map from its coordinates to the photo's, and the zone read
// (nil unless it read).
func (x *PassportExam) readZone(rd *reader.Reader, photo *image.Gray) (*image.Gray, raster.Homography, *mrz.MRZ) {
	w, h := float64(photo.Rect.Dx()), float64(photo.Rect.Dy())
	var keep struct {
		grey    *image.Gray
		toPhoto raster.Homography
	}
	x.ReadErr = reader.ErrNoZone
	for _, turn := range card.Orientations {
		// toPhoto maps the turned copy's pixel centres to the photo's
		// (card.Orientations' turns, clockwise).
		var toPhoto raster.Homography
		tw, th := int(w), int(h)
		switch turn {
		case 0:
			toPhoto = raster.Homography{1, 0, 0, 0, 1, 0, 0, 0, 1}
		case 90:
			toPhoto, tw, th = raster.Homography{0, 1, 0, -1, 0, h - 1, 0, 0, 1}, int(h), int(w)
		case 180:
			toPhoto = raster.Homography{-1, 0, w - 1, 0, -1, h - 1, 0, 0, 1}
		case 270:
			toPhoto, tw, th = raster.Homography{0, -1, w - 1, 1, 0, 0, 0, 0, 1}, int(h), int(w)
		}
		g := photo
		if turn != 0 {
			g = raster.Warp(photo, tw, th, toPhoto, 0)
		}
		m, z, err := rd.ReadZone(g)
		switch {
		case err == nil:
			x.Turn, x.Zone, x.ReadErr = turn, z, nil
			return g, toPhoto, m
		case z != nil && x.Zone == nil:
			x.Turn, x.Zone, x.ReadErr = turn, z, err
			keep.grey, keep.toPhoto = g, toPhoto
		}
	}
	return keep.grey, keep.toPhoto, nil
}

// noZoneProblem tells a photo without a zone: a document-like outline in
// it (card.AnalyzeFront's finder takes outlines of 1.15 to 2.2, a TD3 page
// 1.42, and measures one it then refuses) is a page whose zone was not
// seen, else no page at all.
func noZoneProblem(img image.Image) flow.Problem {
	if c, err := card.AnalyzeFront(img); err == nil || c.Aspect > 0 {
		return flow.ProblemMRZNotFound
	}
	return flow.ProblemPageNotFound
}

// judge turns the zone's reading and the page's measures into the
// problems, and keeps the document when the zone read.
func (x *PassportExam) judge(m *mrz.MRZ, now time.Time) {
	if !x.PageFound {
		x.Problems = append(x.Problems, flow.ProblemPageNotFound)
	}
	switch {
	case x.ReadErr == nil && m.Format != mrz.TD3:
		// A card's zone (TD1) is the id_card kind's, not a passport's.
		x.Problems = append(x.Problems, flow.ProblemMRZNotFound)
	case x.ReadErr == nil && m.Specimen():
		x.Problems = append(x.Problems, flow.ProblemDocumentSpecimen)
	case x.ReadErr == nil:
		// The read day decides the centuries of the zone's years.
		d := mrz.NewDocument(*m, now)
		x.Document = &d
	default:
		x.Problems = append(x.Problems, flow.ProblemMRZUnreadable)
		if x.Sharpness < MinPageSharpness {
			x.Problems = append(x.Problems, flow.ProblemTooBlurry)
		}
	}
	if x.Glare > MaxGlare {
		x.Problems = append(x.Problems, flow.ProblemGlare)
	}
}

// pagePortrait finds the portrait on the page's left part (the format puts
// it there, above the zone: Doc 9303 Part 4, zone V), in colour, through
// the face engine as the front does. The zone has already turned the page
// upright, so unlike the license front (card.FindPortrait, four turns)
// one search does: the largest face by size × score, as FindPortrait
// weighs them, of at least card.MinPortraitFace of the part's short side
// (8 mm: a printed portrait's face is 15-25 mm, a ghost image's or the
// guilloche's faces smaller).
func (w *worker) pagePortrait(x *PassportExam, photo image.Image, toPhoto raster.Homography) error {
	left := x.Page.warpColor(photo, toPhoto, 0, 0, portraitW, portraitH)
	faces, err := w.finder.FindFaces(left)
	if err != nil {
		return fmt.Errorf("passport: portrait: %w", err)
	}
	var best *card.Face
	for i, fc := range faces {
		if best == nil || fc.Size*float64(fc.Score) > best.Size*float64(best.Score) {
			best = &faces[i]
		}
	}
	if best == nil || best.Size < card.MinPortraitFace*float64(min(left.Rect.Dx(), left.Rect.Dy())) {
		x.Problems = append(x.Problems, flow.ProblemNoPortrait)
		return nil
	}
	p := card.Portrait{Face: *best, Upright: left}
	x.FacePresent = true
	if fc, ok := w.finder.Face(p.Upright, p.Face); ok {
		x.Portrait = fc.Descriptor[:]
	}
	if x.Headshot, err = card.Headshot(p); err != nil {
		return fmt.Errorf("passport: %w", err)
	}
	return nil
}
