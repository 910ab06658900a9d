package synth

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/zxing"
)

// Card proportions: ID-1 is 85.60 × 53.98 mm; the barcode spans most of the
// width of the back, in its lower half, as on US and Canadian licenses.
const (
	cardAspect    = 85.60 / 53.98
	barcodeOfCard = 0.85
	minFrameW     = 1280
)

// Render draws the case: a grey photo of a license back, after all of its
// degradations; a JPEG case returns the decoded JPEG (*image.Gray).
func (c Case) Render() (image.Image, error) {
	sym, err := zxing.Write(c.Payload, c.EC)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", c.Name, err)
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x5e7))
	card := drawCard(sym, c.Module, rng)
	frame, err := place(card, c.FrameWidth, c.Degradation, rng)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", c.Name, err)
	}
	if c.Light > 0 {
		unevenLight(frame, c.Light, rng)
	}
	if c.BlurSigma > 0 {
		frame = raster.GaussianBlur(frame, c.BlurSigma)
	}
	if c.Downscale > 0 && c.Downscale < 1 {
		w, h := frame.Rect.Dx(), frame.Rect.Dy()
		frame = raster.Resize(frame, int(float64(w)*c.Downscale), int(float64(h)*c.Downscale))
	}
	if c.NoiseSigma > 0 {
		for i, v := range frame.Pix {
			frame.Pix[i] = raster.Clamp8(float64(v) + rng.NormFloat64()*c.NoiseSigma)
		}
	}
	if c.JPEGQuality > 0 {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, frame, &jpeg.Options{Quality: c.JPEGQuality}); err != nil {
			return nil, fmt.Errorf("render %s: jpeg: %w", c.Name, err)
		}
		img, err := jpeg.Decode(&buf)
		if err != nil {
			return nil, fmt.Errorf("render %s: jpeg: %w", c.Name, err)
		}
		return img, nil
	}
	return frame, nil
}

// drawCard prints the symbol on a card: off-white stock with a faint
// guilloche pattern, dark lines of "text" above the barcode, ink that is
// not quite black.
func drawCard(sym *zxing.Symbol, module int, rng *rand.Rand) *image.Gray {
	symW, symH := sym.Width*module, sym.Height*module
	w := int(float64(symW) / barcodeOfCard)
	h := int(float64(w) / cardAspect)
	card := raster.New(w, h, 0)
	paper := 215 + rng.Float64()*25
	f1, f2 := 0.02+rng.Float64()*0.03, 0.015+rng.Float64()*0.02
	for y := 0; y < h; y++ {
		sy := math.Sin(float64(y) * f2) // the row's, hoisted: the same to the bit
		for x := 0; x < w; x++ {
			v := paper - 8*float64(y)/float64(h) + 6*math.Sin(float64(x)*f1+4*sy)
			card.Pix[y*w+x] = raster.Clamp8(v)
		}
	}
	x0 := (w - symW) / 2
	y0 := h - symH - int(0.06*float64(h))
	// Lines of text between the top edge and the barcode's quiet zone.
	lineH := max(4, h/40)
	for y := int(0.08 * float64(h)); y+lineH < y0-4*module; y += 2 * lineH {
		for x := x0; x < x0+symW; {
			word := lineH * (2 + rng.IntN(6))
			if rng.IntN(4) > 0 {
				fillRect(card, x, y, min(x+word, x0+symW), y+lineH, uint8(40+rng.IntN(50)))
			}
			x += word + lineH
		}
	}
	ink := uint8(20 + rng.IntN(30))
	// A white panel behind the symbol keeps its quiet zone clear of the
	// guilloche, as printers do.
	fillRect(card, x0-3*module, y0-3*module, x0+symW+3*module, y0+symH+3*module, raster.Clamp8(paper+10))
	for y := 0; y < sym.Height; y++ {
		for x := 0; x < sym.Width; x++ {
			if sym.Dark[y*sym.Width+x] {
				fillRect(card, x0+x*module, y0+y*module, x0+(x+1)*module, y0+(y+1)*module, ink)
			}
		}
	}
	return card
}

func fillRect(g *image.Gray, x0, y0, x1, y1 int, v uint8) {
	r := image.Rect(x0, y0, x1, y1).Intersect(g.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			g.Pix[y*g.Stride+x] = v
		}
	}
}

// cardInFrame is the map from frame pixels to card pixels (what sampling
// needs) for a cw×ch card drawn dw×dh in a fw×fh frame: its corners
// centred on the origin, tilted (keystone: the top edge, farther from the
// camera, shrinks and moves down), turned by rotDeg and moved to a spot
// within ±jitter/2 of the frame's size from its centre.
func cardInFrame(cw, ch, dw, dh, keystone, rotDeg, jitter float64, fw, fh int, rng *rand.Rand) (raster.Homography, error) {
	k := keystone
	quad := [4]raster.Point{
		{X: -dw / 2 * (1 - k), Y: -dh / 2 * (1 - k/2)},
		{X: dw / 2 * (1 - k), Y: -dh / 2 * (1 - k/2)},
		{X: dw / 2, Y: dh / 2},
		{X: -dw / 2, Y: dh / 2},
	}
	a := rotDeg * math.Pi / 180
	cx := float64(fw)/2 + (rng.Float64()-0.5)*jitter*float64(fw)
	cy := float64(fh)/2 + (rng.Float64()-0.5)*jitter*float64(fh)
	toFrame := raster.Affine(a, 1, cx, cy)
	for i, p := range quad {
		quad[i].X, quad[i].Y = toFrame.Apply(p.X, p.Y)
	}
	corners := [4]raster.Point{{X: 0, Y: 0}, {X: cw, Y: 0}, {X: cw, Y: ch}, {X: 0, Y: ch}}
	return raster.FromQuad(quad, corners)
}

// place puts the card on a table in a 4:3 frame, at least fw wide and
// large enough for any rotation, turned and tilted as d says, at a random
// offset.
func place(card *image.Gray, fw int, d Degradation, rng *rand.Rand) (*image.Gray, error) {
	cw, ch := float64(card.Rect.Dx()), float64(card.Rect.Dy())
	fw = max(fw, minFrameW, int(1.35*cw))
	fh := fw * 3 / 4
	frameToCard, err := cardInFrame(cw, ch, cw, ch, d.Keystone, d.RotationDeg, 0.08, fw, fh, rng)
	if err != nil {
		return nil, fmt.Errorf("place card: %w", err)
	}
	frame := raster.New(fw, fh, 0)
	table := 70 + rng.Float64()*50
	wave := tableWave(fw, fh)
	for y := 0; y < fh; y++ {
		for x := 0; x < fw; x++ {
			u, v := frameToCard.Apply(float64(x)+0.5, float64(y)+0.5)
			if u >= 0 && v >= 0 && u < cw && v < ch {
				frame.Pix[y*fw+x] = raster.Clamp8(raster.Bilinear(card, u-0.5, v-0.5, 0))
				continue
			}
			frame.Pix[y*fw+x] = raster.Clamp8(table + 15*wave[x+2*y] + 6*rng.NormFloat64())
		}
	}
	return frame, nil
}

// unevenLight multiplies the frame by a light field: a linear gradient in
// a random direction, a vignette, and a soft shadow edge, each scaled by s.
func unevenLight(g *image.Gray, s float64, rng *rand.Rand) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	dir := rng.Float64() * 2 * math.Pi
	dx, dy := math.Cos(dir), math.Sin(dir)
	shadowDir := rng.Float64() * 2 * math.Pi
	sx, sy := math.Cos(shadowDir), math.Sin(shadowDir)
	shadowAt := (rng.Float64() - 0.5) * 0.4
	diag := math.Hypot(float64(w), float64(h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			nx, ny := (float64(x)-float64(w)/2)/diag, (float64(y)-float64(h)/2)/diag
			grad := 0.5 + nx*dx + ny*dy // 0..1 across the frame
			vignette := 4 * (nx*nx + ny*ny)
			shadow := 1 / (1 + math.Exp(-(nx*sx+ny*sy-shadowAt)*60))
			f := 1 - s*(0.5*grad+0.2*vignette+0.3*shadow)
			i := y*g.Stride + x
			g.Pix[i] = raster.Clamp8(float64(g.Pix[i]) * f)
		}
	}
}

// tableWave is the table's grain, sin((x+2y)/100), for every x+2y of a
// w×h frame: it depends on x+2y alone, so the frame's sines, one a pixel
// (12 million on a 12 MP photo), are these w+2h, the same to the bit.
func tableWave(w, h int) []float64 {
	out := make([]float64, w+2*h)
	for j := range out {
		out[j] = math.Sin(float64(j) * 0.01)
	}
	return out
}
