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

// Photo is a phone capture of a license back under a print model and a
// camera model, at a given sensor resolution: unlike Case, whose symbol is
// drawn straight at a module size in frame pixels, the card is printed at
// a fine resolution first (ink spread, ragged edges, a halftoned
// background, paper and laminate texture, a glare patch) and then imaged
// at the distance CardFrac says, so the module size in the photo follows
// from the resolution and the distance, as it does for a user.
//
// It is still synthetic: the models are plausible, not fitted to real
// captures (testdata/zxing-pdf417 holds real ones, of other documents).
type Photo struct {
	Name    string
	Payload []byte
	EC      int
	// MP is the frame's size in megapixels (4:3, e.g. 12 is 4000×3000).
	MP float64
	// CardFrac is the card's width as a fraction of the frame's width
	// (before rotation and tilt): how close the phone is.
	CardFrac float64
	Print    PrintModel
	Camera   CameraModel
	Seed     uint64
}

// PrintModel is what the card printer and the laminate do to the symbol.
type PrintModel struct {
	// DotGain widens every bar by this fraction of a module (ink spread
	// of thermal and dye-sublimation printers), 0-0.3.
	DotGain float64
	// Ragged is the edge jitter of the bars, in modules (0-0.15).
	Ragged float64
	// Halftone prints the background pattern as a dot screen instead of
	// continuous tone.
	Halftone bool
	// Texture is the contrast of paper and laminate texture, grey levels.
	Texture float64
	// Glare is the strength (0-1) of a specular patch on the laminate: the
	// symbol under it washes toward white.
	Glare float64
}

// CameraModel is what the phone does between the card and the JPEG.
type CameraModel struct {
	RotationDeg float64
	// Keystone is the perspective of a card tilted away, as in Degradation.
	Keystone float64
	// Defocus is the optical blur, Gaussian sigma in frame pixels.
	Defocus float64
	// MotionPx is the length of linear motion blur in frame pixels, at
	// MotionDeg.
	MotionPx, MotionDeg float64
	// ReadNoise is the signal-independent noise in grey levels; ShotNoise
	// scales the signal-dependent part (sigma = ShotNoise·√v). Both are
	// what is left after the phone's denoising, and the unsharp mask that
	// follows amplifies them, as a phone's processing does.
	ReadNoise, ShotNoise float64
	// Sharpen is the strength of the phone's unsharp mask (0-1.5).
	Sharpen float64
	// JPEGQuality of the saved photo (phones save at 85-95).
	JPEGQuality int
	// Light is the uneven light strength, as in Degradation.
	Light float64
}

// printPx is the print resolution in pixels per module: fine enough that
// dot gain, ragged edges and halftone dots are resolved before imaging.
const printPx = 8

// FrameSize is the frame's width and height for MP megapixels at 4:3.
func FrameSize(mp float64) (int, int) {
	w := int(math.Round(math.Sqrt(mp * 1e6 * 4 / 3)))
	return w, w * 3 / 4
}

// ModulePx is the symbol's module width in frame pixels (before rotation
// and tilt), the size the "move closer" threshold is about. It needs the
// symbol's width in modules, which Render reports.
func (p Photo) ModulePx(symbolModules int) float64 {
	fw, _ := FrameSize(p.MP)
	return p.CardFrac * float64(fw) * barcodeOfCard / float64(symbolModules)
}

// Render draws the photo; it also returns the symbol's width in modules.
// A photo with JPEGQuality > 0 comes back as the decoded JPEG.
func (p Photo) Render() (image.Image, int, error) {
	sym, err := zxing.Write(p.Payload, p.EC)
	if err != nil {
		return nil, 0, fmt.Errorf("render %s: %w", p.Name, err)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x9a0f))
	card := printCard(sym, p.Print, rng)
	fw, fh := FrameSize(p.MP)
	frame, err := photograph(card, fw, fh, p.CardFrac, p.Camera, rng)
	if err != nil {
		return nil, 0, fmt.Errorf("render %s: %w", p.Name, err)
	}
	c := p.Camera
	if c.Light > 0 {
		unevenLight(frame, c.Light, rng)
	}
	if c.Defocus > 0 {
		frame = raster.GaussianBlur(frame, c.Defocus)
	}
	if c.MotionPx >= 1 {
		frame = motionBlur(frame, c.MotionPx, c.MotionDeg)
	}
	if c.ReadNoise > 0 || c.ShotNoise > 0 {
		for i, v := range frame.Pix {
			sigma := math.Sqrt(c.ReadNoise*c.ReadNoise + c.ShotNoise*c.ShotNoise*float64(v))
			frame.Pix[i] = raster.Clamp8(float64(v) + rng.NormFloat64()*sigma)
		}
	}
	if c.Sharpen > 0 {
		soft := raster.GaussianBlur(frame, 1.2)
		for i, v := range frame.Pix {
			frame.Pix[i] = raster.Clamp8(float64(v) + c.Sharpen*(float64(v)-float64(soft.Pix[i])))
		}
	}
	if c.JPEGQuality > 0 {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, frame, &jpeg.Options{Quality: c.JPEGQuality}); err != nil {
			return nil, 0, fmt.Errorf("render %s: jpeg: %w", p.Name, err)
		}
		img, err := jpeg.Decode(&buf)
		if err != nil {
			return nil, 0, fmt.Errorf("render %s: jpeg: %w", p.Name, err)
		}
		return img, sym.Width, nil
	}
	return frame, sym.Width, nil
}

// printCard prints the symbol at printPx per module on card stock.
func printCard(sym *zxing.Symbol, pm PrintModel, rng *rand.Rand) *image.Gray {
	const m = printPx
	symW, symH := sym.Width*m, sym.Height*m
	w := int(float64(symW) / barcodeOfCard)
	h := int(float64(w) / cardAspect)
	card := raster.New(w, h, 0)
	paper := 215 + rng.Float64()*25
	f1, f2 := (0.02+rng.Float64()*0.03)/3, (0.015+rng.Float64()*0.02)/3
	// A 45° dot screen of 6 print pixels, as offset presses print tints.
	const cell = 6.0
	for y := 0; y < h; y++ {
		// The inner wave is the row's (hoisted: the expression is the
		// same, so is every pixel).
		sy := math.Sin(float64(y) * f2)
		for x := 0; x < w; x++ {
			tone := 8*float64(y)/float64(h) - 6*math.Sin(float64(x)*f1+4*sy) + 10 // 0..24 darker than paper
			v := paper - tone
			if pm.Halftone {
				// Dot coverage proportional to tone; a dot is dark ink at 60.
				u := (float64(x) + float64(y)) / (cell * math.Sqrt2)
				t := (float64(x) - float64(y)) / (cell * math.Sqrt2)
				du, dt := u-math.Floor(u)-0.5, t-math.Floor(t)-0.5
				cover := math.Max(0, tone) / (paper - 60)
				if du*du+dt*dt < cover/math.Pi {
					v = 60
				} else {
					v = paper
				}
			}
			card.Pix[y*w+x] = raster.Clamp8(v)
		}
	}
	x0 := (w - symW) / 2
	y0 := h - symH - int(0.06*float64(h))
	// Lines of text: words of glyph-like strokes (not solid blocks, whose
	// long parallel edges no real print has).
	lineH := max(8, h/40)
	for y := int(0.08 * float64(h)); y+lineH < y0-4*m; y += 2 * lineH {
		for x := x0; x < x0+symW; {
			chars := 2 + rng.IntN(9)
			word := chars * lineH * 3 / 4
			if rng.IntN(4) > 0 {
				ink := uint8(40 + rng.IntN(50))
				for c := 0; c < chars; c++ {
					glyph(card, x+c*lineH*3/4, y, lineH, ink, rng)
				}
			}
			x += word + lineH
		}
	}
	fillRect(card, x0-3*m, y0-3*m, x0+symW+3*m, y0+symH+3*m, raster.Clamp8(paper+10))
	ink := uint8(20 + rng.IntN(30))
	grow := pm.DotGain * m / 2
	jit := pm.Ragged * m
	for y := 0; y < sym.Height; y++ {
		for x := 0; x < sym.Width; {
			if !sym.Dark[y*sym.Width+x] {
				x++
				continue
			}
			// One bar: the run of dark modules, grown by the dot gain on
			// both sides, each edge jittered.
			x1 := x
			for x1 < sym.Width && sym.Dark[y*sym.Width+x1] {
				x1++
			}
			l := float64(x0+x*m) - grow + jit*rng.NormFloat64()
			r := float64(x0+x1*m) + grow + jit*rng.NormFloat64()
			fillRect(card, int(math.Round(l)), y0+y*m, int(math.Round(r)), y0+(y+1)*m, ink)
			x = x1
		}
	}
	if pm.Texture > 0 {
		texture(card, pm.Texture, rng)
	}
	if pm.Glare > 0 {
		glare(card, pm.Glare, x0, y0, symW, symH, rng)
	}
	return card
}

// glyph draws a letter-like mark in a cell lineH high and 3/4 lineH wide:
// two to four strokes among the verticals, horizontals and diagonals a
// sans-serif capital is made of.
func glyph(g *image.Gray, x, y, lineH int, ink uint8, rng *rand.Rand) {
	w := lineH * 5 / 8
	sw := max(1, lineH/7)
	type seg struct{ ax, ay, bx, by float64 }
	strokes := []seg{
		{0, 0, 0, 1}, {1, 0, 1, 1}, {0.5, 0, 0.5, 1}, // verticals
		{0, 0, 1, 0}, {0, 0.5, 1, 0.5}, {0, 1, 1, 1}, // horizontals
		{0, 1, 0.5, 0}, {0.5, 0, 1, 1}, {0, 0, 1, 1}, {0, 1, 1, 0}, // diagonals
	}
	for n := 2 + rng.IntN(3); n > 0; n-- {
		st := strokes[rng.IntN(len(strokes))]
		ax, ay := float64(x)+st.ax*float64(w), float64(y)+st.ay*float64(lineH)
		bx, by := float64(x)+st.bx*float64(w), float64(y)+st.by*float64(lineH)
		steps := int(math.Hypot(bx-ax, by-ay)) + 1
		for i := 0; i <= steps; i++ {
			t := float64(i) / float64(steps)
			px, py := int(ax+(bx-ax)*t), int(ay+(by-ay)*t)
			fillRect(g, px, py, px+sw, py+sw, ink)
		}
	}
}

// texture adds paper and laminate texture: a blotchy low-frequency field
// (value noise on a 24 px lattice) and fine grain, together about
// amplitude grey levels.
func texture(g *image.Gray, amplitude float64, rng *rand.Rand) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	const lat = 24
	lw, lh := w/lat+2, h/lat+2
	field := make([]float64, lw*lh)
	for i := range field {
		field[i] = rng.NormFloat64()
	}
	for y := 0; y < h; y++ {
		fy := float64(y) / lat
		iy := int(fy)
		ty := fy - float64(iy)
		for x := 0; x < w; x++ {
			fx := float64(x) / lat
			ix := int(fx)
			tx := fx - float64(ix)
			a := field[iy*lw+ix]*(1-tx) + field[iy*lw+ix+1]*tx
			b := field[(iy+1)*lw+ix]*(1-tx) + field[(iy+1)*lw+ix+1]*tx
			n := 0.6*(a*(1-ty)+b*ty) + 0.4*rng.NormFloat64()
			i := y*g.Stride + x
			g.Pix[i] = raster.Clamp8(float64(g.Pix[i]) + amplitude*n)
		}
	}
}

// glare washes an elliptical patch somewhere over the symbol toward white:
// the light's reflection in the laminate, strongest at its centre.
func glare(g *image.Gray, s float64, x0, y0, symW, symH int, rng *rand.Rand) {
	cx := float64(x0) + rng.Float64()*float64(symW)
	cy := float64(y0) + rng.Float64()*float64(symH)
	rx := (0.08 + 0.12*rng.Float64()) * float64(symW)
	ry := rx * (0.4 + 0.4*rng.Float64())
	w, h := g.Rect.Dx(), g.Rect.Dy()
	for y := max(0, int(cy-3*ry)); y < min(h, int(cy+3*ry)); y++ {
		for x := max(0, int(cx-3*rx)); x < min(w, int(cx+3*rx)); x++ {
			dx, dy := (float64(x)-cx)/rx, (float64(y)-cy)/ry
			a := s * math.Exp(-(dx*dx+dy*dy)/2)
			i := y*g.Stride + x
			g.Pix[i] = raster.Clamp8(float64(g.Pix[i]) + a*(255-float64(g.Pix[i])))
		}
	}
}

// photograph images the card into a fw×fh frame: the card CardFrac of the
// frame wide, tilted and turned, on a table. Sampling averages the card
// over each frame pixel's footprint (a Gaussian prefilter of half the
// footprint), as a sensor integrates light.
func photograph(card *image.Gray, fw, fh int, frac float64, c CameraModel, rng *rand.Rand) (*image.Gray, error) {
	cw, ch := float64(card.Rect.Dx()), float64(card.Rect.Dy())
	scale := frac * float64(fw) / cw // frame px per card px
	src := card
	if scale < 1 {
		src = raster.GaussianBlur(card, 0.5/scale)
	}
	frameToCard, err := cardInFrame(cw, ch, cw*scale, ch*scale, c.Keystone, c.RotationDeg, 0.06, fw, fh, rng)
	if err != nil {
		return nil, fmt.Errorf("photograph card: %w", err)
	}
	frame := raster.New(fw, fh, 0)
	table := 70 + rng.Float64()*50
	wave := tableWave(fw, fh)
	for y := 0; y < fh; y++ {
		row := frame.Pix[y*fw : (y+1)*fw]
		for x := range row {
			u, v := frameToCard.Apply(float64(x)+0.5, float64(y)+0.5)
			if u >= 0 && v >= 0 && u < cw && v < ch {
				row[x] = raster.Clamp8(raster.Bilinear(src, u-0.5, v-0.5, 0))
				continue
			}
			row[x] = raster.Clamp8(table + 15*wave[x+2*y])
		}
	}
	return frame, nil
}

// motionBlur averages n samples along a line of length px at deg degrees.
func motionBlur(g *image.Gray, px, deg float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	n := int(math.Ceil(px))
	dx, dy := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	acc := make([]float64, w*h)
	for k := 0; k <= n; k++ {
		t := (float64(k)/float64(n) - 0.5) * px
		ox, oy := int(math.Round(t*dx)), int(math.Round(t*dy))
		for y := 0; y < h; y++ {
			sy := min(h-1, max(0, y+oy))
			srow := g.Pix[sy*g.Stride:]
			arow := acc[y*w : (y+1)*w]
			for x := range arow {
				arow[x] += float64(srow[min(w-1, max(0, x+ox))])
			}
		}
	}
	out := raster.New(w, h, 0)
	for i, v := range acc {
		out.Pix[i] = raster.Clamp8(v / float64(n+1))
	}
	return out
}

// Resolutions are the frame sizes of PhotoSet, in megapixels: from an old
// or front camera to a current main camera.
var Resolutions = []float64{1, 2, 5, 8, 12}

// PhotoSet returns perMP photos at each of Resolutions, deterministic in
// seed. The card's share of the frame width is spread evenly from 0.25 (a
// phone held far) to 0.9 (filling the frame), so each resolution covers
// module sizes from too small to comfortable; print and camera parameters
// are drawn within the ranges a hand-held capture of a laminated card
// plausibly has.
func PhotoSet(seed uint64, perMP int) []Photo {
	var out []Photo
	for ri, mp := range Resolutions {
		for i := 0; i < perMP; i++ {
			s := seed*1_000_003 + uint64(ri)*10_007 + uint64(i) + 0x7000_0000
			rng := rand.New(rand.NewPCG(s, 0x3c4a))
			t := 0.0
			if perMP > 1 {
				t = float64(i) / float64(perMP-1)
			}
			p := Photo{
				Name:     fmt.Sprintf("%gMP/%02d", mp, i),
				Payload:  Payload(rng),
				EC:       3 + rng.IntN(3),
				MP:       mp,
				CardFrac: lerp(0.25, 0.9, t),
				Seed:     s,
				Print: PrintModel{
					DotGain:  0.3 * rng.Float64(),
					Ragged:   0.12 * rng.Float64(),
					Halftone: rng.IntN(2) == 0,
					Texture:  2 + 6*rng.Float64(),
				},
				Camera: CameraModel{
					RotationDeg: sign(rng) * 12 * rng.Float64(),
					Keystone:    0.12 * rng.Float64(),
					// Defocus and shake scale with the sensor: the same
					// optics spread over more pixels on a denser one.
					Defocus: (0.4 + 0.8*rng.Float64()) * math.Sqrt(mp/4),
					// Residual noise after the phone's denoising: about
					// 2-5 grey levels on white stock.
					ReadNoise:   1 + 2*rng.Float64(),
					ShotNoise:   0.1 + 0.2*rng.Float64(),
					Sharpen:     0.3 + 0.7*rng.Float64(),
					JPEGQuality: 85 + rng.IntN(11),
					Light:       0.4 * rng.Float64(),
				},
			}
			if rng.IntN(3) == 0 {
				p.Print.Glare = 0.3 + 0.5*rng.Float64()
			}
			if rng.IntN(3) == 0 {
				p.Camera.MotionPx = (1 + 2*rng.Float64()) * math.Sqrt(mp/4)
				p.Camera.MotionDeg = 180 * rng.Float64()
			}
			out = append(out, p)
		}
	}
	return out
}
