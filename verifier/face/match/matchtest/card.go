package matchtest

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Variant is one way a license portrait reaches the face match: printed
// (colour or grey) behind a guilloche, on a card photographed on a table
// at some size, blur and JPEG quality, then cut from the photo by the
// card's true corners into the corrected card (card.Width × card.Height),
// as the card finder would when it finds them. The card finder itself is
// not measured here.
type Variant struct {
	Name string
	// Grey prints the portrait in grey (laser-engraved cards).
	Grey bool
	// CardW is the card's width in the 1280 px photo.
	CardW    float64
	Rotation float64
	Keystone float64
	Blur     float64
	Ghost    bool
	// Quality is the photo's JPEG quality.
	Quality int
}

// Variants: a card filling half the frame, a grey print farther away and
// tilted, and a small card near card.MinCardWidth (the portrait then
// reaches the face engine at about 130 px).
var Variants = []Variant{
	{Name: "colour, 720 px card, JPEG 85", CardW: 720, Rotation: 2, Keystone: 0.02, Blur: 0.7, Quality: 85},
	{Name: "grey, 560 px card, tilted, JPEG 70", Grey: true, CardW: 560, Rotation: -6, Keystone: 0.06, Blur: 1.0, Ghost: true, Quality: 70},
	{Name: "colour, 440 px card, JPEG 60", CardW: 440, Rotation: 4, Keystone: 0.03, Blur: 1.2, Quality: 60},
}

// Photograph prints face on a card in this variant, photographs it and
// returns the corrected card.
func (v Variant) Photograph(face *image.RGBA) (*image.RGBA, error) {
	printed := guilloche(face, v.Grey)
	sc := cardtest.Scene{FrameW: 1280, CardW: v.CardW, Aspect: card.ID1Aspect, RotationDeg: v.Rotation,
		Keystone: v.Keystone, Blur: v.Blur, Face: printed, Ghost: v.Ghost, Seed: uint64(face.Rect.Dx()*31 + int(v.CardW))}
	photo, corners := sc.Render()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, photo, &jpeg.Options{Quality: v.Quality}); err != nil {
		return nil, err
	}
	shot, err := jpeg.Decode(&buf)
	if err != nil {
		return nil, err
	}
	toPhoto, err := raster.FromQuad([4]raster.Point{{X: 0, Y: 0}, {X: card.Width, Y: 0}, {X: card.Width, Y: card.Height}, {X: 0, Y: card.Height}}, corners)
	if err != nil {
		return nil, err
	}
	return warp(toRGBA(shot), toPhoto), nil
}

// guilloche prints face as a card does: in colour or grey, under a fine
// pattern of interlaced waves in a pale ink (the security background that
// runs through the portrait on most licenses).
func guilloche(face *image.RGBA, grey bool) *image.RGBA {
	b := face.Rect
	out := image.NewRGBA(b)
	ink := [3]float64{150, 120, 175}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := face.RGBAAt(x, y)
			px := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
			if grey {
				l := 0.299*px[0] + 0.587*px[1] + 0.114*px[2]
				px = [3]float64{l, l, l}
			}
			u, w := float64(x-b.Min.X)/float64(b.Dx()), float64(y-b.Min.Y)/float64(b.Dy())
			// Two families of waves, each a thin line every 1/18 of
			// the side; where they run the ink covers 35 %.
			a := math.Abs(math.Sin(math.Pi * 18 * (u + 0.04*math.Sin(2*math.Pi*3*w))))
			d := math.Abs(math.Sin(math.Pi * 18 * (w + 0.04*math.Sin(2*math.Pi*3*u))))
			cover := 0.35 * math.Max(line(a), line(d))
			out.SetRGBA(x, y, color.RGBA{mix(px[0], ink[0], cover), mix(px[1], ink[1], cover), mix(px[2], ink[2], cover), 255})
		}
	}
	return out
}

// line is 1 on a thin line (where a wave's |sin| is near 0), fading out.
func line(s float64) float64 { return math.Max(0, 1-s/0.15) }

func mix(bg, fg, a float64) uint8 { return raster.Clamp8(bg*(1-a) + fg*a) }

// warp samples photo through toPhoto (card pixel → photo pixel) into the
// corrected card, bilinear.
func warp(photo *image.RGBA, toPhoto raster.Homography) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, card.Width, card.Height))
	w, h := photo.Rect.Dx(), photo.Rect.Dy()
	at := func(x, y int) []uint8 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		return photo.Pix[photo.PixOffset(x, y):]
	}
	for y := range card.Height {
		for x := range card.Width {
			sx, sy := toPhoto.Apply(float64(x)+0.5, float64(y)+0.5)
			sx, sy = sx-0.5, sy-0.5
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			p00, p10, p01, p11 := at(x0, y0), at(x0+1, y0), at(x0, y0+1), at(x0+1, y0+1)
			o := out.PixOffset(x, y)
			for c := range 3 {
				top := float64(p00[c])*(1-fx) + float64(p10[c])*fx
				bot := float64(p01[c])*(1-fx) + float64(p11[c])*fx
				out.Pix[o+c] = raster.Clamp8(top*(1-fy) + bot*fy)
			}
			out.Pix[o+3] = 255
		}
	}
	return out
}

var portraitGrey = color.RGBA{150, 150, 155, 255}
