package pdf417

import (
	"image"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
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

// strategies is the fallback order, most often right first. The upright
// crop leads: phone photos are rarely level, and on a 12 MP photo locating
// and cropping costs less than zxing's pass over the whole frame. The plain
// photo follows for symbols the locator misjudges, then the keystone
// correction (a tilted card is the next commonest trouble, and zxing can
// spend long on a 2× crop of a fanned symbol); upscaled and cleaned crops
// for small, noisy, blurred or unevenly lit symbols; zxing's own exhaustive
// mode (90° turns, downscaling) comes last. A symbol with wide modules
// (4 px or more, measured on its start and stop patterns) gets a crop
// area-averaged down to 2.5 px modules right after the full-size attempts:
// on close 8-12 MP phone-model photos it read 10 of 14 where the others
// read 7 (bench/pdf417).
var strategies = []strategy{
	{name: "upright", prepare: uprightStep(0, 1, none)},
	{name: "plain", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }},
	{name: "rectified", prepare: rectifiedStep(1)},
	{name: "upright-shrunk", prepare: shrunkStep},
	{name: "upright-2x", prepare: uprightStep(0, 2, none)},
	{name: "rectified-2x", prepare: rectifiedStep(2)},
	{name: "upright-2x-smoothed", prepare: uprightStep(0, 2, smoothAlongBars)},
	{name: "upright-2x-sharpened", prepare: uprightStep(0, 2, sharpened)},
	{name: "upright-2x-binarised", prepare: uprightStep(0, 2, binarise)},
	{name: "second-region-2x", prepare: uprightStep(1, 2, none)},
	{name: "plain-try-harder", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }, tryHarder: true},
}

// Cleaning filters applied to an upright crop.
type filter int

const (
	none filter = iota
	smoothAlongBars
	sharpened
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
		case sharpened:
			img = sharpen(img)
		case binarise:
			img = adaptiveThreshold(img)
		}
		return img, ""
	}
}

// shrunkModule is the module width, in pixels, a shrunk crop is brought
// to; minShrinkModule the least measured module worth shrinking.
const (
	shrunkModule    = 2.5
	minShrinkModule = 4.0
)

// shrunkStep presents a symbol with wide modules (a close photo on a
// dense sensor) area-averaged down to shrunkModule px: the average cancels
// sensor noise and the phone's sharpening halos, and the defocus, a fixed
// number of pixels, shrinks with the modules.
func shrunkStep(s *session) (*image.Gray, string) {
	regions := s.regions()
	if len(regions) == 0 {
		return nil, "no barcode-like region"
	}
	m, ok := s.module()
	if !ok || m < minShrinkModule {
		return nil, "modules under 4 px or not measured"
	}
	r := regions[0]
	if px := 4 * r.halfU * r.halfV; px > maxUprightPixels {
		return nil, "region too large"
	}
	crop := r.upright(s.gray, 1)
	f := shrunkModule / m
	return raster.Resize(crop, int(float64(crop.Rect.Dx())*f), int(float64(crop.Rect.Dy())*f)), ""
}

func rectifiedStep(scale float64) func(*session) (*image.Gray, string) {
	return func(s *session) (*image.Gray, string) {
		regions := s.regions()
		if len(regions) == 0 {
			return nil, "no barcode-like region"
		}
		r := regions[0]
		if px := 4 * r.halfU * r.halfV * scale * scale; px > maxUprightPixels {
			return nil, "region too large to upscale"
		}
		toCrop, ok := s.rectification()
		if !ok {
			return nil, "no keystone or shear to correct"
		}
		return r.rectified(s.gray, toCrop, scale), ""
	}
}

// session caches the work that later strategies share.
type session struct {
	gray *image.Gray
	loc  *located
	// The first region's module width and edge spread, once measured.
	modDone          bool
	modOK            bool
	modPx, modEdgePx float64
	// The first region's rectification, once measured.
	rectDone bool
	rectOK   bool
	toCrop   raster.Homography
}

func newSession(g *image.Gray) *session { return &session{gray: g} }

func (s *session) located() *located {
	if s.loc == nil {
		l := locate(s.gray)
		s.loc = &l
	}
	return s.loc
}

func (s *session) regions() []region { return s.located().regions }

func (s *session) module() (float64, bool) {
	if !s.modDone {
		s.modPx, s.modEdgePx, s.modOK = s.regions()[0].moduleWidth(s.gray)
		s.modDone = true
	}
	return s.modPx, s.modOK
}

func (s *session) rectification() (raster.Homography, bool) {
	if !s.rectDone {
		s.toCrop, s.rectOK = s.regions()[0].rectification(s.gray)
		s.rectDone = true
	}
	return s.toCrop, s.rectOK
}
