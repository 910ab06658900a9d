package faceengine_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"sync"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
)

var (
	loadOnce sync.Once
	finder   *faceengine.Finder
	loadErr  error
)

// newFinder loads the engine once for the whole test binary (whose tests
// run one at a time, as a Finder requires).
func newFinder(t testing.TB) *faceengine.Finder {
	t.Helper()
	set := modelstest.Set(t)
	loadOnce.Do(func() {
		var eng *face.Engine
		if eng, loadErr = face.Load(set.Dir, face.DefaultOptions); loadErr == nil {
			finder = faceengine.New(eng.NewAnalyzer())
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return finder
}

func labeledFace(t testing.TB, name string) image.Image {
	return testkit.PNG(t, "testdata", "faces", "labeled", name[:len(name)-1], name+".png")
}

// frontPortrait renders a license front and runs the card and portrait
// steps on it.
func frontPortrait(t *testing.T, f *faceengine.Finder, s cardtest.Scene) (card.Portrait, error) {
	t.Helper()
	s.FrameW, s.CardW, s.Aspect = 1600, 1000, card.ID1Aspect
	photo, _ := s.Render()
	c, err := card.AnalyzeFront(photo)
	if err != nil {
		t.Fatalf("analyze front: %v", err)
	}
	return card.FindPortrait(c.Image, f)
}

// A real face printed in the portrait area is found there, on the left
// third of the card, whichever way up the card was photographed.
func TestPortraitOnSyntheticFronts(t *testing.T) {
	f := newFinder(t)
	cases := []struct {
		name, face   string
		rotation     float64
		keystone     float64
		wantRotation int
	}{
		{"level", "amy1", 0, 0, 0},
		{"tilted 9°", "leonard2", 9, 0, 0},
		{"keystone", "penny3", -4, 0.07, 0},
		{"upside down", "raj1", 183, 0, 180},
		// The engine also confirms this one upside down, smaller.
		{"upside down, also confirmed upside down", "penny1", 183, 0.05, 180},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := frontPortrait(t, f, cardtest.Scene{Face: labeledFace(t, tc.face), RotationDeg: tc.rotation, Keystone: tc.keystone, Seed: uint64(i)})
			if err != nil {
				t.Fatal(err)
			}
			if p.Rotation != tc.wantRotation {
				t.Errorf("rotation %d, want %d", p.Rotation, tc.wantRotation)
			}
			centre := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2)
			// The face is printed in cardtest.FaceArea; corners found within 1%
			// of the card keep it within a few pixels of there.
			if !centre.In(cardtest.FaceArea) || centre.X > card.Width/3 {
				t.Errorf("face centre %v (box %v), want inside %v on the left third", centre, p.Face.Box, cardtest.FaceArea)
			}
			if p.Face.Size < card.MinPortraitFace*card.Height {
				t.Errorf("face %.0f px across", p.Face.Size)
			}
			if p.Ghost != nil {
				t.Errorf("a ghost at %v on a card without one", p.Ghost.Box)
			}
			t.Logf("box %v size %.0f score %.2f", p.Face.Box, p.Face.Size, p.Face.Score)
			assertHeadshotHasFace(t, f, p)
		})
	}
}

// The engine confirms many faces upside down too, fitting an upright face
// to part of one; every labeled face printed on a card with a ghost
// portrait, turned 180°, must still come out upright in its portrait area.
// Three of each person's five photos keep the test short (all 40 passed
// when the rule was chosen).
func TestPortraitUpsideDownAllLabeledFaces(t *testing.T) {
	f := newFinder(t)
	area := cardtest.FaceArea
	for _, who := range []string{"amy", "bernadette", "howard", "leonard", "penny", "raj", "sheldon", "stuart"} {
		for _, k := range []int{1, 3, 5} {
			name := fmt.Sprintf("%s%d", who, k)
			flat := cardtest.Scene{Aspect: card.ID1Aspect, Face: labeledFace(t, name), Ghost: true}.Card()
			p, err := card.FindPortrait(turnHalf(flat), f)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if c := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2); p.Rotation != 180 || !c.In(area) {
				t.Errorf("%s: rotation %d, face centre %v (size %.0f), want 180 and inside %v", name, p.Rotation, c, p.Face.Size, area)
			}
		}
	}
}

// turnHalf turns img 180°.
func turnHalf(img *image.RGBA) *image.RGBA {
	b := img.Rect
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetRGBA(x, y, img.RGBAAt(b.Max.X-1-x+b.Min.X, b.Max.Y-1-y+b.Min.Y))
		}
	}
	return out
}

// A vertical (under-21) layout prints the portrait turned a quarter
// relative to the card's long side; the card comes out of AnalyzeFront
// long side horizontal, so the face lies on its side until turned.
func TestPortraitSideways(t *testing.T) {
	f := newFinder(t)
	p, err := frontPortrait(t, f, cardtest.Scene{Face: turnClockwise(labeledFace(t, "stuart1")), RotationDeg: 4, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if p.Rotation != 270 || p.Upright.Rect.Dx() != card.Height {
		t.Fatalf("rotation %d, upright %v; want 270 (a counter-clockwise quarter turn)", p.Rotation, p.Upright.Rect)
	}
	// FaceArea turned counter-clockwise with the card: (x, y) → (y, Width-1-x).
	a := cardtest.FaceArea
	want := image.Rect(a.Min.Y, card.Width-a.Max.X, a.Max.Y, card.Width-a.Min.X)
	if c := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2); !c.In(want) {
		t.Errorf("face centre %v, want inside %v", c, want)
	}
	assertHeadshotHasFace(t, f, p)
}

// turnClockwise turns img a quarter clockwise.
func turnClockwise(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := 0; y < b.Dx(); y++ {
		for x := 0; x < b.Dy(); x++ {
			out.Set(x, y, img.At(b.Min.X+y, b.Max.Y-1-x))
		}
	}
	return out
}

// The license_photo crop is a JPEG within the documented bounds in which
// the engine finds the same face again.
func assertHeadshotHasFace(t *testing.T, f *faceengine.Finder, p card.Portrait) {
	t.Helper()
	jpg, err := card.Headshot(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(jpg))
	if err != nil {
		t.Fatalf("headshot is not a JPEG: %v", err)
	}
	if b := img.Bounds(); max(b.Dx(), b.Dy()) > card.HeadshotMaxSide || b.Dx() <= p.Face.Box.Dx() {
		t.Errorf("headshot %v for a face box %v", b, p.Face.Box)
	}
	faces, err := f.FindFaces(img)
	if err != nil || len(faces) == 0 {
		t.Fatalf("no face in the headshot (%d bytes): %v", len(jpg), err)
	}
	t.Logf("headshot %v, %d bytes, face %.0f px", img.Bounds(), len(jpg), faces[0].Size)
}

// A card whose portrait holds no real face (the synthetic oval, or an
// empty ground) has no portrait in any orientation.
func TestNoPortraitOnFacelessCards(t *testing.T) {
	f := newFinder(t)
	for name, s := range map[string]cardtest.Scene{
		"oval":  {RotationDeg: 5, Seed: 1},
		"empty": {RotationDeg: -3, BlankPortrait: true, Seed: 2},
	} {
		if p, err := frontPortrait(t, f, s); !errors.Is(err, card.ErrNoPortrait) {
			t.Errorf("%s: got %+v, %v; want ErrNoPortrait", name, p.Face, err)
		}
	}
}
