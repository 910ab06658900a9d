package cardtest

import (
	"image"

	"github.com/idgate/idgate/verifier/license/card"
)

// BlockPhoto draws s's flat card (Card) cut to r, in its pixels, and
// stretched to a card's size (card.Width × card.Height, standing when r
// stands), nearest pixel, on a plain grey table pad px wide all round:
// what the warp makes of an outline around the portrait's block, and a
// card-shaped print whose face fills it. pad 0 is the stretched cut alone.
func (s Scene) BlockPhoto(r image.Rectangle, pad int) *image.RGBA {
	flat := s.Card()
	w, h := card.Width, card.Height
	if r.Dx() < r.Dy() {
		w, h = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, w+2*pad, h+2*pad))
	for i := 0; i < len(out.Pix); i += 4 {
		copy(out.Pix[i:i+4], []byte{90, 90, 90, 255}) // the table
	}
	for y := range h {
		for x := range w {
			sx, sy := r.Min.X+x*r.Dx()/w, r.Min.Y+y*r.Dy()/h
			copy(out.Pix[out.PixOffset(x+pad, y+pad):out.PixOffset(x+pad, y+pad)+4], flat.Pix[flat.PixOffset(sx, sy):])
		}
	}
	return out
}
