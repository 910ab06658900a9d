package mrztest

import (
	"image"
	"math/rand/v2"
	"strings"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// capMM is the height of the zone's capitals on the page, mm (OCR-B at
// 10 characters per inch).
const capMM = 2.5

// paperGrey is the grey print washes out towards (the page's ground).
const paperGrey = 235

// Wash washes part of cell col of zone line li out towards the paper, a of
// the way (0 none, 1 all): glare on the print, or ink rubbed off. page is
// a data page of format f rendered at pxPerMM (PrintedPage); part is the
// part of the cell washed, as the least and most of its pitch across and
// of its capitals' height down, 0-1 ({0, 1, 0.5, 1}: the lower half).
func Wash(page *image.Gray, f mrz.Format, pxPerMM float64, li, col int, part [4]float64, a float64) {
	g := geometries[f]
	lines := 2
	if f == mrz.TD1 {
		lines = 3
	}
	base := g.h - g.bottom - float64(lines-1-li)*g.lineGap
	x0 := (g.w-float64(g.chars)*pitchMM)/2 + pitchMM*float64(col)
	for y := int((base - capMM + capMM*part[2]) * pxPerMM); y < int((base-capMM+capMM*part[3])*pxPerMM); y++ {
		for x := int((x0 + pitchMM*part[0]) * pxPerMM); x < int((x0+pitchMM*part[1])*pxPerMM); x++ {
			i := page.PixOffset(x, y)
			page.Pix[i] = uint8(float64(page.Pix[i])*(1-a) + paperGrey*a)
		}
	}
}

// WashedParts are the halves of a cell the washed sweep washes, by name
// (Wash's part).
var WashedParts = []struct {
	Name string
	Part [4]float64
}{
	{"top", [4]float64{0, 1, 0, 0.5}},
	{"bottom", [4]float64{0, 1, 0.5, 1}},
	{"left", [4]float64{0, 0.5, 0, 1}},
	{"right", [4]float64{0.5, 1, 0, 1}},
}

// WashedCamera is the camera of the washed sweep (bench/mrz -washed) and
// its tests, for a frame w px wide (4:3): the page 80% of the frame,
// turned 2°, a little defocus, light fall-off and noise, JPEG 90.
func WashedCamera(w int) Camera {
	return Camera{Width: w, Height: w * 3 / 4, PageFrac: 0.8, Angle: 2, Blur: 0.8, Light: 0.1, Noise: 2, Quality: 90}
}

// WashedSpecimen is a photo by cam of ICAO's specimen data page printing
// letter in its surname's second cell (line 0, col 6), part of that cell
// washed a of the way to the paper (Wash), and the zone's lines so
// printed. Each letter draws from its own stream, so a page is the same
// whatever else a sweep renders.
func WashedSpecimen(f *ocrb.Font, cam Camera, letter byte, part [4]float64, a float64) (*image.Gray, []string, error) {
	const col = 6
	lines := strings.Split(specimenTD3, "\n")
	lines[0] = lines[0][:col] + string(letter) + lines[0][col+1:]
	r := rand.New(rand.NewPCG(3, uint64(letter)))
	px := cam.PageFrac * float64(cam.Width) / Width(mrz.TD3)
	page, err := PrintedPage(f, mrz.TD3, lines, nil, Print{}, px, r)
	if err != nil {
		return nil, nil, err
	}
	Wash(page, mrz.TD3, px, 0, col, part, a)
	img, err := Photo(page, cam, r)
	return img, lines, err
}
