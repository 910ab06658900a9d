package card

import (
	"image"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// SearchOutline is findQuad's four-sided search alone (outlineQuad),
// without the near card that may replace its answer: a test of a rule
// of that search renders a scene whose right answer the near card gives
// either way.
func SearchOutline(img image.Image) ([4]raster.Point, error) {
	wk := newWork(img)
	return wk.outlineQuad(img, wk.houghLines())
}

// FarOutline is farCard's outline in photo coordinates (corners in no
// card order), ok false when it finds none: "too small" answers are
// never warped, so a test of which outline answered needs it.
func FarOutline(img image.Image) ([4]raster.Point, bool) {
	wk := newWork(img)
	lines := wk.houghLines()
	wk.candidates(lines)
	q, ok := wk.farCard(lines)
	return wk.toPhoto(q), ok
}
