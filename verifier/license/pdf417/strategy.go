package pdf417

import (
	"image"
)

// strategy is one way to present the photo to zxing.
type strategy struct {
	name string
	// prepare returns the image to decode, or nil and why the step does
	// not apply to this photo.
	prepare func(s *session) (*image.Gray, string)
	// tryHarder turns on zxing's own 90° rotations and downscaling.
	tryHarder bool
}

// strategies is the fallback order, cheapest and most often right first.
var strategies = []strategy{
	{name: "plain", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }},
	{name: "upright", prepare: uprightStep(0, 1, none)},
	{name: "upright-2x", prepare: uprightStep(0, 2, none)},
	{name: "upright-2x-smoothed", prepare: uprightStep(0, 2, smoothAlongBars)},
	{name: "upright-2x-binarised", prepare: uprightStep(0, 2, binarise)},
	{name: "second-region-2x", prepare: uprightStep(1, 2, none)},
	{name: "plain-try-harder", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }, tryHarder: true},
}

// Cleaning filters applied to an upright crop.
type filter int

const (
	none filter = iota
	smoothAlongBars
	binarise
)

// maxUprightPixels bounds an upright crop, so that a region spanning a
// whole 40 MP photo is not upscaled into a far bigger one.
const maxUprightPixels = 8_000_000

func uprightStep(idx int, scale float64, f filter) func(*session) (*image.Gray, string) {
	return func(s *session) (*image.Gray, string) {
		regions := s.regions()
		if idx >= len(regions) {
			return nil, "no barcode-like region"
		}
		r := regions[idx]
		if px := 4 * r.halfU * r.halfV * scale * scale; px > maxUprightPixels {
			return nil, "region too large to upscale"
		}
		img := r.upright(s.gray, scale)
		switch f {
		case smoothAlongBars:
			img = smoothVertical(img)
		case binarise:
			img = adaptiveThreshold(img)
		}
		return img, ""
	}
}

// session caches the work that later strategies share.
type session struct {
	gray    *image.Gray
	located bool
	found   []region
}

func newSession(g *image.Gray) *session { return &session{gray: g} }

func (s *session) regions() []region {
	if !s.located {
		s.found = locate(s.gray)
		s.located = true
	}
	return s.found
}
