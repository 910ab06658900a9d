// Package cardtest renders synthetic photos of license fronts for tests:
// a card with a portrait, a header band and lines of text, placed on a
// textured table in a 4:3 frame (or another shape), with rotation,
// keystone, blur and glare; horizontal or vertical (under-21) layouts,
// with or without a ghost copy of the portrait.
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
	// GlareSize is the glare hotspot's spread as a fraction of the card
	// width (0 = 1/9; engines.MaxGlare refuses it and 1/14, passes 1/16).
	GlareSize float64
	NoCard    bool
	Seed      uint64
	// Face, when set, is printed in FaceArea instead of the face-like
	// oval; BlankPortrait leaves the portrait an empty grey ground.
	Face          image.Image
	BlankPortrait bool
	// Ghost prints a second, smaller, faded grey copy of Face in
	// GhostArea (VerticalGhostArea), as many licenses do.
	Ghost bool
	// Vertical lays the card out upright on its short side (the under-21
	// layout): portrait at the top in VerticalFaceArea, text below. The
	// card's outline is the same; hold it upright in the photo with a
	// RotationDeg of ±90.
	Vertical bool
	// FrameAspect is the photo's width over height; 0 means 4:3.
	FrameAspect float64
	// Centred puts the card's centre at the frame's; otherwise it sits a
	// little off centre, as in a hand-held photo.
	Centred bool
	// Front, when set, prints its lines of text in the personal-data zone
	// instead of the text-like bars.
	Front *Front
	// Design is the card's print (zero: Classic), Surface what it lies
	// on, Light the lighting over the whole photo.
	Design  Design
	Surface Surface
	Light   Light
	// Perspective moves the card's corners (TL, TR, BR, BL, before the
	// rotation) by these fractions of CardW: a tilt in any direction.
	Perspective [4]raster.Point

	mask *image.Alpha // Front drawn, set by Render and Card
}

// design is the Scene's Design, Classic when unset.
func (s Scene) design() Design {
	if s.Design.Stock == (color.RGBA{}) {
		return Classic
	}
	return s.Design
}

// withText returns s with its Front's text mask drawn.
func (s Scene) withText() Scene {
	if s.Front != nil && s.mask == nil {
		s.mask = s.Front.textMask(s.Vertical)
	}
	return s
}

// Render draws the photo and returns the card's true corners in it.
func (s Scene) Render() (img *image.RGBA, corners [4]raster.Point) {
	s = s.withText()
	rng := rand.New(rand.NewPCG(s.Seed, 77))
	aspect := s.FrameAspect
	if aspect == 0 {
		aspect = 4.0 / 3
	}
	fw, fh := s.FrameW, int(math.Round(float64(s.FrameW)/aspect))
	cw := s.CardW
	ch := cw / s.Aspect
	k := s.Keystone
	quad := [4]raster.Point{
		{X: -cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)}, {X: cw / 2 * (1 - k), Y: -ch / 2 * (1 - k/2)},
		{X: cw / 2, Y: ch / 2}, {X: -cw / 2, Y: ch / 2},
	}
	cx, cy := float64(fw)/2+float64(fw)*0.03, float64(fh)/2-float64(fh)*0.02
	if s.Centred {
		cx, cy = float64(fw)/2, float64(fh)/2
	}
	toFrame := raster.Affine(s.RotationDeg*math.Pi/180, 1, cx, cy)
	for i, p := range quad {
		p.X, p.Y = p.X+s.Perspective[i].X*cw, p.Y+s.Perspective[i].Y*cw
		quad[i].X, quad[i].Y = toFrame.Apply(p.X, p.Y)
	}
	// Card content is drawn in its own Width-wide coordinates.
	contentH := float64(card.Width) / s.Aspect
	frameToCard, err := raster.FromQuad(quad, [4]raster.Point{{X: 0, Y: 0}, {X: card.Width, Y: 0}, {X: card.Width, Y: contentH}, {X: 0, Y: contentH}})
	if err != nil {
		panic(err)
	}
	img = image.NewRGBA(image.Rect(0, 0, fw, fh))
	d := s.design()
	for y := 0; y < fh; y++ {
		for x := 0; x < fw; x++ {
			u, v := frameToCard.Apply(float64(x)+0.5, float64(y)+0.5)
			var c color.RGBA
			if !s.NoCard && u >= 0 && v >= 0 && u < card.Width && v < contentH && !d.outsideCorner(u, v, card.Width, contentH) {
				c = s.cardPixel(u, v)
			} else {
				c = s.Surface.pixel(float64(x), float64(y), rng)
			}
			c = s.Light.apply(c, float64(x), float64(y), float64(fw), float64(fh))
			if s.Glare {
				d := math.Hypot(float64(x)-quad[1].X*0.7-quad[2].X*0.3, float64(y)-quad[1].Y*0.7-quad[2].Y*0.3)
				spread := cw / 9
				if s.GlareSize > 0 {
					spread = cw * s.GlareSize
				}
				if g := 300 * math.Exp(-d*d/(2*sq(spread))); g > 1 {
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
// portrait, as on a license. GhostArea holds the ghost copy, 0.45 of its
// side, over the text at the bottom right.
var (
	FaceArea  = image.Rect(50, 140, 280, 370)
	GhostArea = image.Rect(690, 380, 794, 484)
)

// The vertical layout, in the coordinates of the card standing upright
// (card.Height wide, card.Width high): the face at the top centre, the
// ghost at the bottom right beside the text.
var (
	VerticalPortrait  = image.Rect(145, 110, 395, 440)
	VerticalFaceArea  = image.Rect(155, 120, 385, 350)
	VerticalGhostArea = image.Rect(400, 690, 504, 794)
)

// faceSample reads img stretched over r at the card position (x, y).
func faceSample(img image.Image, r image.Rectangle, x, y float64) color.RGBA {
	fx, fy := (x-float64(r.Min.X))/float64(r.Dx()), (y-float64(r.Min.Y))/float64(r.Dy())
	b := img.Bounds()
	cr, cg, cb, _ := img.At(b.Min.X+int(fx*float64(b.Dx())), b.Min.Y+int(fy*float64(b.Dy()))).RGBA()
	return color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 255}
}

// Card draws the card alone, flat and upright at card.Width px wide, as
// AnalyzeFront's corrected image of a perfect photo would be.
func (s Scene) Card() *image.RGBA {
	s = s.withText()
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
	if s.Vertical {
		// The upright vertical card turned a quarter counter-clockwise
		// lies in the horizontal card's coordinates.
		return s.printed(s.verticalPixel(card.Height-v, u), card.Height-v, u)
	}
	return s.printed(s.horizontalPixel(u, v), u, v)
}

// printed lays the Front's text over c at upright card coordinates.
func (s Scene) printed(c color.RGBA, x, y float64) color.RGBA {
	if s.mask == nil {
		return c
	}
	a := textCover(s.mask, x, y)
	if a == 0 {
		return c
	}
	text := s.design().Text
	mix := func(bg, fg uint8) uint8 { return raster.Clamp8(float64(bg)*(1-a) + float64(fg)*a) }
	return color.RGBA{mix(c.R, text.R), mix(c.G, text.G), mix(c.B, text.B), 255}
}

// horizontalPixel is the horizontal layout at card coordinate (u, v).
func (s Scene) horizontalPixel(u, v float64) color.RGBA {
	p := image.Pt(int(u), int(v))
	switch {
	case p.In(FaceArea) && s.Face != nil:
		return faceSample(s.Face, FaceArea, u, v)
	case p.In(GhostArea) && s.Ghost && s.Face != nil:
		return ghostSample(s.Face, GhostArea, u, v)
	case p.In(Portrait):
		return s.portraitGround(u, v, Portrait)
	}
	d := s.design()
	if c, ok := d.edgePrint(u, v, card.Width, card.Height); ok {
		return c
	}
	if s.Front == nil && u > 330 && v >= 140 && v < 500 && int(v-140)%46 < 18 && int(u)%97 < 80 {
		return d.Text
	}
	return d.ground(u, v)
}

// verticalPixel is the vertical layout at upright coordinate (x, y).
func (s Scene) verticalPixel(x, y float64) color.RGBA {
	p := image.Pt(int(x), int(y))
	switch {
	case p.In(VerticalFaceArea) && s.Face != nil:
		return faceSample(s.Face, VerticalFaceArea, x, y)
	case p.In(VerticalGhostArea) && s.Ghost && s.Face != nil:
		return ghostSample(s.Face, VerticalGhostArea, x, y)
	case p.In(VerticalPortrait):
		return s.portraitGround(x, y, VerticalPortrait)
	}
	d := s.design()
	if c, ok := d.edgePrint(x, y, card.Height, card.Width); ok {
		return c
	}
	if s.Front == nil && x > 40 && x < 380 && y >= 470 && y < 820 && int(y-470)%46 < 18 && int(x)%97 < 80 {
		return d.Text
	}
	return d.ground(x, y)
}

var (
	stock      = color.RGBA{228, 232, 238, 255}
	headerBand = color.RGBA{30, 70, 150, 255} // inside the card's margin
	text       = color.RGBA{25, 25, 35, 255}
)

// portraitGround is the portrait's grey ground, with a face-like oval
// unless the portrait is blank or a real face is printed over it.
func (s Scene) portraitGround(x, y float64, r image.Rectangle) color.RGBA {
	ground := s.design().Ground
	if s.BlankPortrait {
		return ground
	}
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	if sq((x-cx)/80)+sq((y-cy+20)/105) < 1 {
		return color.RGBA{190, 150, 120, 255}
	}
	return ground
}

// ghostSample is the face in grey, faded halfway to the card stock.
func ghostSample(img image.Image, r image.Rectangle, x, y float64) color.RGBA {
	c := faceSample(img, r, x, y)
	l := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	fade := func(stock uint8) uint8 { return raster.Clamp8(0.5*l + 0.5*float64(stock)) }
	return color.RGBA{fade(stock.R), fade(stock.G), fade(stock.B), 255}
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
