package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"sort"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// The replay evaluation: does a measured cue tell a photo of
// a license from a photo of a screen or of a print showing one? Two cues,
// measured on the card as card.AnalyzeFront corrects it:
//
//   - periodic energy: the strongest peak of the high-passed card's power
//     spectrum over the median of its band (0.1-0.5 cycles/px, axes left
//     out). A screen's pixel grid and a printer's halftone screen,
//     re-sampled by the camera, leave moiré and dot patterns: sharp peaks;
//   - colour fringes: the high-frequency energy of the colour differences
//     over that of the luminance. Sub-pixel stripes and ink dots of
//     separate colours fringe; a camera's own image of a card barely does.
//
// Everything here is rendered: genuine captures are cardtest scenes with
// real faces through a camera model (noise, JPEG), replays are the same
// scenes shown on an RGB-stripe screen or printed with a CMYK halftone and
// photographed again. The evaluation is circular to a degree no test can
// remove: the replays are made by the model the cues were chosen for, and
// cardtest's cards are flat colour, without the guilloche, microprint and
// offset halftone real licenses carry (which are periodic too). So a
// threshold set here says nothing about false refusals of real cards.

type replayKind int

const (
	genuine replayKind = iota
	genuineGuilloche
	screenReplay
	printReplay
)

var replayNames = []string{"genuine capture", "genuine, guilloche", "screen replay", "print replay"}

// replayCues are the measured cues of one photo.
type replayCues struct {
	found           bool
	periodic, fring float64
}

func benchReplay(faces []labeled) error {
	scenes := []cardtest.Scene{
		{FrameW: 1600, CardW: 1100, RotationDeg: 4},
		{FrameW: 1600, CardW: 1250, RotationDeg: -7, Keystone: 0.06},
		{FrameW: 1600, CardW: 1000, RotationDeg: 178, Blur: 0.8},
	}
	cues := make([][]replayCues, len(replayNames))
	n := 0
	for i, f := range faces {
		if i%5 != 0 { // one face of each person
			continue
		}
		for j, s := range scenes {
			s.Face, s.Seed, s.Aspect = f.img, uint64(100*i+j), card.ID1Aspect
			rng := rand.New(rand.NewPCG(s.Seed, 0x5c4ee))
			photo, quad := s.Render()
			for k := range cues {
				var img image.Image
				switch replayKind(k) {
				case genuine:
					img = camera(photo, 0, rng)
				case genuineGuilloche:
					img = camera(guilloche(photo, quad), 0, rng)
				case screenReplay:
					img = camera(onScreen(photo, rng), 0.6, rng)
				case printReplay:
					img = camera(onPaper(photo, rng), 0.6, rng)
				}
				cues[k] = append(cues[k], measureReplay(img))
			}
			n++
		}
	}
	fmt.Printf("== replay cues: %d scenes x %d (synthetic cards with real faces; the replays rendered from the same photos)\n", n, len(replayNames))
	fmt.Printf("%-16s %-6s %-28s %-28s\n", "", "card", "periodic peak / median", "colour fringes / luminance")
	var genP, genF []float64
	for k, cs := range cues {
		var p, f []float64
		found := 0
		for _, c := range cs {
			if c.found {
				found++
				p, f = append(p, c.periodic), append(f, c.fring)
			}
		}
		if replayKind(k) == genuine {
			genP, genF = p, f
		}
		fmt.Printf("%-16s %2d/%-3d %s %s\n", replayNames[k], found, len(cs), spread(p), spread(f))
	}
	// Thresholds with no genuine capture refused, 10% above its maximum.
	tp, tf := 1.1*quantile(genP, 1), 1.1*quantile(genF, 1)
	fmt.Printf("thresholds at 1.1x the plain genuine maximum (periodic %.1f, fringes %.2f): refused genuine %d/%d\n", tp, tf, countOver(cues[0], tp, tf), len(genP))
	for k := 1; k < len(replayNames); k++ {
		fmt.Printf("  %-20s over it: periodic %d, fringes %d, either %d of %d\n", replayNames[k],
			countOver(cues[k], tp, math.Inf(1)), countOver(cues[k], math.Inf(1), tf), countOver(cues[k], tp, tf), len(cues[k]))
	}
	fmt.Println("  not shipped: on rendered inputs only, and real cards' security print is periodic too (see bench/robust/replay.go)")
	return nil
}

func countOver(cs []replayCues, tp, tf float64) int {
	n := 0
	for _, c := range cs {
		if c.found && (c.periodic > tp || c.fring > tf) {
			n++
		}
	}
	return n
}

func spread(xs []float64) string {
	if len(xs) == 0 {
		return fmt.Sprintf("%-28s", "-")
	}
	return fmt.Sprintf("%-28s", fmt.Sprintf("%.2f / %.2f / %.2f", quantile(xs, 0), quantile(xs, 0.5), quantile(xs, 1)))
}

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(math.Round(q*float64(len(s)-1)))]
}

// guilloche overprints the card's stock in the photo with the fine wavy
// line pattern of real security print (a 0.4 mm pitch, as offset presses
// print guilloches, 16 grey levels deep), following the card's
// perspective: a genuine card that is periodic too.
func guilloche(photo *image.RGBA, quad [4]raster.Point) *image.RGBA {
	toCard, err := raster.FromQuad(quad, [4]raster.Point{{X: 0, Y: 0}, {X: card.Width, Y: 0}, {X: card.Width, Y: card.Height}, {X: 0, Y: card.Height}})
	if err != nil {
		return photo
	}
	out := image.NewRGBA(photo.Rect)
	copy(out.Pix, photo.Pix)
	for y := 0; y < photo.Rect.Dy(); y++ {
		for x := 0; x < photo.Rect.Dx(); x++ {
			u, v := toCard.Apply(float64(x)+0.5, float64(y)+0.5)
			if u < 0 || v < 0 || u >= card.Width || v >= card.Height {
				continue
			}
			i := out.PixOffset(x, y)
			if out.Pix[i] < 200 { // print, not stock
				continue
			}
			line := 0.5 + 0.5*math.Cos(2*math.Pi*(v+6*math.Sin(u/23))/4)
			for c := 0; c < 3; c++ {
				out.Pix[i+c] = raster.Clamp8(float64(out.Pix[i+c]) - 16*line)
			}
		}
	}
	return out
}

// camera is the phone: a little defocus, sensor noise and JPEG at 90.
func camera(img *image.RGBA, blur float64, rng *rand.Rand) image.Image {
	out := img
	if blur > 0 {
		out = blurPlanes(img, blur)
	}
	noisy := image.NewRGBA(out.Rect)
	for i := range out.Pix {
		if i%4 == 3 {
			noisy.Pix[i] = 255
			continue
		}
		noisy.Pix[i] = raster.Clamp8(float64(out.Pix[i]) + 2.5*rng.NormFloat64())
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, noisy, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	dec, err := jpeg.Decode(&buf)
	if err != nil {
		panic(err)
	}
	return dec
}

func blurPlanes(img *image.RGBA, sigma float64) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewRGBA(img.Rect)
	for c := 0; c < 3; c++ {
		plane := raster.New(w, h, 0)
		for i := range plane.Pix {
			plane.Pix[i] = img.Pix[4*i+c]
		}
		for i, v := range raster.GaussianBlur(plane, sigma).Pix {
			out.Pix[4*i+c] = v
		}
	}
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 255
	}
	return out
}

// onScreen shows photo full-screen on an RGB-stripe display and
// photographs it: the screen's pixel pitch is 1.4-3.2 photo pixels, turned
// up to 5°, each pixel three vertical sub-pixel stripes with a dark
// matrix between rows; the camera integrates 3×3 samples per pixel, so the
// grid aliases into moiré as it does in a real recapture.
func onScreen(photo *image.RGBA, rng *rand.Rand) *image.RGBA {
	w, h := photo.Rect.Dx(), photo.Rect.Dy()
	pitch := 1.4 + 1.8*rng.Float64()
	a := (rng.Float64()*2 - 1) * 5 * math.Pi / 180
	ca, sa := math.Cos(a), math.Sin(a)
	// The screen shows the photo scaled to fill the frame; its pixel grid
	// is what the camera sees.
	out := image.NewRGBA(photo.Rect)
	const ss = 3
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc [3]float64
			for j := 0; j < ss; j++ {
				for i := 0; i < ss; i++ {
					fx := float64(x) + (float64(i)+0.5)/ss - float64(w)/2
					fy := float64(y) + (float64(j)+0.5)/ss - float64(h)/2
					// Screen coordinates, in screen pixels.
					sx := (ca*fx + sa*fy) / pitch
					sy := (-sa*fx + ca*fy) / pitch
					px, py := math.Floor(sx), math.Floor(sy)
					if sy-py > 0.8 { // the dark matrix between rows
						continue
					}
					// The screen pixel shows the photo at its centre.
					ix := int((px+0.5)*pitch + float64(w)/2)
					iy := int((py+0.5)*pitch + float64(h)/2)
					if ix < 0 || iy < 0 || ix >= w || iy >= h {
						continue
					}
					c := photo.RGBAAt(ix, iy)
					sub := int(3 * (sx - px))
					v := [3]uint8{c.R, c.G, c.B}[sub]
					acc[sub] += 3 * float64(v) // one stripe carries its channel
				}
			}
			k := 1.15 / (ss * ss) // a bright screen
			out.SetRGBA(x, y, color.RGBA{raster.Clamp8(acc[0]*k + 12), raster.Clamp8(acc[1]*k + 12), raster.Clamp8(acc[2]*k + 18), 255})
		}
	}
	return out
}

// onPaper prints photo on an office printer (CMYK halftone screens at 15°,
// 75°, 0° and 45°, cells of 2.2-3.6 photo pixels, paper white 240, inks a
// little dull) and photographs the print, 3×3 samples per pixel.
func onPaper(photo *image.RGBA, rng *rand.Rand) *image.RGBA {
	w, h := photo.Rect.Dx(), photo.Rect.Dy()
	cell := 2.2 + 1.4*rng.Float64()
	angles := []float64{15, 75, 0, 45}
	var rot [4][2]float64
	for i, a := range angles {
		r := (a + 3*rng.Float64()) * math.Pi / 180
		rot[i] = [2]float64{math.Cos(r), math.Sin(r)}
	}
	// Ink colours (what each ink leaves of white light, per channel).
	inks := [4][3]float64{{0.15, 0.65, 0.95}, {0.95, 0.2, 0.65}, {0.98, 0.95, 0.15}, {0.12, 0.12, 0.12}}
	out := image.NewRGBA(photo.Rect)
	const ss = 3
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := photo.RGBAAt(x, y)
			r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
			k := 1 - math.Max(r, math.Max(g, b))
			cov := [4]float64{0, 0, 0, k}
			if k < 1 {
				cov[0], cov[1], cov[2] = (1-r-k)/(1-k), (1-g-k)/(1-k), (1-b-k)/(1-k)
			}
			var acc [3]float64
			for j := 0; j < ss; j++ {
				for i := 0; i < ss; i++ {
					fx := float64(x) + (float64(i)+0.5)/ss
					fy := float64(y) + (float64(j)+0.5)/ss
					light := [3]float64{240, 240, 236}
					for n := 0; n < 4; n++ {
						u := (rot[n][0]*fx + rot[n][1]*fy) / cell
						v := (-rot[n][1]*fx + rot[n][0]*fy) / cell
						du, dv := u-math.Floor(u)-0.5, v-math.Floor(v)-0.5
						if du*du+dv*dv < cov[n]/math.Pi {
							for ch := range light {
								light[ch] *= inks[n][ch]
							}
						}
					}
					for ch := range acc {
						acc[ch] += light[ch]
					}
				}
			}
			out.SetRGBA(x, y, color.RGBA{raster.Clamp8(acc[0] / ss / ss), raster.Clamp8(acc[1] / ss / ss), raster.Clamp8(acc[2] / ss / ss), 255})
		}
	}
	return out
}

// measureReplay finds the card and measures both cues on it.
func measureReplay(img image.Image) replayCues {
	c, err := card.AnalyzeFront(img)
	if err != nil || c.Image == nil {
		return replayCues{}
	}
	return replayCues{found: true, periodic: periodicPeak(c.Image), fring: colourFringes(c.Image)}
}

// periodicPeak averages the power spectra of four 128×128 windows of the
// high-passed luminance (the portrait, the text, the stock) and returns
// the strongest peak in 0.1-0.5 cycles/px over the band's median, the
// axes (edges, text rows) left out.
func periodicPeak(img *image.RGBA) float64 {
	const n = 128
	g := raster.Luminance(img)
	w, h := g.Rect.Dx(), g.Rect.Dy()
	power := make([]float64, n*n)
	origins := []image.Point{{60, 160}, {360, 150}, {560, 300}, {w - n - 20, h - n - 20}}
	row := make([]complex128, n)
	grid := make([]complex128, n*n)
	for _, o := range origins {
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				// High pass: the pixel minus its 3×3 mean.
				var s float64
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						s += float64(g.GrayAt(o.X+x+dx, o.Y+y+dy).Y)
					}
				}
				hann := (0.5 - 0.5*math.Cos(2*math.Pi*float64(x)/n)) * (0.5 - 0.5*math.Cos(2*math.Pi*float64(y)/n))
				grid[y*n+x] = complex((float64(g.GrayAt(o.X+x, o.Y+y).Y)-s/9)*hann, 0)
			}
		}
		fft2(grid, row, n)
		for i, v := range grid {
			power[i] += real(v)*real(v) + imag(v)*imag(v)
		}
	}
	var band []float64
	peak := 0.0
	for v := 0; v < n; v++ {
		for u := 0; u < n; u++ {
			fu, fv := float64(min(u, n-u))/n, float64(min(v, n-v))/n
			r := math.Hypot(fu, fv)
			if r < 0.1 || r > 0.5 || min(u, n-u) < 2 || min(v, n-v) < 2 {
				continue
			}
			p := power[v*n+u]
			band = append(band, p)
			peak = math.Max(peak, p)
		}
	}
	med := quantile(band, 0.5)
	if med <= 0 {
		return 0
	}
	return peak / med
}

// colourFringes is the mean absolute high-pass of R-G and B-G over that
// of the luminance, on the whole card.
func colourFringes(img *image.RGBA) float64 {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	at := func(x, y int) (float64, float64, float64) {
		c := img.RGBAAt(x, y)
		return float64(c.R), float64(c.G), float64(c.B)
	}
	var chroma, luma float64
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			r, g, b := at(x, y)
			var mr, mg, mb float64
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, gg, bb := at(x+d[0], y+d[1])
				mr, mg, mb = mr+rr/4, mg+gg/4, mb+bb/4
			}
			hr, hg, hb := r-mr, g-mg, b-mb
			chroma += math.Abs(hr-hg) + math.Abs(hb-hg)
			luma += math.Abs(0.299*hr + 0.587*hg + 0.114*hb)
		}
	}
	if luma == 0 {
		return 0
	}
	return chroma / luma
}

// fft2 transforms the n×n grid in place (n a power of two), rows then
// columns, using row as scratch.
func fft2(grid, row []complex128, n int) {
	for y := 0; y < n; y++ {
		fft(grid[y*n : (y+1)*n])
	}
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			row[y] = grid[y*n+x]
		}
		fft(row)
		for y := 0; y < n; y++ {
			grid[y*n+x] = row[y]
		}
	}
}

// fft is an iterative radix-2 Cooley-Tukey transform, in place.
func fft(a []complex128) {
	n := len(a)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		step := cmplx.Exp(complex(0, -2*math.Pi/float64(size)))
		for start := 0; start < n; start += size {
			wk := complex(1, 0)
			for k := 0; k < size/2; k++ {
				u, v := a[start+k], a[start+k+size/2]*wk
				a[start+k], a[start+k+size/2] = u+v, u-v
				wk *= step
			}
		}
	}
}
