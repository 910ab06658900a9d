package pdf417

import (
	"fmt"
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
// mode (90° turns, downscaling) comes last. A symbol with modules of 2.5
// px or more (measured on its start and stop patterns) gets its
// straightened crop area-averaged down to modules of about 2 px right
// after the full-size attempts, at three sizes: zxing-cpp rejects a
// codeword more than 2 px wider or narrower than the start and stop
// patterns, so any error left by the straightening, the print's ragged
// bars and the noise all count against it in pixels, and wide modules
// multiply them; yet whether one size reads is erratic (it comes and
// goes in steps of 0.1 px on the same photo), so 2.1, 2.4 and 1.8 px
// follow one another, 2.1 being the size that alone read most. On the
// phone-model set (bench/pdf417) they lifted 65/80 to 75/80, every photo
// with modules of 2 px or more; the upright crop shrunk to 2.5 px they
// replace had read 7 and left 10 of those refused.
var strategies = []strategy{
	{name: "upright", prepare: uprightStep(0, 1, none)},
	{name: "plain", prepare: func(s *session) (*image.Gray, string) { return s.gray, "" }},
	{name: "rectified", prepare: rectifiedStep(1)},
	{name: "shrunk-2.1", prepare: shrunkStep(2.1, 2.5)},
	{name: "shrunk-2.4", prepare: shrunkStep(2.4, 2.8)},
	{name: "shrunk-1.8", prepare: shrunkStep(1.8, 2.5)},
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
		var img *image.Gray
		if idx == 0 && scale == 1 {
			img = s.upright()
		} else {
			img = r.upright(s.gray, scale)
		}
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

// shrunkStep presents a symbol with wide modules (a close photo on a
// dense sensor) straightened and area-averaged down to target px modules,
// when its measured module is at least least px: the average cancels
// sensor noise and the phone's sharpening halos, the defocus, a fixed
// number of pixels, shrinks with the modules, and so does any error left
// in the straightening, which zxing-cpp tolerates only up to a couple of
// pixels whatever the module size.
func shrunkStep(target, least float64) func(*session) (*image.Gray, string) {
	return func(s *session) (*image.Gray, string) {
		if len(s.regions()) == 0 {
			return nil, "no barcode-like region"
		}
		m, ok := s.module()
		if !ok {
			return nil, "module not measured"
		}
		if m < least {
			return nil, fmt.Sprintf("modules under %g px", least)
		}
		crop := s.straight()
		f := target / m
		return raster.Resize(crop, int(float64(crop.Rect.Dx())*f), int(float64(crop.Rect.Dy())*f)), ""
	}
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
		if scale == 1 {
			return s.straight(), ""
		}
		return r.rectified(s.gray, toCrop, scale), ""
	}
}

// session caches the work that later strategies share.
type session struct {
	gray *image.Gray
	loc  *located
	// The first region's crops at scale 1: upright (turned so that its
	// bars are vertical) and straightened (rectified as well, when it
	// needs it), once made.
	upright1, straight1 *image.Gray
	// The first region's rectification, once measured.
	rectDone bool
	rectOK   bool
	toCrop   raster.Homography
	// The first region's module width and edge spread, once measured.
	modDone          bool
	modOK            bool
	modPx, modEdgePx float64
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

// upright is the first region's upright crop at scale 1.
func (s *session) upright() *image.Gray {
	if s.upright1 == nil {
		s.upright1 = s.regions()[0].upright(s.gray, 1)
	}
	return s.upright1
}

func (s *session) rectification() (raster.Homography, bool) {
	if !s.rectDone {
		s.toCrop, s.rectOK = rectification(s.upright())
		s.rectDone = true
	}
	return s.toCrop, s.rectOK
}

// straight is the first region's crop at scale 1 with its bars vertical
// at both ends and its rows level: rectified when the symbol is sheared
// or fanned (a card tilted away and turned), else the upright crop. The
// module width is measured on it: on a fanned symbol the upright crop
// leaves the start pattern leaning by several degrees, which smears it
// across the rows the fit averages.
func (s *session) straight() *image.Gray {
	if s.straight1 == nil {
		s.straight1 = s.upright()
		if toCrop, ok := s.rectification(); ok {
			s.straight1 = s.regions()[0].rectified(s.gray, toCrop, 1)
		}
	}
	return s.straight1
}

func (s *session) module() (float64, bool) {
	if !s.modDone {
		s.modPx, s.modEdgePx, s.modOK = moduleWidth(s.straight())
		s.modDone = true
	}
	return s.modPx, s.modOK
}
