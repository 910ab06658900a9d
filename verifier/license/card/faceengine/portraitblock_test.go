package faceengine_test

import (
	"errors"
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// A face larger than a license portrait can be means the outline found
// was the portrait's block (card.MaxPortraitFace): the flat card's
// portrait is found, and the same card cut to its portrait's block with
// the margin and, on the vertical layout, the first row of text around
// it (the outline a vertical light card on a white border had accepted
// wrong), stretched to a card's size as the warp stretches such an
// outline, is answered card.ErrPortraitBlock, never a portrait.
func TestPortraitBlockRefused(t *testing.T) {
	f := newFinder(t)
	for i, tc := range []struct {
		face     string
		vertical bool
		block    image.Rectangle // in the flat card's pixels
	}{
		// cardtest.Portrait and 10 px around it.
		{"penny1", false, image.Rect(30, 120, 300, 470)},
		// cardtest.VerticalPortrait's column, 140–400 across the upright
		// card and down to 490 (its first row of text), in the flat card.
		{"raj2", true, image.Rect(105, card.Height-400, 490, card.Height-140)},
	} {
		s := cardtest.Scene{Face: labeledFace(t, tc.face), Vertical: tc.vertical, Aspect: card.ID1Aspect, Seed: uint64(60 + i)}
		flat := s.Card()
		if p, err := card.FindPortrait(flat, f); err != nil {
			t.Errorf("%s, the whole card: %v", tc.face, err)
		} else if share := p.Face.Size / card.Height; share > card.MaxPortraitFace {
			t.Errorf("%s, the whole card: face %.2f of the short side", tc.face, share)
		}
		if p, err := card.FindPortrait(s.BlockPhoto(tc.block, 0), f); !errors.Is(err, card.ErrPortraitBlock) || !errors.Is(err, card.ErrNoCard) {
			t.Errorf("%s, the portrait's block: %v (face %.0f px), want ErrPortraitBlock", tc.face, err, p.Face.Size)
		}
	}
}
