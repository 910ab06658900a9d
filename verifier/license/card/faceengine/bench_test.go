package faceengine_test

import (
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// benchPhoto renders a 12 MP (4000×3000) license-front photo, the card
// filling about half the frame's width, tilted 7°.
func benchPhoto(b *testing.B, face image.Image) *image.RGBA {
	b.Helper()
	img, _ := cardtest.Scene{FrameW: 4000, CardW: 2200, Aspect: card.ID1Aspect, RotationDeg: 7, Face: face, Seed: 1}.Render()
	return img
}

// BenchmarkFront times the front's steps on a 12 MP photo: finding and
// correcting the card, the portrait search in four orientations (on a
// card with a face, where confirmed faces also get descriptors, and on a
// face-less one) and the crop.
func BenchmarkFront(b *testing.B) {
	f := newFinder(b)
	withFace := benchPhoto(b, labeledFace(b, "amy1"))
	faceless := benchPhoto(b, nil)
	c, err := card.AnalyzeFront(withFace)
	if err != nil {
		b.Fatal(err)
	}
	p, err := card.FindPortrait(c.Image, f)
	if err != nil {
		b.Fatal(err)
	}
	blank, err := card.AnalyzeFront(faceless)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("analyze-card-12MP", func(b *testing.B) {
		for b.Loop() {
			if _, err := card.AnalyzeFront(withFace); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("portrait-found", func(b *testing.B) {
		for b.Loop() {
			if _, err := card.FindPortrait(c.Image, f); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("portrait-none", func(b *testing.B) {
		for b.Loop() {
			if _, err := card.FindPortrait(blank.Image, f); err == nil {
				b.Fatal("a portrait on a face-less card")
			}
		}
	})
	b.Run("headshot", func(b *testing.B) {
		for b.Loop() {
			if _, err := card.Headshot(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
