// Package faceengine fills card.FaceFinder with the face engine
// (verifier/face): faces on a corrected license card, confirmed by the
// landmark mesh.
package faceengine

import (
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
)

// Finder runs one face.Analyzer, so like the analyzer it serves one
// goroutine at a time. It keeps the engine's faces of the last searches
// (as many as card.FindPortrait makes on one card), so the portrait's
// descriptor is read from the search that found it (Face) rather than
// computed again.
type Finder struct {
	an   *face.Analyzer
	last []search
}

type search struct {
	img   image.Image
	faces []face.Face
}

// New wraps an analyzer.
func New(an *face.Analyzer) *Finder { return &Finder{an: an} }

// FindFaces runs the engine on img and returns its confirmed faces, largest
// first.
func (f *Finder) FindFaces(img image.Image) ([]card.Face, error) {
	found, err := f.an.Analyze(imgio.ToTensor(img))
	if err != nil {
		return nil, fmt.Errorf("find faces: %w", err)
	}
	if len(f.last) == len(card.Orientations) {
		f.last = f.last[1:]
	}
	f.last = append(f.last, search{img, found})
	out := make([]card.Face, len(found))
	for i, fc := range found {
		out[i] = cardFace(fc, img.Bounds())
	}
	return out, nil
}

// Face returns the engine's face (with its descriptor) that FindFaces
// reported as c on img, one of the last searched images (a Portrait's
// Upright and Face).
func (f *Finder) Face(img image.Image, c card.Face) (face.Face, bool) {
	for _, s := range f.last {
		if s.img != img {
			continue
		}
		for _, fc := range s.faces {
			if cardFace(fc, img.Bounds()) == c {
				return fc, true
			}
		}
	}
	return face.Face{}, false
}

// cardFace is an engine face as a card face on an image with bounds b.
func cardFace(fc face.Face, b image.Rectangle) card.Face {
	x, y, w, h := fc.Box[0], fc.Box[1], fc.Box[2], fc.Box[3]
	return card.Face{Box: image.Rect(x, y, x+w, y+h).Add(b.Min), Size: fc.Size, Score: fc.MeshScore}
}
