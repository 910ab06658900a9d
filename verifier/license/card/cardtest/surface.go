package cardtest

import (
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Surface is what the card lies on, drawn procedurally.
type Surface int

// The surfaces. DarkTable is the zero value, the brown table the tests
// were written on.
const (
	DarkTable Surface = iota
	LightWood
	Laminate // light grey-white laminate, as office desks and counters
	Cloth    // a grey woven cloth
	Denim    // a blue twill
	Granite  // a speckled counter top
	White    // a white sheet or a scanner's lid: the white border of a scan
	Black    // a black mat
)

// Surfaces are all the surfaces, for evaluations that cross them with
// designs.
var Surfaces = []Surface{DarkTable, LightWood, Laminate, Cloth, Denim, Granite, White, Black}

func (s Surface) String() string {
	return [...]string{"dark table", "light wood", "light laminate", "grey cloth", "denim", "granite", "white", "black mat"}[s]
}

// pixel is the surface at photo pixel (x, y); rng adds the sensor's
// noise.
func (s Surface) pixel(x, y float64, rng *rand.Rand) color.RGBA {
	n := rng.NormFloat64()
	tone := func(r, g, b, t float64) color.RGBA {
		return color.RGBA{raster.Clamp8(r * t), raster.Clamp8(g * t), raster.Clamp8(b * t), 255}
	}
	switch s {
	case LightWood:
		grain := math.Sin(y*0.09+2.5*math.Sin(x*0.004)+0.8*math.Sin(x*0.031)) * math.Sin(y*0.013+x*0.0007)
		return tone(200, 160, 112, 1+0.09*grain+0.012*n)
	case Laminate:
		speck := 0.0
		if valueNoise(x*0.7, y*0.7) > 0.93 {
			speck = -0.05
		}
		return tone(226, 224, 218, 1+speck+0.02*(valueNoise(x*0.01, y*0.01)-0.5)+0.008*n)
	case Cloth:
		weave := math.Sin(x*1.3) * math.Sin(y*1.3)
		return tone(128, 130, 136, 1+0.1*weave+0.05*(valueNoise(x*0.05, y*0.05)-0.5)+0.02*n)
	case Denim:
		twill := math.Sin((x + y) * 0.9)
		return tone(60, 86, 130, 1+0.14*twill+0.03*n)
	case Granite:
		v := valueNoise(x*0.25, y*0.25)
		switch {
		case v > 0.8:
			return tone(40, 38, 40, 1+0.05*n)
		case v < 0.15:
			return tone(210, 205, 200, 1+0.03*n)
		}
		return tone(140, 132, 128, 1+0.15*(valueNoise(x*0.05, y*0.05)-0.5)+0.02*n)
	case White:
		return tone(246, 246, 244, 1+0.006*n)
	case Black:
		return tone(22, 22, 24, 1+0.08*n)
	}
	t := 70 + 12*math.Sin(x*0.02+y*0.011) + 5*n
	return color.RGBA{raster.Clamp8(t * 1.1), raster.Clamp8(t * 0.9), raster.Clamp8(t * 0.7), 255}
}

// valueNoise is smooth noise in [0, 1]: a hash of the integer lattice,
// interpolated.
func valueNoise(x, y float64) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	h := func(i, j float64) float64 {
		v := uint64(int64(i))*0x9E3779B97F4A7C15 ^ uint64(int64(j))*0xC2B2AE3D27D4EB4F
		v ^= v >> 29
		v *= 0xBF58476D1CE4E5B9
		v ^= v >> 32
		return float64(v%10007) / 10006
	}
	a, b := h(x0, y0)*(1-fx)+h(x0+1, y0)*fx, h(x0, y0+1)*(1-fx)+h(x0+1, y0+1)*fx
	return a*(1-fy) + b*fy
}

// Light is the scene's lighting: a brightness ramp of Gradient across the
// photo (0.3: from 0.85 to 1.15 of the light) at Angle degrees, and a warm
// (positive) or cool (negative) Tint.
type Light struct {
	Gradient, Angle, Tint float64
}

// apply lights c at photo pixel (x, y) of a w×h photo.
func (l Light) apply(c color.RGBA, x, y, w, h float64) color.RGBA {
	if l == (Light{}) {
		return c
	}
	a := l.Angle * math.Pi / 180
	p := ((x/w-0.5)*math.Cos(a) + (y/h-0.5)*math.Sin(a)) // about -0.7..0.7
	f := 1 + l.Gradient*p
	return color.RGBA{raster.Clamp8(float64(c.R) * f * (1 + l.Tint)), raster.Clamp8(float64(c.G) * f), raster.Clamp8(float64(c.B) * f * (1 - l.Tint)), 255}
}
