package card_test

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// A far card is told to come closer, not that no card shows: every
// design, a fifth to a quarter of the photo's width, on wood and cloth.
// Text running close to a far card's short side often keeps that side
// out of the line search; before farCard 10 of these 12 came out
// ErrNoCard, the classic design alone too small.
func TestAnalyzeFrontFarCard(t *testing.T) {
	for i, d := range cardtest.Designs {
		for j, sf := range []cardtest.Surface{cardtest.LightWood, cardtest.Cloth} {
			s := cardtest.Scene{FrameW: 1280, CardW: 280 + 40*float64(j), RotationDeg: float64(-12 + 5*i), Surface: sf, Design: d,
				Aspect: card.ID1Aspect, Seed: uint64(90 + 2*i + j)}
			img, _ := s.Render()
			if _, err := card.AnalyzeFront(img); !errors.Is(err, card.ErrCardTooSmall) {
				t.Errorf("%s on %s: %v, want %v", d.Name, sf, err, card.ErrCardTooSmall)
			}
		}
	}
}
