package card_test

import (
	"errors"
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
)

func FuzzAnalyzeFront(f *testing.F) {
	f.Add([]byte{40, 30, 0, 255})
	f.Add([]byte{127, 127, 20, 20, 20, 230, 230, 230, 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		w, h := int(data[0]%128)+1, int(data[1]%128)+1
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = data[2+i%(len(data)-2)]
		}
		analyzeFuzzed(t, img)
	})
}

// FuzzAnalyzeFrontColour feeds the outline search colour photos: the
// working copy, the colour gradient, the line search and the outline tests
// read every channel.
func FuzzAnalyzeFrontColour(f *testing.F) {
	f.Add([]byte{60, 40, 200, 30, 30, 230, 230, 230, 20, 90, 160})
	f.Add([]byte{17, 127, 0, 0, 0, 255, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		w, h := int(data[0]%128)+1, int(data[1]%128)+1
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = data[2+i%(len(data)-2)]
		}
		analyzeFuzzed(t, img)
	})
}

// analyzeFuzzed runs AnalyzeFront on a fuzzed photo: it must not panic,
// fail with one of the coded errors, or succeed with a corrected card.
func analyzeFuzzed(t *testing.T, img image.Image) {
	c, err := card.AnalyzeFront(img)
	if err != nil {
		if !errors.Is(err, card.ErrNoCard) && !errors.Is(err, card.ErrCardTooSmall) && !errors.Is(err, card.ErrTooBlurred) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		return
	}
	if c.Image == nil || c.Image.Rect.Dx() != card.Width {
		t.Fatalf("success without a corrected card: %+v", c)
	}
}
