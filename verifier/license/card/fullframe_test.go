package card_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// FullFrameScenes are cards filling 60–100% of the photo or all of it
// (flat scans, tight crops), horizontal and vertical; before the full-frame
// rule the four that touch the frame came out as the portrait's rectangle.
var fullFrameScenes = []struct {
	name string
	s    cardtest.Scene
}{
	{"4:3, card 85% of the width", cardtest.Scene{FrameW: 1600, CardW: 1360, RotationDeg: 2}},
	{"4:3, card 95% of the width", cardtest.Scene{FrameW: 1600, CardW: 1520, RotationDeg: 1, Centred: true}},
	{"4:3, card the full width", cardtest.Scene{FrameW: 1600, CardW: 1600, Centred: true}},
	{"4:3, card the full width, tilted 2°", cardtest.Scene{FrameW: 1600, CardW: 1600, Centred: true, RotationDeg: 2}},
	{"16:9, card the full height", cardtest.Scene{FrameW: 1920, CardW: 1080 * card.ID1Aspect, Centred: true, FrameAspect: 16.0 / 9}},
	{"flat scan", cardtest.Scene{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect}},
	{"flat scan, tilted 1°", cardtest.Scene{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect, RotationDeg: 1}},
	{"flat scan, thin margin", cardtest.Scene{FrameW: 1200, CardW: 1164, Centred: true, FrameAspect: card.ID1Aspect}},
	{"vertical flat scan", cardtest.Scene{FrameW: 757, CardW: 1200, Centred: true, FrameAspect: 1 / card.ID1Aspect, RotationDeg: 90, Vertical: true}},
	{"3:4, vertical card the full height", cardtest.Scene{FrameW: 1200, CardW: 1600, Centred: true, FrameAspect: 0.75, RotationDeg: 90, Vertical: true}},
}

func TestAnalyzeFrontFullFrame(t *testing.T) {
	for i, tc := range fullFrameScenes {
		s := tc.s
		s.Aspect, s.Seed = card.ID1Aspect, uint64(30+i)
		img, want := s.Render()
		c, err := card.AnalyzeFront(img)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		// A tilted card that fills the frame is cut by it: its corners
		// stop at the frame's edge, 1–2% of the card inside the true ones.
		clipped := want
		b := img.Rect
		for k := range clipped {
			clipped[k].X = min(max(clipped[k].X, 0), float64(b.Dx()))
			clipped[k].Y = min(max(clipped[k].Y, 0), float64(b.Dy()))
		}
		assertCorners(t, tc.name, c.Corners, clipped, s.CardW)
		if !c.AspectOK || c.Coverage < 0.6 {
			t.Errorf("%s: aspect %.3f (ok %v), coverage %.2f", tc.name, c.Aspect, c.AspectOK, c.Coverage)
		}
		if !s.Vertical && s.RotationDeg == 0 {
			assertUpright(t, tc.name, c.Image)
		}
	}
}

// What the full-frame rule must not take for a card: a far card in a photo
// shaped like a card (3:2 is 5% off ID-1) or exactly like one is still too
// small, a table alone is no card, and a badge-shaped card on a 3:2 table
// is still found and measured, not replaced by the table.
func TestAnalyzeFrontFullFrameRefusals(t *testing.T) {
	for i, tc := range []struct {
		name string
		s    cardtest.Scene
		want error
	}{
		{"3:2, card far away", cardtest.Scene{FrameW: 1800, CardW: 380, FrameAspect: 1.5}, card.ErrCardTooSmall},
		{"ID-1 photo, card far away", cardtest.Scene{FrameW: 1800, CardW: 380, FrameAspect: card.ID1Aspect}, card.ErrCardTooSmall},
		{"3:2 table only", cardtest.Scene{FrameW: 1800, CardW: 1, NoCard: true, FrameAspect: 1.5}, card.ErrNoCard},
		{"ID-1 table only", cardtest.Scene{FrameW: 1800, CardW: 1, NoCard: true, FrameAspect: card.ID1Aspect}, card.ErrNoCard},
	} {
		s := tc.s
		s.Aspect, s.Seed = card.ID1Aspect, uint64(50+i)
		img, _ := s.Render()
		if _, err := card.AnalyzeFront(img); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	badge := cardtest.Scene{FrameW: 1800, CardW: 900, Aspect: 1.25, FrameAspect: 1.5, RotationDeg: 4, Seed: 60}
	img, _ := badge.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil || c.AspectOK || c.Coverage > 0.5 {
		t.Errorf("badge on a 3:2 table: aspect %.3f (ok %v), coverage %.2f, %v; want the badge, not ID-1", c.Aspect, c.AspectOK, c.Coverage, err)
	}
}

// A vertical card held so that its far end runs off the photo by 1–4% of
// its width shows no side there: it is found with the frame for that side
// (its sides run up to the frame), its corners within 5% of the true ones
// beyond the frame. The finder before took the portrait's column for the
// card (41–46% off: wrong quadrilaterals) or answered "too small".
func TestAnalyzeFrontRunsOffTheFrame(t *testing.T) {
	for i, s := range []cardtest.Scene{
		{FrameW: 1280, CardW: 950, RotationDeg: 90, Surface: cardtest.White, Design: cardtest.Designs[1]},
		{FrameW: 1280, CardW: 980, RotationDeg: 88, Surface: cardtest.Cloth, Design: cardtest.Designs[2]},
		{FrameW: 1280, CardW: 960, RotationDeg: 92, Surface: cardtest.DarkTable, Design: cardtest.Designs[0]},
	} {
		s.Vertical, s.Aspect, s.Seed = true, card.ID1Aspect, uint64(400+i)
		img, want := s.Render()
		name := s.Design.Name + " on " + s.Surface.String()
		c, err := card.AnalyzeFront(img)
		if err != nil || !c.AspectOK {
			t.Errorf("%s: %v (aspect %.3f)", name, err, c.Aspect)
			continue
		}
		assertCornersWithin(t, name, c.Corners, want, s.CardW, 0.05)
	}
}

// TestAnalyzeFrontNoWrongQuadAtTheFrame renders, without a face, the
// cards of bench/robust's extra set that ran off the photo, or ended just
// short of its edge, and for which the finder warped a wrong
// quadrilateral (a card on a white border taken with the frame as two
// sides, 9.3% off; a dark card running off one side taken with the frame
// as a third, 7.8% off; the portrait blocks of a dark card running off
// top and bottom and of a card cut at a slant, 41% and 45% off): each is
// found within 5% of its width or refused, never warped wrong. Rendered
// so, the finder before frameIsCard and insideCard warped the second
// (7.8% off) and the fourth (45% off).
func TestAnalyzeFrontNoWrongQuadAtTheFrame(t *testing.T) {
	for i, s := range []cardtest.Scene{
		{FrameW: 1280, CardW: 1064, FrameAspect: 1.5, RotationDeg: -1.15, Design: cardtest.Designs[0], Surface: cardtest.White,
			Light: cardtest.Light{Gradient: 0.14, Angle: 170}},
		{FrameW: 1280, CardW: 1238, RotationDeg: 1.94, Design: cardtest.Designs[4], Surface: cardtest.White,
			Light: cardtest.Light{Gradient: 0.37, Angle: 284, Tint: 0.04}},
		{FrameW: 1280, CardW: 985, RotationDeg: 87.1, Vertical: true, Design: cardtest.Designs[4], Surface: cardtest.White,
			Light: cardtest.Light{Gradient: 0.29, Angle: 294}},
		{FrameW: 1280, CardW: 1009, RotationDeg: 78.8, Vertical: true, Design: cardtest.Designs[3], Surface: cardtest.Cloth,
			Light: cardtest.Light{Gradient: 0.26, Angle: 266, Tint: 0.008}},
	} {
		s.Aspect, s.Seed = card.ID1Aspect, uint64(500+i)
		img, want := s.Render()
		name := fmt.Sprintf("%s on %s, turned %.0f°", s.Design.Name, s.Surface, s.RotationDeg)
		c, err := card.AnalyzeFront(img)
		if err != nil || !c.AspectOK {
			t.Logf("%s: refused (%v)", name, err)
			continue
		}
		assertCornersWithin(t, name, c.Corners, want, s.CardW, 0.05)
	}
}
