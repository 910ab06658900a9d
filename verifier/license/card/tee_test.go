package card_test

import (
	"image"
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// A block printed against a line of the card's own that runs on through
// its corner is not a card (teeCorner). bench/robust #50 printed with
// the design's face-like oval (-finder-oval), uncompressed: the
// portrait's block, widened to the card's left edge, was accepted 65.6%
// of the card's width off, by the four-sided search itself (the cream
// stock beyond two sides and the white table, as light, beyond the
// others passed the surround test).
func TestAnalyzeFrontRefusesTeeCorner(t *testing.T) {
	s := darkBandUprightOnWhite
	s.FrameW, s.Aspect, s.Design = 1280, card.ID1Aspect, cardtest.DesignNamed("dark band to the edge")
	img, want := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil || !c.AspectOK {
		return // refused: the card's top corners are rounded inside the photo
	}
	assertCornersWithin(t, "#50 with the oval", c.Corners, want, s.CardW, 0.05)
}

// Print whose sides are seen up to its corners, with the card's own
// lines running on past two of them, is not a card (runsOnTwice).
// bench/robust #92 printed with the design's oval (-finder-oval): a light
// card standing on a white border, whose band's edge runs on past both
// ends of its portrait's block; the search answered that block, aspect
// 1.52 and 46% of the card's width off, which only the near card
// replaced. The photo is still found, by the near card.
func TestSearchRefusesLinesRunningOnTwice(t *testing.T) {
	s := cardtest.Scene{FrameW: 900, FrameAspect: 0.75, CardW: 1100, Aspect: card.ID1Aspect, RotationDeg: 90.43, Vertical: true, Centred: true,
		Surface: cardtest.White, Seed: 92, Design: cardtest.DesignNamed("light card"), Light: cardtest.Light{Gradient: 0.078, Angle: 258.84}}
	img, want := s.Render()
	if q, err := card.SearchOutline(img); err == nil {
		var got [4]image.Point
		for k, p := range q {
			got[k] = image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
		}
		assertCornersWithin(t, "#92 with the oval, the search alone", got, want, s.CardW, 0.05)
	}
	c, err := card.AnalyzeFront(img)
	if err != nil || !c.AspectOK {
		t.Fatalf("#92 with the oval: %v (aspect %.3f)", err, c.Aspect)
	}
	assertCornersWithin(t, "#92 with the oval", c.Corners, want, s.CardW, 0.05)
}
