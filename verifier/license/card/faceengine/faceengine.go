// Package faceengine fills card.FaceFinder with the face engine
// (verifier/face): faces on a corrected license card, confirmed by the
// landmark mesh.
package faceengine

import (
	"fmt"
	"image"
	"sync"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
)

// Finder is safe for concurrent use: each call borrows its own Analyzer,
// since an Analyzer holds per-goroutine buffers.
type Finder struct {
	analyzers sync.Pool
}

// New wraps a loaded engine.
func New(e *face.Engine) *Finder {
	return &Finder{analyzers: sync.Pool{New: func() any { return e.NewAnalyzer() }}}
}

// Load loads the engine from the verified model set in dir ("" = the
// default, see models.DefaultDir) with face.DefaultOptions.
func Load(dir string) (*Finder, error) {
	e, err := face.Load(dir, face.DefaultOptions)
	if err != nil {
		return nil, fmt.Errorf("load face finder: %w", err)
	}
	return New(e), nil
}

// FindFaces runs the engine on img and returns its confirmed faces, largest
// first.
func (f *Finder) FindFaces(img image.Image) ([]card.Face, error) {
	an := f.analyzers.Get().(*face.Analyzer)
	defer f.analyzers.Put(an)
	found, err := an.Analyze(imgio.ToTensor(img))
	if err != nil {
		return nil, fmt.Errorf("find faces: %w", err)
	}
	return CardFaces(found, img.Bounds()), nil
}

// CardFaces turns the engine's faces, found in an image with bounds b,
// into card faces (same order).
func CardFaces(found []face.Face, b image.Rectangle) []card.Face {
	out := make([]card.Face, len(found))
	for i, fc := range found {
		x, y, w, h := fc.Box[0], fc.Box[1], fc.Box[2], fc.Box[3]
		out[i] = card.Face{Box: image.Rect(x, y, x+w, y+h).Add(b.Min), Size: fc.Size, Score: fc.MeshScore}
	}
	return out
}
