package mrztest

import (
	"image"

	"github.com/idgate/idgate/verifier/mrz"
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
