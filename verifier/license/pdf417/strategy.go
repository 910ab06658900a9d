package pdf417

import "image"

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
	{name: "plain-try-harder", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }, tryHarder: true},
}

// session caches the work that later strategies share.
type session struct {
	gray *image.Gray
}

func newSession(g *image.Gray) *session { return &session{gray: g} }
