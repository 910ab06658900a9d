package card

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// TestTableLikeStock: a smooth light card beside a woven cloth of its
// colour (the cloth's mean 7 levels from the stock, as on
// testdata/cards fabric.jpg) has a table beyond its side; the same cloth
// without its weave, or a band printed inside the side, does not.
func TestTableLikeStock(t *testing.T) {
	stock := [3]float32{164, 163, 155}
	scene := func(weave float64, band bool) *work {
		img := image.NewRGBA(image.Rect(0, 0, 1280, 960))
		for y := range 960 {
			for x := range 1280 {
				c := color.RGBA{164, 163, 155, 255}
				switch {
				case x >= 640:
					// A weave of 6 px: 3 px of the working copy, which
					// its smoothing flattens.
					w := weave * math.Sin(float64(x)*math.Pi/3) * math.Sin(float64(y)*math.Pi/3)
					c = color.RGBA{raster.Clamp8(169 + w), raster.Clamp8(166 + w), raster.Clamp8(160 + w), 255}
				case band && x >= 600:
					c = color.RGBA{150, 40, 40, 255}
				}
				img.SetRGBA(x, y, c)
			}
		}
		return newWork(img)
	}
	a, b, centre := raster.Point{X: 320, Y: 60}, raster.Point{X: 320, Y: 420}, raster.Point{X: 160, Y: 240}
	for _, tc := range []struct {
		name  string
		wk    *work
		table bool
	}{
		{"woven cloth beyond", scene(20, false), true},
		{"smooth cloth beyond", scene(0, false), false},
		{"a band inside the side", scene(20, true), false},
	} {
		if !tc.wk.stockOutside(a, b, centre, stock) {
			t.Fatalf("%s: the cloth is not the stock's colour (stockOutside false)", tc.name)
		}
		if got := tc.wk.tableLikeStock(a, b, centre, stock); got != tc.table {
			t.Errorf("%s: tableLikeStock %v, want %v", tc.name, got, tc.table)
		}
	}
}
