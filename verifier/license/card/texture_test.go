package card_test

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Cards whose stock is 15–20 levels from a smooth light table are found
// with their corners within 3% of the card's width, or refused, never
// warped wrong; a card filling a 16:9 frame's height with its rounded
// corners at the frame is found; bare textured tables are refused. With
// the fixed edge thresholds of before (a gradient of 5, a step of 12) the
// light tables' cards lost their edges to the line search (bench/robust:
// light laminate 5/21, white 21/39 right), and the full-frame card's
// portrait column between its accent lines was warped as the card
// (bench/robust #119). Two of the six light-table cards here are still
// refused (found is false): a band's edge makes the outline's
// proportions wrong, or a small outline inside the card is answered too
// small; the classic card on white, its stock within 14 levels of the
// table, is found since stockMatch went to 10.
func TestAnalyzeFrontLightTables(t *testing.T) {
	tilt := [4]raster.Point{{X: 0.01, Y: -0.01}, {Y: 0.01}, {X: -0.01}, {}}
	for i, tc := range []struct {
		name  string
		s     cardtest.Scene
		found bool
	}{
		{"classic on laminate", cardtest.Scene{Design: cardtest.Designs[0], Surface: cardtest.Laminate, RotationDeg: 6}, true},
		{"dark band on laminate", cardtest.Scene{Design: cardtest.Designs[1], Surface: cardtest.Laminate, RotationDeg: -9}, true},
		{"accent lines on laminate, vertical", cardtest.Scene{Design: cardtest.Designs[3], Surface: cardtest.Laminate, RotationDeg: 84, Vertical: true}, false},
		{"classic on white", cardtest.Scene{Design: cardtest.Designs[0], Surface: cardtest.White, RotationDeg: -4}, true},
		{"accent lines on white", cardtest.Scene{Design: cardtest.Designs[3], Surface: cardtest.White, RotationDeg: 183}, true},
		{"guilloche on laminate", cardtest.Scene{Design: cardtest.Designs[5], Surface: cardtest.Laminate, RotationDeg: 12}, false},
	} {
		s := tc.s
		s.FrameW, s.CardW, s.Aspect, s.Seed, s.Perspective = 1280, 760, card.ID1Aspect, uint64(300+i), tilt
		s.Light = cardtest.Light{Gradient: 0.3, Angle: float64(40 * i)}
		img, want := s.Render()
		c, err := card.AnalyzeFront(img)
		switch accepted := err == nil && c.AspectOK; {
		case accepted:
			assertCornersWithin(t, tc.name, c.Corners, want, s.CardW, 0.03)
		case tc.found:
			t.Errorf("%s: %v (aspect %.3f)", tc.name, err, c.Aspect)
		}
	}
	s := cardtest.Scene{FrameW: 1600, CardW: 900 * card.ID1Aspect * 0.996, Centred: true, FrameAspect: 16.0 / 9, Surface: cardtest.Black,
		Design: cardtest.Designs[3], Aspect: card.ID1Aspect, Seed: 119}
	img, want := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil || !c.AspectOK {
		t.Errorf("accent lines filling a 16:9 frame's height: %v (aspect %.3f)", err, c.Aspect)
	} else {
		assertCornersWithin(t, "accent lines filling a 16:9 frame's height", c.Corners, want, s.CardW, 0.015)
	}
	for _, sf := range []cardtest.Surface{cardtest.Granite, cardtest.LightWood, cardtest.Laminate} {
		img, _ := cardtest.Scene{FrameW: 1280, CardW: 1, Aspect: card.ID1Aspect, NoCard: true, Surface: sf, Light: cardtest.Light{Gradient: 0.4, Angle: 30}}.Render()
		if _, err := card.AnalyzeFront(img); !errors.Is(err, card.ErrNoCard) && !errors.Is(err, card.ErrCardTooSmall) {
			t.Errorf("bare %s: %v, want a refusal", sf, err)
		}
	}
}
