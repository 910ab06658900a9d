package raster

import (
	"bytes"
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

func TestFromQuadMapsCorners(t *testing.T) {
	src := [4]Point{{0, 0}, {100, 0}, {100, 60}, {0, 60}}
	dst := [4]Point{{10, 20}, {230, 5}, {250, 170}, {-5, 140}}
	m, err := FromQuad(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := FromQuad(dst, src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		x, y := m.Apply(src[i].X, src[i].Y)
		if math.Hypot(x-dst[i].X, y-dst[i].Y) > 1e-6 {
			t.Errorf("corner %d maps to (%v, %v), want %v", i, x, y, dst[i])
		}
		bx, by := inv.Apply(x, y)
		if math.Hypot(bx-src[i].X, by-src[i].Y) > 1e-6 {
			t.Errorf("reverse map of corner %d gives (%v, %v), want %v", i, bx, by, src[i])
		}
	}
	// The two maps compose to the identity on an inner point.
	x, y := m.Then(inv).Apply(37, 41)
	if math.Hypot(x-37, y-41) > 1e-6 {
		t.Errorf("m then its reverse maps (37, 41) to (%v, %v)", x, y)
	}
}

func TestFromQuadDegenerate(t *testing.T) {
	collinear := [4]Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}}
	sq := [4]Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	if _, err := FromQuad(collinear, sq); !errors.Is(err, ErrDegenerate) {
		t.Fatalf("got %v, want ErrDegenerate", err)
	}
}

func TestAffineRotates(t *testing.T) {
	x, y := Affine(math.Pi/2, 2, 5, 7).Apply(1, 0)
	if math.Hypot(x-5, y-9) > 1e-9 {
		t.Fatalf("got (%v, %v), want (5, 9)", x, y)
	}
}

func TestResizeKeepsMeanAndSize(t *testing.T) {
	g := New(101, 67, 0)
	for y := 0; y < 67; y++ {
		for x := 0; x < 101; x++ {
			if (x/3+y/5)%2 == 0 {
				g.Pix[y*g.Stride+x] = 200
			}
		}
	}
	mean := func(img []uint8) float64 {
		s := 0.0
		for _, v := range img {
			s += float64(v)
		}
		return s / float64(len(img))
	}
	small := Resize(g, 40, 27)
	if small.Rect.Dx() != 40 || small.Rect.Dy() != 27 {
		t.Fatalf("size %v", small.Rect)
	}
	if d := math.Abs(mean(small.Pix) - mean(g.Pix)); d > 2 {
		t.Errorf("area shrink moved the mean by %.2f", d)
	}
	big := Resize(g, 202, 134)
	if d := math.Abs(mean(big.Pix) - mean(g.Pix)); d > 3 {
		t.Errorf("upscale moved the mean by %.2f", d)
	}
}

func TestGaussianBlurKeepsFlatAndSmoothsEdge(t *testing.T) {
	g := New(40, 10, 0)
	for y := 0; y < 10; y++ {
		for x := 20; x < 40; x++ {
			g.Pix[y*g.Stride+x] = 255
		}
	}
	b := GaussianBlur(g, 1.5)
	if b.Pix[5*b.Stride+2] != 0 || b.Pix[5*b.Stride+37] != 255 {
		t.Errorf("flat areas changed: %d %d", b.Pix[5*b.Stride+2], b.Pix[5*b.Stride+37])
	}
	if v := b.Pix[5*b.Stride+19]; v == 0 || v >= 128 {
		t.Errorf("pixel left of the edge is %d, want a partial value below 128", v)
	}
	if v := b.Pix[5*b.Stride+20]; v <= 128 || v == 255 {
		t.Errorf("pixel right of the edge is %d, want a partial value above 128", v)
	}
}

func TestBilinear(t *testing.T) {
	g := New(2, 1, 0)
	g.Pix[1] = 100
	if v := Bilinear(g, 0.25, 0, 9); math.Abs(v-25) > 1e-9 {
		t.Errorf("got %v, want 25", v)
	}
	if v := Bilinear(g, 5, 0, 9); v != 9 {
		t.Errorf("outside: got %v, want background 9", v)
	}
	if v := Bilinear(g, math.NaN(), 0, 9); v != 9 {
		t.Errorf("NaN: got %v, want background 9", v)
	}
}

func TestShrinkAveragesBlocks(t *testing.T) {
	g := New(7, 5, 0)
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 3)
	}
	s := Shrink(g, 2)
	if s.Rect.Dx() != 3 || s.Rect.Dy() != 2 {
		t.Fatalf("size %v, want 3x2", s.Rect)
	}
	// Block (1,1) covers pixels (2..3, 2..3).
	want := (int(g.Pix[2*7+2]) + int(g.Pix[2*7+3]) + int(g.Pix[3*7+2]) + int(g.Pix[3*7+3]) + 2) / 4
	if got := int(s.Pix[1*s.Stride+1]); got != want {
		t.Fatalf("block (1,1) = %d, want %d", got, want)
	}
	if c := Shrink(g, 1); c.Rect != g.Rect || c.Pix[9] != g.Pix[9] {
		t.Fatal("factor 1 must copy")
	}
}

// gaussianBlurPerPixel is GaussianBlur as first written, a loop per pixel
// with clamped indices: the reference its faster form must match (for a
// sigma above 0 on a non-empty image, where both blur).
func gaussianBlurPerPixel(g *image.Gray, sigma float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	k, tmp := GaussianKernel[float64](sigma, 3), make([]float64, w*h)
	r := len(k) / 2
	for y := 0; y < h; y++ {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := 0; x < w; x++ {
			var acc float64
			for i, kv := range k {
				acc += float64(row[clamp(x+i-r, 0, w-1)]) * kv
			}
			tmp[y*w+x] = acc
		}
	}
	dst := New(w, h, 0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc float64
			for i, kv := range k {
				acc += tmp[clamp(y+i-r, 0, h-1)*w+x] * kv
			}
			dst.Pix[y*dst.Stride+x] = Clamp8(acc)
		}
	}
	return dst
}

// GaussianBlur gives the per-pixel loop's image to the bit, on noise and
// on bars, images narrower and shorter than the kernel included, and on
// a sub-image whose stride is wider than its rows: the synthetic photos
// the tests of pdf417 and mrz check are made with it.
func TestGaussianBlurMatchesPerPixelLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, size := range [][2]int{{1, 1}, {3, 2}, {7, 40}, {64, 5}, {203, 117}} {
		for _, sigma := range []float64{0.3, 0.8, 1.2, 2.07, 4.3, 11} {
			g := New(size[0], size[1], 0)
			for i := range g.Pix {
				if size[0] > 50 && (i%size[0])/4%2 == 0 {
					g.Pix[i] = uint8(200 + rng.IntN(56)) // bars
				} else {
					g.Pix[i] = uint8(rng.IntN(256))
				}
			}
			want, got := gaussianBlurPerPixel(g, sigma), GaussianBlur(g, sigma)
			if !bytes.Equal(got.Pix, want.Pix) || got.Rect != want.Rect {
				t.Errorf("%dx%d, sigma %v: differs from the per-pixel loop", size[0], size[1], sigma)
			}
		}
	}
	wide := New(50, 30, 0)
	for i := range wide.Pix {
		wide.Pix[i] = uint8(rng.IntN(256))
	}
	sub := wide.SubImage(image.Rect(0, 0, 31, 30)).(*image.Gray)
	if got, want := GaussianBlur(sub, 1.7), gaussianBlurPerPixel(sub, 1.7); !bytes.Equal(got.Pix, want.Pix) {
		t.Error("a sub-image with a wider stride: differs from the per-pixel loop")
	}
}

func BenchmarkGaussianBlur(b *testing.B) {
	g := New(4000, 3000, 0)
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 7919 % 251)
	}
	for _, f := range []struct {
		name string
		blur func(*image.Gray, float64) *image.Gray
	}{{"separable-rows", GaussianBlur}, {"per-pixel", gaussianBlurPerPixel}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.blur(g, 1.5)
			}
		})
	}
}
