package card

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"

	"golang.org/x/image/draw"
)

// The license_photo crop, cut from the upright corrected card.
const (
	// HeadshotMargin pads the face box on every side by this share of its
	// side: the box spans brow to chin and cheek to cheek, so 40% brings
	// in the hair, ears and neck the way a printed portrait shows them.
	HeadshotMargin = 0.40
	// HeadshotMaxSide bounds the crop's longer side in pixels; a larger
	// crop is scaled down. At 10 px/mm a portrait face rarely exceeds it,
	// so it is mostly kept at the card's own resolution.
	HeadshotMaxSide = 400
	// HeadshotQuality is the JPEG quality: the photo goes to a human
	// reviewer, and at this size it stays under about 40 KB.
	HeadshotQuality = 90
)

// ErrNoHeadshot means the portrait has no face box to crop.
var ErrNoHeadshot = errors.New("card: no face box for a headshot")

// Headshot crops the portrait's face, padded by HeadshotMargin and clipped
// to the card, and encodes it as JPEG (HeadshotQuality, at most
// HeadshotMaxSide px on its longer side).
func Headshot(p Portrait) ([]byte, error) {
	if p.Upright == nil || p.Face.Box.Empty() {
		return nil, fmt.Errorf("headshot: %w", ErrNoHeadshot)
	}
	box := p.Face.Box
	pad := int(HeadshotMargin * float64(max(box.Dx(), box.Dy())))
	crop := box.Inset(-pad).Intersect(p.Upright.Rect)
	if crop.Empty() {
		return nil, fmt.Errorf("headshot: face box %v outside the card: %w", box, ErrNoHeadshot)
	}
	w, h := crop.Dx(), crop.Dy()
	if s := max(w, h); s > HeadshotMaxSide {
		w, h = max(1, w*HeadshotMaxSide/s), max(1, h*HeadshotMaxSide/s)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(out, out.Rect, p.Upright, crop, draw.Src, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: HeadshotQuality}); err != nil {
		return nil, fmt.Errorf("headshot: encode: %w", err)
	}
	return buf.Bytes(), nil
}
