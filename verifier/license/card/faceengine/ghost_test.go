package faceengine_test

import (
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// A license with a ghost portrait (the same face at 0.45 of the side,
// grey, faded halfway to the card stock) yields the main portrait, upright
// or upside down, and reports the ghost; the ghost must be a face the
// engine finds too, or the test would prove nothing.
func TestPortraitIgnoresGhost(t *testing.T) {
	f := newFinder(t)
	ghostsSeen := 0
	for i, tc := range []struct {
		face         string
		rotation     float64
		wantRotation int
	}{
		{"amy1", 0, 0}, {"leonard2", 6, 0}, {"penny3", -5, 0}, {"raj1", 181, 180}, {"sheldon1", 177, 180}, {"howard2", 2, 0},
	} {
		p, err := frontPortrait(t, f, cardtest.Scene{Face: labeledFace(t, tc.face), Ghost: true, RotationDeg: tc.rotation, Seed: uint64(10 + i)})
		if err != nil {
			t.Errorf("%s: %v", tc.face, err)
			continue
		}
		centre := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2)
		if p.Rotation != tc.wantRotation || !centre.In(cardtest.FaceArea) {
			t.Errorf("%s: rotation %d, face centre %v; want %d and inside %v", tc.face, p.Rotation, centre, tc.wantRotation, cardtest.FaceArea)
		}
		if g := p.Ghost; g != nil {
			if c := g.Box.Min.Add(g.Box.Max).Div(2); !c.In(cardtest.GhostArea) {
				t.Errorf("%s: ghost at %v, want inside %v", tc.face, g.Box, cardtest.GhostArea)
			}
			ghostsSeen++
			t.Logf("%s: portrait %.0f px, ghost %.0f px (%.2f)", tc.face, p.Face.Size, g.Size, g.Size/p.Face.Size)
		}
	}
	if ghostsSeen < 3 {
		t.Errorf("the engine found %d of 6 ghosts: the scenes do not test ghost rejection", ghostsSeen)
	}
}

// A vertical (under-21) card held upright: the card comes out of
// AnalyzeFront long side horizontal, and the portrait search turns it
// back upright, with or without a ghost.
func TestPortraitVerticalCard(t *testing.T) {
	f := newFinder(t)
	for i, tc := range []struct {
		face     string
		rotation float64
		ghost    bool
	}{
		{"amy2", 90, false}, {"stuart1", -88, true}, {"bernadette3", 93, true}, {"leonard1", -90, false},
	} {
		p, err := frontPortrait(t, f, cardtest.Scene{Face: labeledFace(t, tc.face), Vertical: true, Ghost: tc.ghost, RotationDeg: tc.rotation, Seed: uint64(20 + i)})
		if err != nil {
			t.Errorf("%s: %v", tc.face, err)
			continue
		}
		centre := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2)
		if p.Upright.Rect.Size() != image.Pt(card.Height, card.Width) || !centre.In(cardtest.VerticalFaceArea) {
			t.Errorf("%s: upright %v (rotation %d), face centre %v; want %dx%d with the face inside %v",
				tc.face, p.Upright.Rect, p.Rotation, centre, card.Height, card.Width, cardtest.VerticalFaceArea)
		}
		assertHeadshotHasFace(t, f, p)
	}
}
