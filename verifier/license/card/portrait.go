package card

import (
	"errors"
	"fmt"
	"image"
)

// ErrNoPortrait means no face of at least MinPortraitFace was found on the
// corrected card in any of its four orientations.
var ErrNoPortrait = errors.New("card: no portrait face on the card")

// MinPortraitFace is the least size of the portrait's face, across its
// landmarks, as a share of the corrected card's short side: 0.15 × 540 =
// 81 px, 8 mm on the card. A US license portrait is about 25 × 32 mm with
// a face of 15–20 mm; the small "ghost" copy printed beside the text and
// faces on a background pattern stay below it.
const MinPortraitFace = 0.15

// MaxPortraitFace is the largest the portrait's face may be, as a share
// of the corrected card's short side: a face larger than a license
// portrait can be means the outline found is the portrait's block (its
// frame, its grey ground), not the card, warped out to a card's size. On
// the 80 rendered cards printed with the 40 labeled faces (cardtest,
// horizontal and vertical, warped from their true corners) the portrait
// measured 0.28–0.52, on the one real card with a portrait
// (testdata/cards iran/carpet.jpg, warped from the corners read by eye)
// 0.30; the same 80 cards warped from their portrait's block measured
// 0.92–1.24, and from the block with its margin and, on the vertical
// layout, a row of text (the outline a vertical light card on a white
// border had accepted wrong: TestAnalyzeFrontNearLightCard's seed 604)
// 0.81–1.16. 0.65 lies between, in ratio halfway from 0.52 to 0.81.
const MaxPortraitFace = 0.65

// ErrPortraitBlock means the face on the corrected card is larger than
// MaxPortraitFace: the outline was the portrait's block, not the card.
// It is an ErrNoCard: the card was not found.
var ErrPortraitBlock = fmt.Errorf("%w: the face fills the outline, the portrait's block taken for the card", ErrNoCard)

// MaxGhostSize bounds a ghost portrait's face against the portrait's, as
// face.DominantRatio bounds faces that do not count beside a subject
// (cardtest's ghosts, printed at 0.45 of the portrait's side, measured
// 0.37–0.43 of its face in the ghost tests).
const MaxGhostSize = 0.6

// Face is a face a FaceFinder found on a card image.
type Face struct {
	// Box is the face's square region in the searched image's pixels.
	Box image.Rectangle
	// Size is the face's extent across its landmarks, in pixels.
	Size float64
	// Score is the finder's confidence, 0..1.
	Score float32
}

// FaceFinder finds faces in an image, largest first. The face engine fills
// it (package faceengine); the card package itself knows no faces.
type FaceFinder interface {
	FindFaces(img image.Image) ([]Face, error)
}

// Portrait is the license photo's face on the corrected card.
type Portrait struct {
	// Face is the portrait's face (see FindPortrait), in Upright's pixels.
	Face Face
	// Ghost is the largest other face on the upright card at most
	// MaxGhostSize of Face's size and clear of it, nil when there is
	// none: the small "ghost" copy of the portrait many licenses print.
	// Whether it is the same person is for a descriptor to say.
	Ghost *Face
	// Rotation is how far, in degrees clockwise (0, 90, 180, 270), the
	// corrected card was turned for the face to stand upright: 180 for a
	// card photographed upside down, 90 or 270 for a vertical (under-21)
	// layout.
	Rotation int
	// Upright is the corrected card turned by Rotation.
	Upright *image.RGBA
}

// FindPortrait looks for the portrait on a corrected card (Card.Image)
// in all four orientations and keeps the face with the largest Size ×
// Score: AnalyzeFront does not decide which way up the card is (180° for
// a card photographed upside down, 90° or 270° for a vertical, under-21
// layout), and the face engine also "confirms" many faces upside down,
// fitting an upright face to part of one; a ghost copy of the portrait
// and small printed faces are smaller than the portrait itself. The
// portrait must reach MinPortraitFace (else ErrNoPortrait) and stay
// within MaxPortraitFace (else ErrPortraitBlock).
//
// Measured on the 40 labeled faces printed on a flat card with a ghost
// (cardtest: the ghost at 0.45 of the side, grey, faded) and turned 180°:
// the upright portrait was 237–282 px across at a mesh score of 1.00
// every time, its ghost (found on 38 cards) 80–107 px; the 43 upside-down
// fits (on 33 cards) were 74–208 px at 0.51–1.00, Size × Score at most
// 193. The largest face alone is not enough: on a photographed card
// (raj1, turned 181°) an upside-down fit reached 277 px at 0.54 (150)
// beside the upright portrait's 247 px at 1.00.
func FindPortrait(cardImg *image.RGBA, f FaceFinder) (Portrait, error) {
	if cardImg == nil {
		return Portrait{}, fmt.Errorf("find portrait: %w: no card image", ErrNoPortrait)
	}
	var best Portrait
	var bestFaces []Face // all faces found in best's orientation
	weight := func(fc Face) float64 { return fc.Size * float64(fc.Score) }
	for _, rot := range Orientations {
		img := rotate(cardImg, rot)
		faces, err := f.FindFaces(img)
		if err != nil {
			return Portrait{}, fmt.Errorf("find portrait at %d°: %w", rot, err)
		}
		for _, fc := range faces {
			if best.Upright == nil || weight(fc) > weight(best.Face) {
				best, bestFaces = Portrait{Face: fc, Rotation: rot, Upright: img}, faces
			}
		}
	}
	for i, fc := range bestFaces {
		if fc.Size <= MaxGhostSize*best.Face.Size && !fc.Box.Overlaps(best.Face.Box) && (best.Ghost == nil || fc.Size > best.Ghost.Size) {
			best.Ghost = &bestFaces[i]
		}
	}
	short := float64(min(cardImg.Rect.Dx(), cardImg.Rect.Dy()))
	switch {
	case best.Upright == nil:
		return Portrait{}, fmt.Errorf("find portrait: %w", ErrNoPortrait)
	case best.Face.Size < MinPortraitFace*short:
		return Portrait{}, fmt.Errorf("find portrait: face %.0f px across, need %.0f: %w", best.Face.Size, MinPortraitFace*short, ErrNoPortrait)
	case best.Face.Size > MaxPortraitFace*short:
		return Portrait{}, fmt.Errorf("find portrait: face %.0f px across, at most %.0f: %w", best.Face.Size, MaxPortraitFace*short, ErrPortraitBlock)
	}
	return best, nil
}

// Orientations are the turns, in degrees clockwise, FindPortrait searches
// the card in, in order.
var Orientations = []int{0, 180, 90, 270}

// rotate turns img clockwise by deg (a multiple of 90); 0 returns img.
func rotate(img *image.RGBA, deg int) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var out *image.RGBA
	var at func(x, y int) (int, int) // destination pixel → source pixel
	switch deg {
	case 90:
		out = image.NewRGBA(image.Rect(0, 0, h, w))
		at = func(x, y int) (int, int) { return y, h - 1 - x }
	case 180:
		out = image.NewRGBA(image.Rect(0, 0, w, h))
		at = func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 270:
		out = image.NewRGBA(image.Rect(0, 0, h, w))
		at = func(x, y int) (int, int) { return w - 1 - y, x }
	default:
		return img
	}
	ow, oh := out.Rect.Dx(), out.Rect.Dy()
	for y := 0; y < oh; y++ {
		for x := 0; x < ow; x++ {
			sx, sy := at(x, y)
			copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x, y)+4], img.Pix[img.PixOffset(img.Rect.Min.X+sx, img.Rect.Min.Y+sy):])
		}
	}
	return out
}
