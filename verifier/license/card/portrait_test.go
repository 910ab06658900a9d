package card_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
)

// markerFinder stands in for the face engine to test the orientation
// search on its own. A red pixel at one corner is the face: at the
// top-left it is upright and full size; at the other corners it is a
// partial fit of a turned face, smaller the further it is turned, as the
// engine confirms some upside-down faces. The real engine is tested on
// real faces in package faceengine.
type markerFinder struct {
	size  float64
	calls int
}

func (m *markerFinder) FindFaces(img image.Image) ([]card.Face, error) {
	m.calls++
	b := img.Bounds()
	corners := []image.Point{b.Min, {b.Max.X - 1, b.Min.Y}, b.Max.Sub(image.Pt(1, 1)), {b.Min.X, b.Max.Y - 1}}
	for i, c := range corners {
		if r, g, _, _ := img.At(c.X, c.Y).RGBA(); r>>8 == 255 && g == 0 {
			return []card.Face{{Box: image.Rect(10, 20, 110, 120), Size: m.size / float64(1+i), Score: 0.9}}, nil
		}
	}
	return nil, nil
}

type failingFinder struct{}

func (failingFinder) FindFaces(image.Image) ([]card.Face, error) {
	return nil, errors.New("engine broke")
}

// cardWithMarker is a blank corrected card with the red marker at one
// corner; the orientation that brings it to the top-left is the card's.
func cardWithMarker(corner image.Point) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, card.Width, card.Height))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.SetRGBA(corner.X, corner.Y, color.RGBA{255, 0, 0, 255})
	return img
}

func TestFindPortraitOrientation(t *testing.T) {
	big := card.MinPortraitFace*card.Height + 1
	for _, tc := range []struct {
		corner       image.Point
		wantRotation int
		wantW        int
	}{
		{image.Pt(0, 0), 0, card.Width},
		{image.Pt(card.Width-1, card.Height-1), 180, card.Width},
		{image.Pt(0, card.Height-1), 90, card.Height}, // turned clockwise, bottom-left comes to the top-left
		{image.Pt(card.Width-1, 0), 270, card.Height}, // turned counter-clockwise, top-right does
	} {
		f := &markerFinder{size: big}
		p, err := card.FindPortrait(cardWithMarker(tc.corner), f)
		if err != nil {
			t.Fatalf("marker at %v: %v", tc.corner, err)
		}
		if p.Rotation != tc.wantRotation || p.Upright.Rect.Dx() != tc.wantW || p.Upright.RGBAAt(0, 0).R != 255 {
			t.Errorf("marker at %v: rotation %d, upright %v, want %d", tc.corner, p.Rotation, p.Upright.Rect, tc.wantRotation)
		}
	}
	// A face below MinPortraitFace is no portrait, in any orientation.
	f := &markerFinder{size: card.MinPortraitFace*card.Height - 1}
	if _, err := card.FindPortrait(cardWithMarker(image.Pt(0, 0)), f); !errors.Is(err, card.ErrNoPortrait) || f.calls != 4 {
		t.Errorf("small face: %v after %d orientations", err, f.calls)
	}
	if _, err := card.FindPortrait(nil, f); !errors.Is(err, card.ErrNoPortrait) {
		t.Errorf("nil card: %v", err)
	}
	// An engine failure is not a verdict: it is passed on.
	if _, err := card.FindPortrait(cardWithMarker(image.Pt(0, 0)), failingFinder{}); err == nil || errors.Is(err, card.ErrNoPortrait) {
		t.Errorf("engine failure: %v", err)
	}
}

func TestHeadshotCrop(t *testing.T) {
	upright := cardWithMarker(image.Pt(0, 0))
	for _, tc := range []struct {
		name string
		box  image.Rectangle
		want image.Point // the JPEG's size
	}{
		// 100 px box + 40 px each side, inside the card: kept at card resolution.
		{"small face", image.Rect(300, 200, 400, 300), image.Pt(180, 180)},
		// 300 px box + 120 px: 540 px, scaled to HeadshotMaxSide.
		{"large face", image.Rect(200, 120, 500, 420), image.Pt(card.HeadshotMaxSide, card.HeadshotMaxSide)},
		// Clipped by the card's top-left corner: 20+100+40 by 10+100+40.
		{"at the edge", image.Rect(20, 10, 120, 110), image.Pt(160, 150)},
	} {
		jpg, err := card.Headshot(card.Portrait{Face: card.Face{Box: tc.box}, Upright: upright})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(jpg))
		if err != nil {
			t.Fatalf("%s: not a JPEG: %v", tc.name, err)
		}
		if cfg.Width != tc.want.X || cfg.Height != tc.want.Y {
			t.Errorf("%s: %dx%d, want %v", tc.name, cfg.Width, cfg.Height, tc.want)
		}
	}
	for name, p := range map[string]card.Portrait{
		"no card":  {Face: card.Face{Box: image.Rect(0, 0, 10, 10)}},
		"no box":   {Upright: upright},
		"off card": {Face: card.Face{Box: image.Rect(2000, 2000, 2100, 2100)}, Upright: upright},
	} {
		if _, err := card.Headshot(p); !errors.Is(err, card.ErrNoHeadshot) {
			t.Errorf("%s: %v, want ErrNoHeadshot", name, err)
		}
	}
}
