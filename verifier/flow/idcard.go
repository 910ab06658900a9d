package flow

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/mrz"
)

// IDCardBackDone is an accepted back of an ID card: the card found around
// its zone, and the zone read with every check digit holding.
type IDCardBackDone struct {
	CardFound     bool `json:"card_found"`
	ProportionsOK bool `json:"proportions_ok"`
	// ZoneInPlace: the zone stands where TD1 puts it on the card found.
	ZoneInPlace bool `json:"zone_in_place"`
	// Document is the zone as read, with the day it was read (which
	// decides its years' centuries).
	Document *mrz.Document `json:"document,omitempty"`
}

// IDCardBackAnswer is the answer to an accepted ID card back. Like the
// license's, it says nothing of what the zone holds.
type IDCardBackAnswer struct {
	Accepted bool             `json:"accepted"`
	Checks   IDCardBackChecks `json:"checks"`
}

// IDCardBackChecks are the checks the back passed (license_appears_real's
// inputs from the back): the card, its ID-1 proportions, the zone's check
// digits.
type IDCardBackChecks struct {
	CardFound     bool `json:"card_found"`
	ProportionsOK bool `json:"proportions_ok"`
	MRZValid      bool `json:"mrz_valid"`
}

// IDCardFront judges a photo of the front of an ID card with a
// machine-readable zone: the card and its portrait, as a license front is
// (Engines.Front), and, when front_barcode_match was asked, its printed
// fields, read under their captions as a data page's visual inspection
// zone (Engines.IDCardFrontPrinted) and compared with the back's zone
// when the verification completes. The photo is kept for manual review
// under its own name.
func (f *Flow) IDCardFront(ctx context.Context, token string, image []byte) (FrontAnswer, error) {
	return f.cardFront(ctx, token, StepIDCardFront, ReviewIDCardFront, image, f.Engines.IDCardFrontPrinted,
		func(s *Session, d *FrontDone) { s.IDCardFront = d })
}

// IDCardBack reads a photo of the back of an ID card (ICAO 9303 TD1: the
// card and its 3 × 30 zone). Problems the user can fix (a specimen's zone
// included) are a *ProblemsError; an accepted back replaces any earlier
// one and records the client IP (for IP intelligence, as the license's
// barcode step does). An expired card is accepted: expiry is a result
// field.
func (f *Flow) IDCardBack(ctx context.Context, token string, image []byte, clientIP string) (IDCardBackAnswer, error) {
	var out IDCardBackAnswer
	err := f.upload(ctx, token, StepIDCardBack, image, &out, func(verifier.Verification) (func(*Session), []Problem, any, error) {
		rep, err := f.Engines.IDCardBack(ctx, image)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("id card back: %w", err)
		}
		if len(rep.Problems) > 0 {
			return nil, rep.Problems, nil, nil
		}
		if rep.Document == nil {
			return nil, nil, nil, fmt.Errorf("id card back: accepted without its zone")
		}
		done := &IDCardBackDone{CardFound: rep.CardFound, ProportionsOK: rep.ProportionsOK, ZoneInPlace: rep.ZoneInPlace, Document: rep.Document}
		return func(s *Session) { s.IDCardBack, s.BackIP = done, clientIP }, nil, IDCardBackAnswer{Accepted: true,
			Checks: IDCardBackChecks{CardFound: rep.CardFound, ProportionsOK: rep.ProportionsOK, MRZValid: true}}, nil
	})
	return out, err
}

// IDCard is the ID card with a machine-readable zone (ICAO 9303 TD1: a
// passport card, a national ID card): its front with the portrait, then
// its back with the zone.
var IDCard = DocumentKind{Name: verifier.IDCard, Steps: []Step{StepIDCardFront, StepIDCardBack}, capture: captureIDCard}

// captureIDCard: the card is found and of ID-1's proportions when both of
// its sides were; the face and the printed fields (front_barcode_match,
// against the zone) are the front's, and the zone's check digits with its
// place on the card stand where the license's barcode structure does
// (docs/documents.md).
func captureIDCard(s *Session) Capture {
	var c Capture
	fr, bk := s.IDCardFront, s.IDCardBack
	if fr != nil {
		c.Evidence.FacePresent = fr.FacePresent
		c.Headshot, c.Portrait, c.Printed = fr.Headshot, fr.Portrait, fr.Printed
	}
	if fr != nil && bk != nil {
		c.Evidence.CardFound = fr.CardFound && bk.CardFound
		c.Evidence.ProportionsOK = fr.ProportionsOK && bk.ProportionsOK
	}
	if bk != nil && bk.Document != nil {
		c.Document = *bk.Document
		c.Evidence.BarcodeValid = bk.ZoneInPlace
	}
	return c
}
