package guidetest

import (
	"image"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// PageZone is the zone printed on the data page scenes: a valid TD3 zone
// (mrztest.Zone, fixed seed), so a photo the guide takes reads.
func PageZone() []string { return mrztest.Zone(rand.New(rand.NewPCG(35, 2)), mrz.TD3) }

// PageCamera is the camera of the data page scenes: a W×H frame, the page
// share of its width wide, turned 3°, seen slightly from below (keystone
// 3%), a little light falloff and noise; mod, when set, changes it first
// (blur, angle...).
func PageCamera(share float64, mod func(*mrztest.Camera)) mrztest.Camera {
	c := mrztest.Camera{Width: W, Height: H, PageFrac: share, Angle: 3, Keystone: 0.03, Blur: 0.6, Light: 0.15, Noise: 2, Quality: 90}
	if mod != nil {
		mod(&c)
	}
	return c
}

// Page is a passport's data page (mrztest, TD3, carrying PageZone, face
// as its portrait; nil lines: a page without its zone) photographed with
// cam; seed picks the page's print and the desk.
func Page(f *ocrb.Font, face image.Image, lines []string, cam mrztest.Camera, seed uint64) (image.Image, error) {
	return shot(f, mrz.TD3, face, lines, cam, seed)
}

// CardZone is the zone printed on the ID card scenes: a valid TD1 zone
// (mrztest.Zone, fixed seed).
func CardZone() []string { return mrztest.Zone(rand.New(rand.NewPCG(35, 3)), mrz.TD1) }

// Card is an ID card's side with its zone (TD1, CardZone, face as its
// portrait) photographed with cam (PageFrac: the card's share of the
// frame's width), as held up at the passport's step.
func Card(f *ocrb.Font, face image.Image, cam mrztest.Camera, seed uint64) (image.Image, error) {
	return shot(f, mrz.TD1, face, CardZone(), cam, seed)
}

func shot(f *ocrb.Font, format mrz.Format, face image.Image, lines []string, cam mrztest.Camera, seed uint64) (image.Image, error) {
	return mrztest.PrintedShot(f, format, lines, face, mrztest.Print{}, cam, rand.New(rand.NewPCG(seed, 35)))
}

// PageApproach is the data page brought from 22% of the frame's width to
// 57% in 12 steps of 2 frames, then held for 40 (as FrontApproach).
func PageApproach(f *ocrb.Font, face image.Image) ([]image.Image, error) {
	var frames []image.Image
	for i := range 12 {
		img, err := Page(f, face, PageZone(), PageCamera(0.22+0.032*float64(i), nil), 7)
		if err != nil {
			return nil, err
		}
		frames = append(frames, Repeat(img, 2)...)
	}
	return append(frames, Repeat(frames[len(frames)-1], 40)...), nil
}
