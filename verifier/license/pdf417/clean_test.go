package pdf417

import (
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// bars draws vertical bars 3 px wide, dark on light, over a light gradient
// from left to right.
func bars(w, h int) *image.Gray {
	g := raster.New(w, h, 0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			light := 120 + 100*x/w // uneven light: darker on the left
			v := light
			if (x/3)%2 == 0 {
				v = light / 3
			}
			g.Pix[y*g.Stride+x] = uint8(v)
		}
	}
	return g
}

func TestAdaptiveThresholdFollowsUnevenLight(t *testing.T) {
	g := bars(120, 40)
	b := adaptiveThreshold(g)
	for _, x := range []int{1, 4, 61, 64, 115, 118} {
		want := uint8(0xff)
		if (x/3)%2 == 0 {
			want = 0
		}
		if got := b.Pix[20*b.Stride+x]; got != want {
			t.Errorf("x=%d: got %d, want %d (raw %d)", x, got, want, g.Pix[20*g.Stride+x])
		}
	}
}

func TestSmoothVerticalKeepsBarsAndRemovesRowNoise(t *testing.T) {
	g := bars(30, 20)
	g.Pix[10*g.Stride+4] = 255 // a hot pixel in a space (columns 3-5 are light)
	s := smoothVertical(g)
	if s.Pix[5*s.Stride+1] != g.Pix[5*g.Stride+1] || s.Pix[5*s.Stride+4] != g.Pix[5*g.Stride+4] {
		t.Fatal("vertical smoothing changed a clean column")
	}
	if got, raw := s.Pix[10*s.Stride+4], g.Pix[10*g.Stride+4]; got >= raw {
		t.Fatalf("hot pixel kept: %d (raw %d)", got, raw)
	}
}

func TestSharpenRaisesEdgeContrast(t *testing.T) {
	g := raster.GaussianBlur(bars(60, 20), 1.5)
	s := sharpen(g)
	contrast := func(img *image.Gray) int {
		lo, hi := 255, 0
		for x := 20; x < 40; x++ {
			v := int(img.Pix[10*img.Stride+x])
			lo, hi = min(lo, v), max(hi, v)
		}
		return hi - lo
	}
	if contrast(s) <= contrast(g) {
		t.Fatalf("contrast %d after sharpening, %d before", contrast(s), contrast(g))
	}
}

func TestBoxMean(t *testing.T) {
	g := raster.New(5, 5, 0)
	g.Pix[2*g.Stride+2] = 90
	m := boxMean(g, 1)
	if m.Pix[2*m.Stride+2] != 10 || m.Pix[1*m.Stride+1] != 10 || m.Pix[0] != 0 {
		t.Fatalf("means %d %d %d, want 10 10 0", m.Pix[2*m.Stride+2], m.Pix[1*m.Stride+1], m.Pix[0])
	}
	// At a corner the window is clipped to 2×2.
	g.Pix[0] = 40
	if m := boxMean(g, 1); m.Pix[0] != 10 {
		t.Fatalf("corner mean %d, want 10", m.Pix[0])
	}
}
