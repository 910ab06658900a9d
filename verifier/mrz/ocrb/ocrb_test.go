package ocrb

import (
	"image"
	"image/color"
	"testing"
)

// TestDraw: the Debian font loads, a line of the zone's characters draws
// ink in every character's cell, and the cap height is OCR-B's (about
// 0.7 of the pitch at ISO 1073-2 size 1: 2.4 mm caps at 2.54 mm).
func TestDraw(t *testing.T) {
	f, err := Load(DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.CapHeight(1); r < 0.6 || r > 1.0 {
		t.Errorf("cap height %.2f of the pitch", r)
	}
	const text, pitch = "P<UTO0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ<", 20.0
	img := image.NewGray(image.Rect(0, 0, int(pitch)*len(text), 40))
	if err := f.Draw(img, text, 0, 32, pitch, image.NewUniform(color.Gray{255})); err != nil {
		t.Fatal(err)
	}
	for i := range text {
		ink := 0
		for y := 0; y < 40; y++ {
			for x := i * int(pitch); x < (i+1)*int(pitch); x++ {
				ink += int(img.GrayAt(x, y).Y)
			}
		}
		if ink == 0 {
			t.Errorf("no ink for %q", text[i])
		}
	}
	if _, err := Load("/nonexistent.otf"); err == nil {
		t.Error("a missing font loads")
	}
}
