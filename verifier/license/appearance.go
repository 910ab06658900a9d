package license

import (
	"errors"
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/license/card"
)

// Evidence is what the license_appears_real verdict is decided from: the
// front photo's card and portrait, and the back photo's barcode. Its zero
// value is evidence of nothing, and decides false.
type Evidence struct {
	// Card and CardErr are card.AnalyzeFront's results on the front photo.
	Card    card.Card
	CardErr error
	// Portrait is card.FindPortrait's result on the corrected card; nil
	// when no portrait face was found or the card was not.
	Portrait *card.Portrait
	// Back is the license Scan read from the back photo; Scan returns one
	// only for a payload that passed ValidateStructure. Nil when none.
	Back *License
}

// ExamineFront fills the front's part of the evidence: the card in img
// and, when the card was corrected, its portrait through faces. Only a
// failure of the face engine itself is an error; a photo without a card
// or a card without a face is evidence, decided by Appearance.
func ExamineFront(img image.Image, faces card.FaceFinder) (Evidence, error) {
	var ev Evidence
	ev.Card, ev.CardErr = card.AnalyzeFront(img)
	if ev.Card.Image == nil {
		return ev, nil
	}
	p, err := card.FindPortrait(ev.Card.Image, faces)
	switch {
	case errors.Is(err, card.ErrNoPortrait):
		return ev, nil
	case err != nil:
		return ev, fmt.Errorf("examine front: %w", err)
	}
	ev.Portrait = &p
	return ev, nil
}

// Reason names one failed piece of license_appears_real.
type Reason string

// The reasons, in the order Appearance lists them.
const (
	ReasonNoCard       Reason = "no_card"         // no card-like quadrilateral in the front photo
	ReasonCardTooSmall Reason = "card_too_small"  // card.ErrCardTooSmall
	ReasonCardBlurred  Reason = "card_blurred"    // card.ErrTooBlurred
	ReasonAspect       Reason = "aspect_not_id1"  // outside card.AspectTolerance of ID-1
	ReasonNoPortrait   Reason = "no_portrait"     // no face of card.MinPortraitFace on the card
	ReasonNoBarcode    Reason = "barcode_invalid" // no back barcode that decoded and validated
)

// Appearance is the license_appears_real decision with its pieces.
type Appearance struct {
	// EdgesOK: the card's four edges were found in the front photo, the
	// card is large enough (card.MinCoverage, card.MinCardWidth) and its
	// corrected image sharp enough (card.MinSharpness).
	EdgesOK bool `json:"edges_ok"`
	// AspectOK: its measured proportions are ID-1's (1.586) within
	// card.AspectTolerance (±10%).
	AspectOK bool `json:"aspect_ok"`
	// FacePresent: the face engine found a portrait face of at least
	// card.MinPortraitFace of the card's short side, in some orientation.
	FacePresent bool `json:"face_present"`
	// BarcodeValid: the back's PDF417 decoded and passed ValidateStructure.
	BarcodeValid bool `json:"barcode_valid"`
	// Aspect, Sharpness and Glare are the card's measurements, reported
	// for review; glare does not decide (a reflection on a real card is
	// common) but explains a failed face or barcode.
	Aspect    float64 `json:"aspect"`
	Sharpness float64 `json:"sharpness"`
	Glare     float64 `json:"glare"`
	// Reasons lists every failed piece; empty exactly when Real.
	Reasons []Reason `json:"reasons"`
}

// Real is license_appears_real: every piece must hold (edges, aspect,
// face, barcode). One missing piece makes it false; nothing outweighs it.
func (a Appearance) Real() bool {
	return a.EdgesOK && a.AspectOK && a.FacePresent && a.BarcodeValid
}

// Appearance decides the pieces from the evidence.
func (e Evidence) Appearance() Appearance {
	a := Appearance{
		EdgesOK:      e.CardErr == nil && e.Card.Image != nil,
		AspectOK:     e.Card.AspectOK,
		FacePresent:  e.Portrait != nil,
		BarcodeValid: e.Back != nil,
		Aspect:       e.Card.Aspect,
		Sharpness:    e.Card.Sharpness,
		Glare:        e.Card.Glare,
		Reasons:      []Reason{},
	}
	switch {
	case a.EdgesOK:
	case errors.Is(e.CardErr, card.ErrCardTooSmall):
		a.Reasons = append(a.Reasons, ReasonCardTooSmall)
	case errors.Is(e.CardErr, card.ErrTooBlurred):
		a.Reasons = append(a.Reasons, ReasonCardBlurred)
	default:
		a.Reasons = append(a.Reasons, ReasonNoCard)
	}
	// Without a card there are no proportions to fault: no_card says it.
	if !a.AspectOK && e.Card.Aspect > 0 {
		a.Reasons = append(a.Reasons, ReasonAspect)
	}
	if !a.FacePresent {
		a.Reasons = append(a.Reasons, ReasonNoPortrait)
	}
	if !a.BarcodeValid {
		a.Reasons = append(a.Reasons, ReasonNoBarcode)
	}
	return a
}
