package engines

import (
	"context"
	"errors"
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

// ZoneExam is what reading a document's zone side (a passport's data
// page, an ID card's back) was decided from, for tests and calibration.
type ZoneExam struct {
	// Turn is how far, clockwise in degrees, the photo was turned for the
	// zone to stand upright (0, 180, 90, 270).
	Turn int
	// Turns are the turns searched, in order (readZone).
	Turns []int
	// Zone is the zone the side was placed around; nil when none was found.
	Zone *reader.Zone
	// MRZ is the zone as read (nil unless it read, whatever its format).
	MRZ *mrz.MRZ
	// ReadErr is the reader's error (nil when the zone read).
	ReadErr error
	// NamesSettled: the zone read but for some name cells, which a second
	// reading of the names settled (examine's settle: the data page's
	// visual zone).
	NamesSettled bool
	// Page is where the side's edges were found.
	Page pageEdges
	// ZoneShift is how far the zone stands from where its format puts it
	// on the side found, mm right and up (zero when none was found).
	ZoneShift [2]float64
	// Timings is the wall time of each step.
	Timings SideTimings
}

// SideTimings is the wall time of each step of a zone side's examination
// (Portrait and Text, the visual inspection zone's OCR: the data page's
// only).
type SideTimings struct {
	Decode, Zone, Page, Portrait, Text time.Duration
}

// zoneSide is the judgement of a zone side, as both reports carry it.
type zoneSide struct {
	Problems                          []flow.Problem
	Found, ProportionsOK, ZoneInPlace bool
	Aspect, Sharpness, Glare          float64
	Document                          *mrz.Document
	// img is the decoded photo, grey the grey copy turned upright and
	// toPhoto the map from grey's coordinates to img's; set only when a
	// zone of the layout's format was found (placed).
	img     image.Image
	grey    *image.Gray
	toPhoto raster.Homography
}

// placed: a zone of the layout's format was found and the side placed
// around it.
func (s *zoneSide) placed() bool { return s.grey != nil }

// examine decodes a photo of the zone side of a document of layout lay,
// reads its zone (turned upright, readZone), places the side around it,
// finds its edges and measures it, and judges it at now. A zone of another
// format, read, is mrz_not_found alone: the side is not placed (its
// geometry would be the wrong one). A zone of the layout's format read
// but for some name cells (reader.UnsureNames) is handed, once the side
// is placed, to settle (when not nil), whose zone, if any, is the one
// read. ctx is checked between steps.
func (x *ZoneExam) examine(ctx context.Context, rd *reader.Reader, data []byte, lay *layout, now time.Time, settle settleNames) (zoneSide, error) {
	var s zoneSide
	start := time.Now()
	img, err := imgio.DecodeImage(data, imgio.Upload)
	x.Timings.Decode = time.Since(start)
	if p, ok := imageProblem(err); ok {
		s.Problems = []flow.Problem{p}
		return s, nil
	} else if err != nil {
		return s, err
	}
	start = time.Now()
	grey, toPhoto, m := x.readZone(rd, raster.Luminance(img))
	x.Timings.Zone = time.Since(start)
	x.MRZ = m
	if x.Zone == nil {
		s.Problems = append(s.Problems, noZoneProblem(img, lay))
		return s, nil
	}
	if m != nil && m.Format != lay.format {
		// A card's zone on a passport's step, or a data page's on a card's.
		// (One that does not read is placed as the layout's: a blurred
		// card's three lines may be found as two.)
		s.Problems = append(s.Problems, flow.ProblemMRZNotFound)
		return s, nil
	}
	if err := ctx.Err(); err != nil {
		return s, err
	}
	start = time.Now()
	x.Page = findPage(grey, x.Zone, lay)
	s.Found, s.Aspect = x.Page.found(), x.Page.aspect()
	s.ProportionsOK = s.Aspect > 0 && math.Abs(s.Aspect/(lay.w/lay.h)-1) <= PageAspectTolerance
	if sx, sy, ok := x.Page.zoneShift(); ok {
		x.ZoneShift = [2]float64{sx, sy}
		s.ZoneInPlace = math.Hypot(sx, sy) <= MaxZoneShift
	}
	sideGrey := x.Page.warp(grey, 0, 0, lay.w, lay.h)
	s.Sharpness, s.Glare = card.SharpnessOf(sideGrey), card.GlareOf(sideGrey)
	x.Timings.Page = time.Since(start)
	if names := unsureNames(x.ReadErr); m == nil && settle != nil && names != nil && names.Format == lay.format {
		if m, err = settle(grey, names); err != nil {
			return s, err
		}
		if m != nil {
			x.MRZ, x.ReadErr, x.NamesSettled = m, nil, true
		}
	}
	s.judge(x.ReadErr, m, lay, now)
	s.img, s.grey, s.toPhoto = img, grey, toPhoto
	return s, nil
}

// settleNames reads the zone of a placed side, read but for some name
// cells, with the names as a second reading gives them (passport.go's
// settleNames): the zone, or nil when that reading does not settle it.
// grey is the photo turned as the zone stands upright.
type settleNames func(grey *image.Gray, names *reader.UnsureNames) (*mrz.MRZ, error)

// readZone reads the zone of the photo's grey copy turned upright: as it
// stands, then upside down, then on either side (a document photographed
// with the phone held across it). It keeps the first turn where the zone
// reads, or else the first where one was found (the reader finds lines of
// a zone upside down too, and cannot read them): the grey copy at that
// turn, the map from its coordinates to the photo's, and the zone read
// (nil unless it read). A turn where the zone read but for some name
// cells (reader.UnsureNames) is kept before one where it did not read.
//
// A zone found and not read is not searched for on either side: the
// reader looks for lines within 12° of level, so the zone's lines stand
// upright at the quarter turns, where only another zone could be found.
// Those two searches found nothing on the refused photos measured
// (docs/engines.md) and were the most of a refused photo's time: a search
// that finds nothing tries every working copy with both inks. Upside down
// it is read where it was found (reader.ReadUpsideDown), not searched for
// in the whole photo again: that search cost what the upright one did,
// and the outcomes measured were the same but one, read now
// (docs/engines.md).
func (x *ZoneExam) readZone(rd *reader.Reader, photo *image.Gray) (*image.Gray, raster.Homography, *mrz.MRZ) {
	w, h := float64(photo.Rect.Dx()), float64(photo.Rect.Dy())
	var keep struct {
		grey    *image.Gray
		toPhoto raster.Homography
	}
	x.ReadErr = reader.ErrNoZone
	for _, turn := range card.Orientations {
		if x.Zone != nil && (turn-x.Turn)%180 != 0 {
			continue
		}
		x.Turns = append(x.Turns, turn)
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
		read := rd.ReadZone
		if x.Zone != nil {
			// Upside down, the zone found upright is read where it was
			// found, not searched for again.
			read = func(g *image.Gray) (*mrz.MRZ, *reader.Zone, error) { return rd.ReadUpsideDown(g, x.Zone) }
		}
		m, z, err := read(g)
		// A zone read but for some name cells stands upright at this turn
		// and is the one the side is placed around (its names may yet be
		// settled: examine).
		names := unsureNames(err)
		if names != nil {
			z = names.Zone
		}
		switch {
		case err == nil:
			x.Turn, x.Zone, x.ReadErr = turn, z, nil
			return g, toPhoto, m
		case z != nil && (x.Zone == nil || names != nil && unsureNames(x.ReadErr) == nil):
			x.Turn, x.Zone, x.ReadErr = turn, z, err
			keep.grey, keep.toPhoto = g, toPhoto
		}
	}
	return keep.grey, keep.toPhoto, nil
}

// unsureNames is the reader's zone read but for some name cells that err
// carries, nil when none.
func unsureNames(err error) *reader.UnsureNames {
	var names *reader.UnsureNames
	if errors.As(err, &names) {
		return names
	}
	return nil
}

// noZoneProblem tells a photo without a zone: a document-like outline in
// it (card.AnalyzeFront's finder takes outlines of 1.15 to 2.2, a TD3 page
// 1.42 and an ID-1 card 1.59, and measures one it then refuses) is a
// document whose zone was not seen, else no document at all (the layout's
// missing problem).
func noZoneProblem(img image.Image, lay *layout) flow.Problem {
	if c, err := card.AnalyzeFront(img); err == nil || c.Aspect > 0 {
		return flow.ProblemMRZNotFound
	}
	return lay.missing
}

// judge turns the zone's reading (m, or the reader's error) and the side's
// measures into the problems, and keeps the document when the zone read.
func (s *zoneSide) judge(readErr error, m *mrz.MRZ, lay *layout, now time.Time) {
	if !s.Found {
		s.Problems = append(s.Problems, lay.missing)
	}
	switch {
	case readErr == nil && m.Specimen():
		s.Problems = append(s.Problems, flow.ProblemDocumentSpecimen)
	case readErr == nil:
		// The read day decides the centuries of the zone's years.
		d := mrz.NewDocument(*m, now)
		s.Document = &d
	default:
		s.Problems = append(s.Problems, flow.ProblemMRZUnreadable)
		// The page's sharpness, or the reader's own measure of the zone's
		// print (a page in focus whose zone is not: the reader refuses
		// print blurred past σ 0.19 pitch, where a wrong glyph matches
		// better than the printed one).
		if s.Sharpness < MinPageSharpness || errors.Is(readErr, reader.ErrTooBlurred) {
			s.Problems = append(s.Problems, flow.ProblemTooBlurry)
		}
	}
	if s.Glare > MaxGlare {
		s.Problems = append(s.Problems, flow.ProblemGlare)
	}
}
