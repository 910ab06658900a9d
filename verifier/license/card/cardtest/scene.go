// Package cardtest renders synthetic photos of license fronts for tests:
// a card with a portrait, a header band and lines of text, placed on a
// textured table in a 4:3 frame, with rotation, keystone, blur and glare.
package cardtest

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Where the portrait sits on the card, in card pixels (ID-1 at 10 px/mm).
var Portrait = image.Rect(40, 130, 290, 460)

// Scene describes one photo.
type Scene struct {
	FrameW      int
	CardW       float64 // card width in photo pixels (before perspective)
	Aspect      float64 // card width over height; card.ID1Aspect for a license
	RotationDeg float64
	Keystone    float64 // far-edge shrink fraction, as in pdf417/synth
	Blur        float64
	Glare       bool
	NoCard      bool
	Seed        uint64
	// Face, when set, is printed in FaceArea instead of the face-like
	// oval; BlankPortrait leaves the portrait an empty grey ground.
	Face          image.Image
	BlankPortrait bool
}

// Render draws the photo and returns the card's true corners in it.
func (s Scene) Render() (img *image.RGBA, corners [4]raster.Point) {
	rng := rand.New(rand.NewPCG(s.Seed, 77))
	fw, fh := s.FrameW, s.FrameW*3/4
	cw := s.CardW
	ch := cw / s.Aspect
	k := s.Keystone
	quad := [4]raster.Point{
		{X: -cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)}, {X: cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)},
		{X: cw / 2, Y: ch / 2}, {X: -cw / 2, Y: ch / 2},
	}
	toFrame := raster.Affine(s.RotationDeg*math.Pi/180, 1, float64(fw)/2+float64(fw)*0.03, float64(fh)/2-float64(fh)*0.02)
	for i, p := range quad {
		quad[i].X, quad[i].Y = toFrame.Apply(p.X, p.Y)
	}
	// Card content is drawn in its own Width-wide coordinates.
	contentH := float64(card.Width) / s.Aspect
	frameToCard, err := raster.FromQuad(quad, [4]raster.Point{{X: 0, Y: 0}, {X: card.Width, Y: 0}, {X: card.Width, Y: contentH}, {X: 0, Y: contentH}})
	if err != nil {
		panic(err)
	}
	img = image.NewRGBA(image.Rect(0, 0, fw, fh))
	for y := 0; y < fh; y++ {
		for x := 0; x < fw; x++ {
			u, v := frameToCard.Apply(float64(x)+0.5, float64(y)+0.5)
			var c color.RGBA
			if !s.NoCard && u >= 0 && v >= 0 && u < card.Width && v < contentH {
				c = s.cardPixel(u, v)
			} else {
				t := 70 + 12*math.Sin(float64(x)*0.02+float64(y)*0.011) + 5*rng.NormFloat64()
				c = color.RGBA{raster.Clamp8(t * 1.1), raster.Clamp8(t * 0.9), raster.Clamp8(t * 0.7), 255}
			}
			if s.Glare {
				d := math.Hypot(float64(x)-quad[1].X*0.7-quad[2].X*0.3, float64(y)-quad[1].Y*0.7-quad[2].Y*0.3)
				if g := 300 * math.Exp(-d*d/(2*sq(cw/9))); g > 1 {
					c = color.RGBA{raster.Clamp8(float64(c.R) + g), raster.Clamp8(float64(c.G) + g), raster.Clamp8(float64(c.B) + g), 255}
				}
			}
			img.SetRGBA(x, y, c)
		}
	}
	if s.Blur > 0 {
		img = blurRGBA(img, s.Blur)
	}
	return img, quad
}

// FaceArea is where a real face photo is printed: the upper part of the
// portrait, as on a license.
var FaceArea = image.Rect(50, 140, 280, 370)

// faceSample reads img at the relative position (fx, fy) in [0, 1).
func faceSample(img image.Image, fx, fy float64) color.RGBA {
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Min.X+int(fx*float64(b.Dx())), b.Min.Y+int(fy*float64(b.Dy()))).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
}

// Card draws the card alone, flat and upright at card.Width px wide, as
// AnalyzeFront's corrected image of a perfect photo would be.
func (s Scene) Card() *image.RGBA {
	h := int(math.Round(float64(card.Width) / s.Aspect))
	img := image.NewRGBA(image.Rect(0, 0, card.Width, h))
	for y := 0; y < h; y++ {
		for x := 0; x < card.Width; x++ {
			img.SetRGBA(x, y, s.cardPixel(float64(x)+0.5, float64(y)+0.5))
		}
	}
	return img
}

func sq(v float64) float64 { return v * v }

// cardPixel is the printed card at card coordinate (u, v).
func (s Scene) cardPixel(u, v float64) color.RGBA {
	p := image.Pt(int(u), int(v))
	switch {
	case p.In(FaceArea) && s.Face != nil:
		return faceSample(s.Face, (u-float64(FaceArea.Min.X))/float64(FaceArea.Dx()), (v-float64(FaceArea.Min.Y))/float64(FaceArea.Dy()))
	case p.In(Portrait) && s.BlankPortrait:
		return color.RGBA{90, 95, 110, 255}
	case p.In(Portrait):
		// A face-like oval on a grey ground.
		cx, cy := float64(Portrait.Min.X+Portrait.Max.X)/2, float64(Portrait.Min.Y+Portrait.Max.Y)/2
		if sq((u-cx)/80)+sq((v-cy+20)/105) < 1 {
			return color.RGBA{190, 150, 120, 255}
		}
		return color.RGBA{90, 95, 110, 255}
	case v > 20 && v < 90 && u > 20 && u < card.Width-20:
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
