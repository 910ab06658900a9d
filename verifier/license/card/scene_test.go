package card

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// A synthetic photo of a license front: a card with a portrait, a header
// band and lines of text, placed on a textured table in a 4:3 frame.

// Where the portrait sits on the card, in card pixels (ID-1 at 10 px/mm).
var portrait = image.Rect(40, 130, 290, 460)

type scene struct {
	frameW      int
	cardW       float64 // card width in photo pixels (before perspective)
	aspect      float64 // card width over height; ID1Aspect for a license
	rotationDeg float64
	keystone    float64 // far-edge shrink fraction, as in pdf417/synth
	blur        float64
	glare       bool
	noCard      bool
	seed        uint64
}

func (s scene) render() (img *image.RGBA, corners [4]raster.Point) {
	rng := rand.New(rand.NewPCG(s.seed, 77))
	fw, fh := s.frameW, s.frameW*3/4
	cw := s.cardW
	ch := cw / s.aspect
	k := s.keystone
	quad := [4]raster.Point{
		{X: -cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)}, {X: cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)},
		{X: cw / 2, Y: ch / 2}, {X: -cw / 2, Y: ch / 2},
	}
	toFrame := raster.Affine(s.rotationDeg*math.Pi/180, 1, float64(fw)/2+float64(fw)*0.03, float64(fh)/2-float64(fh)*0.02)
	for i, p := range quad {
		quad[i].X, quad[i].Y = toFrame.Apply(p.X, p.Y)
	}
	// Card content is drawn in its own Width-wide coordinates.
	contentH := float64(Width) / s.aspect
	frameToCard, err := raster.FromQuad(quad, [4]raster.Point{{X: 0, Y: 0}, {X: Width, Y: 0}, {X: Width, Y: contentH}, {X: 0, Y: contentH}})
	if err != nil {
		panic(err)
	}
	img = image.NewRGBA(image.Rect(0, 0, fw, fh))
	for y := 0; y < fh; y++ {
		for x := 0; x < fw; x++ {
			u, v := frameToCard.Apply(float64(x)+0.5, float64(y)+0.5)
			var c color.RGBA
			if !s.noCard && u >= 0 && v >= 0 && u < Width && v < contentH {
				c = cardPixel(u, v)
			} else {
				t := 70 + 12*math.Sin(float64(x)*0.02+float64(y)*0.011) + 5*rng.NormFloat64()
				c = color.RGBA{raster.Clamp8(t * 1.1), raster.Clamp8(t * 0.9), raster.Clamp8(t * 0.7), 255}
			}
			if s.glare {
				d := math.Hypot(float64(x)-quad[1].X*0.7-quad[2].X*0.3, float64(y)-quad[1].Y*0.7-quad[2].Y*0.3)
				if g := 300 * math.Exp(-d*d/(2*sq(cw/9))); g > 1 {
					c = color.RGBA{raster.Clamp8(float64(c.R) + g), raster.Clamp8(float64(c.G) + g), raster.Clamp8(float64(c.B) + g), 255}
				}
			}
			img.SetRGBA(x, y, c)
		}
	}
	if s.blur > 0 {
		img = blurRGBA(img, s.blur)
	}
	return img, quad
}

func sq(v float64) float64 { return v * v }

// cardPixel is the printed card at card coordinate (u, v).
func cardPixel(u, v float64) color.RGBA {
	p := image.Pt(int(u), int(v))
	switch {
	case p.In(portrait):
		// A face-like oval on a grey ground.
		cx, cy := float64(portrait.Min.X+portrait.Max.X)/2, float64(portrait.Min.Y+portrait.Max.Y)/2
		if sq((u-cx)/80)+sq((v-cy+20)/105) < 1 {
			return color.RGBA{190, 150, 120, 255}
		}
		return color.RGBA{90, 95, 110, 255}
	case v > 20 && v < 90 && u > 20 && u < Width-20:
		return color.RGBA{30, 70, 150, 255} // header band, inside the card's margin
	case u > 330 && v >= 140 && v < 500 && int(v-140)%46 < 18 && int(u)%97 < 80:
		return color.RGBA{25, 25, 35, 255} // text
	}
	return color.RGBA{228, 232, 238, 255}
}

func blurRGBA(img *image.RGBA, sigma float64) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewRGBA(img.Rect)
	for c := 0; c < 3; c++ {
		plane := raster.New(w, h, 0)
		for i := range plane.Pix {
			plane.Pix[i] = img.Pix[4*i+c]
		}
		b := raster.GaussianBlur(plane, sigma)
		for i, v := range b.Pix {
			out.Pix[4*i+c] = v
		}
	}
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 255
	}
	return out
}
