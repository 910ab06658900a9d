package main

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// cardFamilies is the synthetic evaluation set of license fronts: cards
// on a table (the layout the finder was built for), ghost portraits,
// cards filling the frame, flat scans and vertical cards; each scene is
// rendered with facesPerScene labeled faces (or all of them), every other
// one with a ghost. The refusals must stay refused.
var cardFamilies = []struct {
	family string
	scenes []cardtest.Scene
	// everyFace renders each scene with all 40 labeled faces.
	everyFace bool
}{
	{"on a table", []cardtest.Scene{
		{FrameW: 1600, CardW: 1000},
		{FrameW: 1600, CardW: 1000, RotationDeg: 12},
		{FrameW: 1600, CardW: 1000, RotationDeg: 183},
	}, false},
	{"ghost portrait", []cardtest.Scene{
		{FrameW: 1600, CardW: 1000, RotationDeg: 3, Ghost: true},
		{FrameW: 1600, CardW: 1000, RotationDeg: 181, Ghost: true},
	}, false},
	// The engine also "confirms" faces upside down; which orientation's
	// face is the portrait is the choice most likely to go wrong.
	{"upside down", []cardtest.Scene{{FrameW: 1600, CardW: 1000, RotationDeg: 181}}, true},
	{"filling the frame", []cardtest.Scene{
		{FrameW: 1600, CardW: 1360, RotationDeg: 2},
		{FrameW: 1600, CardW: 1520, RotationDeg: 1, Centred: true},
		{FrameW: 1600, CardW: 1600, Centred: true},
		{FrameW: 1600, CardW: 1600, Centred: true, RotationDeg: 2},
		{FrameW: 1920, CardW: 1080 * card.ID1Aspect, Centred: true, FrameAspect: 16.0 / 9},
	}, false},
	{"flat scan", []cardtest.Scene{
		{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect},
		{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect, RotationDeg: 1},
		{FrameW: 1200, CardW: 1164, Centred: true, FrameAspect: card.ID1Aspect},
		{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect, RotationDeg: 180},
	}, false},
	{"vertical", []cardtest.Scene{
		{FrameW: 1600, CardW: 1000, RotationDeg: 90, Vertical: true},
		{FrameW: 1600, CardW: 1000, RotationDeg: -88, Vertical: true},
		{FrameW: 757, CardW: 1200, Centred: true, FrameAspect: 1 / card.ID1Aspect, RotationDeg: 90, Vertical: true},
		{FrameW: 1200, CardW: 1600, Centred: true, FrameAspect: 0.75, RotationDeg: -90, Vertical: true},
	}, false},
}

// cardRefusals: a far card in 4:3, 3:2 and ID-1-shaped photos, and
// tables alone.
var cardRefusals = []cardtest.Scene{
	{FrameW: 1600, CardW: 380},
	{FrameW: 1800, CardW: 380, FrameAspect: 1.5},
	{FrameW: 1800, CardW: 380, FrameAspect: card.ID1Aspect},
	{FrameW: 1600, CardW: 1, NoCard: true},
	{FrameW: 1800, CardW: 1, NoCard: true, FrameAspect: 1.5},
}

const facesPerScene = 4

// cardSample is one rendered photo and its truth.
type cardSample struct {
	family, file string
	vertical     bool
	refuse       bool
	// person indexes the labeled face printed; upright says it stands
	// upright in the photo itself (face compare does not turn photos).
	person  int
	upright bool
	want    [4]raster.Point // the card's corners clipped to the frame
	cardW   float64
	data    []byte
}

// front is what a run reports of one photo, before or after.
type front struct {
	found    bool // corners were reported
	cardErr  string
	corners  [4][2]int
	face     bool
	box      [4]int // x, y, width, height on the upright card
	rotation int
}

// cardSamples renders the set; faces are the labeled photos, taken in turn.
func cardSamples(faces []labeled) ([]cardSample, error) {
	var out []cardSample
	k := 0
	for _, fam := range cardFamilies {
		perScene := facesPerScene
		if fam.everyFace {
			perScene = len(faces)
		}
		for i, s := range fam.scenes {
			for j := range perScene {
				s := s
				s.Aspect, s.Seed = card.ID1Aspect, uint64(100*i+j)
				s.Face = faces[k%len(faces)].img
				s.Ghost = s.Ghost || j%2 == 1
				k++
				smp, err := render(s, fmt.Sprintf("card-%s-%d-%d.jpg", slug(fam.family), i, j), fam.family)
				if err != nil {
					return nil, err
				}
				smp.person = (k - 1) % len(faces)
				// A vertical card stands upright at +90° (its layout is drawn
				// turned a quarter counter-clockwise); at −90° it is upside down.
				turn := math.Remainder(s.RotationDeg, 360)
				smp.upright = (!s.Vertical && math.Abs(turn) < 20) || (s.Vertical && math.Abs(turn-90) < 20)
				out = append(out, smp)
			}
		}
	}
	for i, s := range cardRefusals {
		s.Aspect, s.Seed = card.ID1Aspect, uint64(900+i)
		smp, err := render(s, fmt.Sprintf("card-refusal-%d.jpg", i), "refusal")
		if err != nil {
			return nil, err
		}
		smp.refuse = true
		out = append(out, smp)
	}
	return out, nil
}

func render(s cardtest.Scene, file, family string) (cardSample, error) {
	img, corners := s.Render()
	for i := range corners {
		corners[i].X = min(max(corners[i].X, 0), float64(img.Rect.Dx()))
		corners[i].Y = min(max(corners[i].Y, 0), float64(img.Rect.Dy()))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		return cardSample{}, err
	}
	return cardSample{family: family, file: file, vertical: s.Vertical, want: corners, cardW: s.CardW, data: buf.Bytes()}, nil
}

// frontAfter runs today's card and portrait steps on a photo.
func frontAfter(f *faceengine.Finder, img image.Image) (front, error) {
	var r front
	c, err := card.AnalyzeFront(img)
	if c.Aspect == 0 {
		return r, nil
	}
	r.found = true
	for i, p := range c.Corners {
		r.corners[i] = [2]int{p.X, p.Y}
	}
	if err != nil {
		r.cardErr = err.Error()
	}
	if c.Image == nil {
		return r, nil
	}
	p, err := card.FindPortrait(c.Image, f)
	if err != nil {
		return r, nil // no portrait is an outcome, not a failure of the run
	}
	b := p.Face.Box
	r.face, r.box, r.rotation = true, [4]int{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}, p.Rotation
	return r, nil
}

// frontBefore runs the baseline's `license front` on the same file.
func frontBefore(b *baseline, path string) front {
	var rep struct {
		Corners   [4][2]int `json:"corners"`
		CardError string    `json:"card_error"`
		Face      *struct {
			Box      [4]int `json:"box"`
			Rotation int    `json:"rotation"`
		} `json:"face"`
	}
	if err := b.run(&rep, "license", "front", path); err != nil {
		return front{} // no card found: the command fails
	}
	r := front{found: true, cardErr: rep.CardError, corners: rep.Corners}
	if rep.Face != nil {
		r.face, r.box, r.rotation = true, rep.Face.Box, rep.Face.Rotation
	}
	return r
}

// cardOK: no error, and every corner within 2% of the card's width of
// the truth. The finder orders corners by the card's long side, not by
// which way up it is, so any rotation of the order counts.
func (s cardSample) cardOK(r front) bool {
	if !r.found || r.cardErr != "" {
		return false
	}
	for shift := range 4 {
		ok := true
		for i, c := range r.corners {
			w := s.want[(i+shift)%4]
			ok = ok && math.Hypot(float64(c[0])-w.X, float64(c[1])-w.Y) <= 0.02*s.cardW
		}
		if ok {
			return true
		}
	}
	return false
}

// portraitOK: the card is right and the face found is the portrait,
// upright: its centre in the layout's face area, the card turned the
// layout's way (long side across for horizontal cards, up for vertical).
func (s cardSample) portraitOK(r front) bool {
	if !s.cardOK(r) || !r.face {
		return false
	}
	centre := image.Pt(r.box[0]+r.box[2]/2, r.box[1]+r.box[3]/2)
	sideways := r.rotation == 90 || r.rotation == 270
	if s.vertical {
		return sideways && centre.In(cardtest.VerticalFaceArea)
	}
	return !sideways && centre.In(cardtest.FaceArea)
}

// refused: the photo was refused (no card, or a card with an error).
func refused(r front) bool { return !r.found || r.cardErr != "" }

func slug(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' {
			b[i] = '-'
		}
	}
	return string(b)
}
