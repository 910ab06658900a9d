package faceengine_test

import (
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// Cards that fill the photo (tight crops, flat scans), horizontal and
// vertical, with a ghost portrait: the card is found and its portrait is
// the main face, upright.
func TestPortraitOnFullFrameCards(t *testing.T) {
	f := newFinder(t)
	for i, tc := range []faceScene{
		{"4:3, card the full width", "amy3", cardtest.Scene{FrameW: 1600, CardW: 1600, Centred: true}},
		{"16:9, card the full height", "howard4", cardtest.Scene{FrameW: 1920, CardW: 1080 * card.ID1Aspect, Centred: true, FrameAspect: 16.0 / 9}},
		{"flat scan", "penny2", cardtest.Scene{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect}},
		{"flat scan upside down", "raj4", cardtest.Scene{FrameW: 1200, CardW: 1200, Centred: true, FrameAspect: card.ID1Aspect, RotationDeg: 180}},
		{"vertical flat scan", "sheldon3", cardtest.Scene{FrameW: 757, CardW: 1200, Centred: true, FrameAspect: 1 / card.ID1Aspect, RotationDeg: 90, Vertical: true}},
		{"3:4, vertical card the full height", "leonard4", cardtest.Scene{FrameW: 1200, CardW: 1600, Centred: true, FrameAspect: 0.75, RotationDeg: -90, Vertical: true}},
	} {
		tc.s.Ghost = true
		s, _, p, ok := tc.portrait(t, f, uint64(40+i))
		if !ok {
			continue
		}
		area, size := cardtest.FaceArea, image.Pt(card.Width, card.Height)
		if s.Vertical {
			area, size = cardtest.VerticalFaceArea, image.Pt(card.Height, card.Width)
		}
		if centre := p.Face.Box.Min.Add(p.Face.Box.Max).Div(2); p.Upright.Rect.Size() != size || !centre.In(area) {
			t.Errorf("%s: upright %v (rotation %d), face centre %v; want %v with the face inside %v", tc.name, p.Upright.Rect, p.Rotation, centre, size, area)
		}
	}
}
