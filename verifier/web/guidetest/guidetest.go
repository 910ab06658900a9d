// Package guidetest renders the camera scenes the document steps' live
// guidance is tested and measured on (verifier/web's browser tests,
// bench/licenseguide): card fronts and backs and passport data pages at a
// distance, and the sequences of frames that bring them from far to close
// and hold them.
package guidetest

import (
	"image"

	xdraw "golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// W and H are the scenes' size: a 4:3 camera frame.
const W, H = 1280, 960

// Front is a license front printed with face, the card share of the
// frame's width wide, slightly turned and at a slant; mod, when set,
// changes the scene first (blur, glare, no card...).
func Front(face image.Image, share float64, mod func(*cardtest.Scene)) image.Image {
	s := cardtest.Scene{FrameW: W, CardW: share * W, Aspect: card.ID1Aspect, RotationDeg: 4, Keystone: 0.04, Face: face, Seed: 7}
	if mod != nil {
		mod(&s)
	}
	img, _ := s.Render()
	return img
}

// Back is a clean license back (pdf417/synth, module 3 px) turned deg
// degrees and seen from farther the larger frameW is: drawn in a
// frameW-wide frame, then the frame scaled to W×H, as a camera farther
// away sees it; 0 is the card filling the frame.
func Back(frameW int, deg float64) (image.Image, error) {
	c := synth.Set(5, 1)[0]
	c.FrameWidth = frameW
	c.RotationDeg = deg
	img, err := c.Render()
	if err != nil {
		return nil, err
	}
	out := image.NewRGBA(image.Rect(0, 0, W, H))
	xdraw.CatmullRom.Scale(out, out.Rect, img, img.Bounds(), xdraw.Src, nil)
	return out, nil
}

// Repeat is img n times.
func Repeat(img image.Image, n int) []image.Image {
	out := make([]image.Image, n)
	for i := range out {
		out[i] = img
	}
	return out
}

// FrontApproach is a front brought from 25% of the frame's width to 64%
// in 12 steps of 2 frames, then held for 40: at 8 fps, 3 s of approach
// and 5 s held.
func FrontApproach(face image.Image) []image.Image {
	var frames []image.Image
	for i := range 12 {
		frames = append(frames, Repeat(Front(face, 0.25+0.035*float64(i), nil), 2)...)
	}
	return append(frames, Repeat(frames[len(frames)-1], 40)...)
}

// BackApproach is a back brought from a 3840-px frame (module 1 px after
// scaling, unreadable) to filling the frame in 16 steps of perStep
// frames, then held for hold frames.
func BackApproach(perStep, hold int) ([]image.Image, error) {
	var frames []image.Image
	for fw := 3840; fw > W; fw -= 160 {
		b, err := Back(fw, 0)
		if err != nil {
			return nil, err
		}
		frames = append(frames, Repeat(b, perStep)...)
	}
	b, err := Back(0, 0)
	if err != nil {
		return nil, err
	}
	return append(frames, Repeat(b, hold)...), nil
}
