package card_test

import (
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
