package faceengine_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
)

// The license_photo crop and the portrait the face match describes come
// from the card the finder found: on cards of the evaluation's designs
// (a dark band to the edge, a guilloche ground, a card filling a scan) the
// headshot matches the same crop of the flat card as printed, within the
// JPEG's and the warp's error, and the portrait's Upright is that card.
func TestHeadshotComesFromTheCard(t *testing.T) {
	f := newFinder(t)
	for i, tc := range []faceScene{
		{"dark band on a dark table", "amy3", cardtest.Scene{FrameW: 1600, CardW: 1000, RotationDeg: 4, Design: cardtest.Designs[1]}},
		{"guilloche on denim", "howard4", cardtest.Scene{FrameW: 1600, CardW: 1000, RotationDeg: -6, Design: cardtest.Designs[5], Surface: cardtest.Denim}},
		{"accent lines, flat scan", "penny2", cardtest.Scene{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect, Design: cardtest.Designs[3]}},
	} {
		s, c, p, ok := tc.portrait(t, f, uint64(80+i))
		if !ok {
			continue
		}
		if p.Rotation != 0 || p.Upright != c.Image {
			t.Errorf("%s: portrait rotation %d, upright is the corrected card: %v", tc.name, p.Rotation, p.Upright == c.Image)
			continue
		}
		jpg, err := card.Headshot(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := jpeg.Decode(bytes.NewReader(jpg))
		if err != nil {
			t.Fatal(err)
		}
		// The same crop of the card as printed, scaled as the headshot is.
		box := p.Face.Box
		crop := box.Inset(-int(card.HeadshotMargin * float64(max(box.Dx(), box.Dy())))).Intersect(p.Upright.Rect)
		want := image.NewRGBA(got.Bounds())
		draw.CatmullRom.Scale(want, want.Rect, s.Card(), crop, draw.Src, nil)
		if d := meanAbsDiff(got, want); d > 20 {
			t.Errorf("%s: headshot differs from the printed portrait by %.1f levels on average", tc.name, d)
		} else {
			t.Logf("%s: headshot %v within %.1f levels of the printed portrait", tc.name, got.Bounds(), d)
		}
	}
}

func meanAbsDiff(a, b image.Image) float64 {
	r := a.Bounds()
	var sum, n float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range []float64{float64(ar) - float64(br), float64(ag) - float64(bg), float64(ab) - float64(bb)} {
				if d < 0 {
					d = -d
				}
				sum += d / 257
				n++
			}
		}
	}
	return sum / n
}

// faceScene is a card scene printed with a labeled face.
type faceScene struct {
	name, face string
	s          cardtest.Scene
}

// portrait renders the scene (ID-1, the face printed, seeded), finds the
// card and its portrait; ok false (the test failed) when either is missing.
func (fs faceScene) portrait(t *testing.T, f *faceengine.Finder, seed uint64) (cardtest.Scene, card.Card, card.Portrait, bool) {
	t.Helper()
	s := fs.s
	s.Aspect, s.Face, s.Seed = card.ID1Aspect, labeledFace(t, fs.face), seed
	photo, _ := s.Render()
	c, err := card.AnalyzeFront(photo)
	if err != nil {
		t.Errorf("%s: %v", fs.name, err)
		return s, c, card.Portrait{}, false
	}
	p, err := card.FindPortrait(c.Image, f)
	if err != nil {
		t.Errorf("%s: %v", fs.name, err)
		return s, c, p, false
	}
	return s, c, p, true
}
