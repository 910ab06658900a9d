// Package synth generates a deterministic, degraded set of license-back
// photos for testing PDF417 decoding: an AAMVA-like payload encoded by
// zxing-cpp's writer, printed on a card-like background, placed in a
// phone-sized frame and degraded by rotation, keystone, blur, downscaling,
// JPEG compression, uneven light and noise, alone and combined. The same seed
// gives the same images, so tests and benchmarks need no stored files.
package synth

import (
	"fmt"
	"math/rand/v2"
)

// Degradation describes what happens to a photo between the card and the
// decoder. The zero value is a clean, upright photo.
type Degradation struct {
	// RotationDeg turns the card in the image plane, signed degrees.
	RotationDeg float64
	// Keystone is the perspective of a card tilted away from the camera:
	// its far edge is shorter than the near one by this fraction (0-0.3).
	Keystone float64
	// BlurSigma is the Gaussian blur of defocus, in frame pixels.
	BlurSigma float64
	// Downscale shrinks the whole frame by this factor (0.5-1; 0 or 1 is
	// none), as a lower-resolution camera would.
	Downscale float64
	// JPEGQuality re-encodes the frame as JPEG at this quality (1-100; 0 is
	// none).
	JPEGQuality int
	// Light is the strength (0-1) of uneven light: a gradient across the
	// frame, a vignette and a soft shadow edge over the card.
	Light float64
	// NoiseSigma adds Gaussian sensor noise of this many grey levels.
	NoiseSigma float64
}

// Case is one image of the set, rendered on demand by Render.
type Case struct {
	// Name is unique in the set, e.g. "rotation/07".
	Name string
	// Kind is the degradation group: one of Kinds.
	Kind    string
	Payload []byte
	// EC is the PDF417 error-correction level, Module the module width in
	// pixels before any downscaling.
	EC, Module int
	// FrameWidth is the photo width before any downscaling (4:3 frame);
	// 0 picks the smallest of at least 1280 px that fits the card at any
	// rotation.
	FrameWidth int
	Seed       uint64
	Degradation
}

// Kinds are the degradation groups of Set, in order.
var Kinds = []string{"clean", "rotation", "keystone", "blur", "downscale", "jpeg", "light", "noise", "combined"}

// Set returns perKind cases of every kind, deterministic in seed. Within a
// kind the strength is spread evenly over its range so that a small set
// still covers the extremes.
func Set(seed uint64, perKind int) []Case {
	var out []Case
	for k, kind := range Kinds {
		for i := 0; i < perKind; i++ {
			caseSeed := seed*1_000_003 + uint64(k)*10_007 + uint64(i)
			rng := rand.New(rand.NewPCG(caseSeed, 0x1d6a7e))
			// t runs evenly over [0, 1] across the kind's cases.
			t := 0.0
			if perKind > 1 {
				t = float64(i) / float64(perKind-1)
			}
			c := Case{
				Name:    fmt.Sprintf("%s/%02d", kind, i),
				Kind:    kind,
				Payload: Payload(rng),
				EC:      3 + rng.IntN(3),
				Module:  2 + rng.IntN(2),
				Seed:    caseSeed,
			}
			c.Degradation = degrade(kind, t, rng)
			out = append(out, c)
		}
	}
	return out
}

// Ranges of each degradation alone. They are the acceptance ranges
// where it names one (rotation 0-20°, JPEG 40-75) and otherwise what a
// hand-held phone shot at arm's length plausibly produces.
const (
	maxRotation              = 20.0
	minKeystone, maxKeystone = 0.04, 0.20
	minBlur, maxBlur         = 0.5, 1.4
	minScale, maxScale       = 0.6, 0.9
	minJPEG, maxJPEG         = 40, 75
	minLight, maxLight       = 0.3, 0.7
	minNoise, maxNoise       = 4.0, 14.0
)

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

func sign(rng *rand.Rand) float64 {
	if rng.IntN(2) == 0 {
		return -1
	}
	return 1
}

func degrade(kind string, t float64, rng *rand.Rand) Degradation {
	var d Degradation
	switch kind {
	case "rotation":
		d.RotationDeg = sign(rng) * lerp(1, maxRotation, t)
	case "keystone":
		d.Keystone = lerp(minKeystone, maxKeystone, t)
	case "blur":
		d.BlurSigma = lerp(minBlur, maxBlur, t)
	case "downscale":
		d.Downscale = lerp(maxScale, minScale, t)
	case "jpeg":
		d.JPEGQuality = int(lerp(maxJPEG, minJPEG, t) + 0.5)
	case "light":
		d.Light = lerp(minLight, maxLight, t)
	case "noise":
		d.NoiseSigma = lerp(minNoise, maxNoise, t)
	case "combined":
		// Two or three degradations at random strengths within their
		// ranges; rotation and JPEG, the commonest in practice, are always
		// among them.
		d.RotationDeg = sign(rng) * rng.Float64() * maxRotation
		d.JPEGQuality = minJPEG + rng.IntN(maxJPEG-minJPEG+1)
		switch rng.IntN(5) {
		case 0:
			d.Keystone = lerp(minKeystone, maxKeystone, rng.Float64())
		case 1:
			d.BlurSigma = lerp(minBlur, maxBlur, rng.Float64())
		case 2:
			d.Downscale = lerp(minScale, maxScale, rng.Float64())
		case 3:
			d.Light = lerp(minLight, maxLight, rng.Float64())
		case 4:
			d.NoiseSigma = lerp(minNoise, maxNoise, rng.Float64())
		}
	}
	return d
}
