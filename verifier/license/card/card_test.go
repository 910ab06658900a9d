package card_test

import (
	"errors"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Each found corner must lie within 1% of the card's width of the true one.
func assertCorners(t *testing.T, name string, got [4]image.Point, want [4]raster.Point, CardW float64) {
	t.Helper()
	for i := range got {
		if d := math.Hypot(float64(got[i].X)-want[i].X, float64(got[i].Y)-want[i].Y); d > 0.01*CardW {
			t.Errorf("%s: corner %d at %v, want %.0f,%.0f (off by %.1f px)", name, i, got[i], want[i].X, want[i].Y, d)
		}
	}
}

// assertCornersWithin is assertCorners within tol of the card's width and
// in any rotation of the order: which way up a card of a rounded design
// lies is the portrait's call, not the finder's.
func assertCornersWithin(t *testing.T, name string, got [4]image.Point, want [4]raster.Point, cardW, tol float64) {
	t.Helper()
	worst := math.Inf(1)
	for shift := range 4 {
		w := 0.0
		for i, p := range got {
			q := want[(i+shift)%4]
			w = max(w, math.Hypot(float64(p.X)-q.X, float64(p.Y)-q.Y))
		}
		worst = min(worst, w)
	}
	if worst > tol*cardW {
		t.Errorf("%s: corners %v, want %.0f (a corner off by %.1f%% of the card's width)", name, got, want, 100*worst/cardW)
	}
}

func TestAnalyzeFrontFindsTheCard(t *testing.T) {
	cases := []struct {
		name string
		s    cardtest.Scene
	}{
		{"level", cardtest.Scene{RotationDeg: 0}},
		{"rotated 12°", cardtest.Scene{RotationDeg: 12}},
		{"rotated -30°", cardtest.Scene{RotationDeg: -30}},
		{"Keystone", cardtest.Scene{Keystone: 0.08, RotationDeg: 5}},
		{"slightly soft", cardtest.Scene{Blur: 0.8, RotationDeg: -7}},
	}
	for i, tc := range cases {
		s := tc.s
		s.FrameW, s.CardW, s.Aspect, s.Seed = 1600, 1000, card.ID1Aspect, uint64(i)
		img, want := s.Render()
		c, err := card.AnalyzeFront(img)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		assertCorners(t, tc.name, c.Corners, want, s.CardW)
		tolerance := 0.02
		if s.Keystone > 0 {
			tolerance = card.AspectTolerance // perspective shortens the far side
		}
		if math.Abs(c.Aspect/card.ID1Aspect-1) > tolerance || !c.AspectOK {
			t.Errorf("%s: aspect %.3f (ok %v), want %.3f", tc.name, c.Aspect, c.AspectOK, card.ID1Aspect)
		}
		if c.Sharpness < card.MinSharpness || c.Glare > 0.01 {
			t.Errorf("%s: sharpness %.3f glare %.3f", tc.name, c.Sharpness, c.Glare)
		}
		if c.Coverage < 0.2 || c.Coverage > 0.4 {
			t.Errorf("%s: coverage %.2f, want about 0.28", tc.name, c.Coverage)
		}
		assertUpright(t, tc.name, c.Image)
	}
}

// assertUpright checks the corrected card against the printed layout: the
// portrait's dark ground at its place, light card stock to its right.
func assertUpright(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	if img.Rect.Dx() != card.Width || img.Rect.Dy() != card.Height {
		t.Fatalf("%s: corrected card is %v", name, img.Rect)
	}
	mean := func(r image.Rectangle) float64 {
		var s, n float64
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := img.RGBAAt(x, y)
				s += float64(c.R) + float64(c.G) + float64(c.B)
				n += 3
			}
		}
		return s / n
	}
	// The portrait's grey frame (outside the face oval) and a blank strip
	// of card under the text block.
	frame := image.Rect(cardtest.Portrait.Min.X+10, cardtest.Portrait.Max.Y-40, cardtest.Portrait.Min.X+40, cardtest.Portrait.Max.Y-10)
	blank := image.Rect(400, 505, 800, 530)
	if m := mean(frame); m > 130 {
		t.Errorf("%s: portrait frame mean %.0f, want dark", name, m)
	}
	if m := mean(blank); m < 200 {
		t.Errorf("%s: blank card mean %.0f, want light", name, m)
	}
}

// Held in portrait orientation, the card comes out with its long side
// horizontal all the same.
func TestAnalyzeFrontPortraitOrientation(t *testing.T) {
	s := cardtest.Scene{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, RotationDeg: 88, Seed: 9}
	img, want := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil {
		t.Fatal(err)
	}
	assertCorners(t, "portrait", c.Corners, want, s.CardW)
	assertUpright(t, "portrait", c.Image)
}

func TestAnalyzeFrontWrongProportions(t *testing.T) {
	// A badge-shaped card (5:4) is found but fails the ID-1 test.
	s := cardtest.Scene{FrameW: 1600, CardW: 900, Aspect: 1.25, RotationDeg: 6, Seed: 3}
	img, _ := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil {
		t.Fatal(err)
	}
	if c.AspectOK || math.Abs(c.Aspect-1.25) > 0.03 {
		t.Fatalf("aspect %.3f ok %v: want about 1.25, not ok", c.Aspect, c.AspectOK)
	}
}

func TestAnalyzeFrontErrors(t *testing.T) {
	NoCard, _ := cardtest.Scene{FrameW: 1200, NoCard: true, Aspect: card.ID1Aspect, CardW: 1, Seed: 4}.Render()
	small, _ := cardtest.Scene{FrameW: 1600, CardW: 380, Aspect: card.ID1Aspect, RotationDeg: 4, Seed: 5}.Render()
	blurred, _ := cardtest.Scene{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, RotationDeg: 4, Blur: 4, Seed: 6}.Render()
	for _, tc := range []struct {
		name string
		img  image.Image
		want error
	}{
		{"table only", NoCard, card.ErrNoCard},
		{"card far away", small, card.ErrCardTooSmall},
		{"defocused", blurred, card.ErrTooBlurred},
		{"nil", nil, card.ErrNoCard},
		{"tiny", image.NewGray(image.Rect(0, 0, 5, 5)), card.ErrNoCard},
		{"huge", hugeImage{}, card.ErrImageTooLarge},
	} {
		_, err := card.AnalyzeFront(tc.img)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// A hotspot on the card's edge lights the table beside it too; the card is
// found all the same, glare measured. The second scene is verifier/web's
// (cardguide_browser_test.go, "glare 1/9"), which the server's finder
// answered card_too_small (the portrait's frame) before oneSurround left
// the lit table out.
func TestAnalyzeFrontGlare(t *testing.T) {
	for _, s := range []cardtest.Scene{
		{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, RotationDeg: 3, Seed: 8, Glare: true},
		{FrameW: 1280, CardW: 0.62 * 1280, Aspect: card.ID1Aspect, RotationDeg: 3, Seed: 3, Glare: true},
	} {
		img, want := s.Render()
		c, err := card.AnalyzeFront(img)
		if err != nil {
			t.Errorf("card %.0f px in a %d px frame: %v", s.CardW, s.FrameW, err)
			continue
		}
		assertCornersWithin(t, "glare", c.Corners, want, s.CardW, 0.015)
		if c.Glare < 0.02 {
			t.Errorf("glare %.3f, want a visible share of washed-out card", c.Glare)
		}
	}
}

type hugeImage struct{}

func (hugeImage) ColorModel() color.Model { return color.GrayModel }
func (hugeImage) Bounds() image.Rectangle { return image.Rect(0, 0, 9000, 5000) }
func (hugeImage) At(x, y int) color.Color { panic("pixels read before the size check") }
