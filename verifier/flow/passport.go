package flow

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// PassportDone is an accepted data page: the page and its portrait found,
// the zone read with every check digit holding.
type PassportDone struct {
	PageFound     bool      `json:"page_found"`
	ProportionsOK bool      `json:"proportions_ok"`
	FacePresent   bool      `json:"face_present"`
	Headshot      []byte    `json:"headshot,omitempty"`
	Portrait      []float32 `json:"portrait,omitempty"`
	// Document is the zone as read, with the day it was read (which
	// decides its years' centuries).
	Document *mrz.Document `json:"document,omitempty"`
	// ZoneOutOfPlace: the zone does not stand where TD3 puts it on the
	// page found (PassportReport.ZoneInPlace false), which makes the
	// zone's physical check fail as the ID card's does. Named for the
	// failure so that sessions stored before it, whose zone was not
	// judged for place, keep the evidence they had.
	ZoneOutOfPlace bool `json:"zone_out_of_place,omitempty"`
	// Printed is what OCR read in the visual inspection zone, compared
	// with the zone for front_barcode_match; nil when the option was not
	// requested.
	Printed *license.Printed `json:"printed,omitempty"`
}

// PassportAnswer is the answer to an accepted data page. Like the
// license's, it says nothing of what the zone holds.
type PassportAnswer struct {
	Accepted bool           `json:"accepted"`
	Checks   PassportChecks `json:"checks"`
}

// PassportChecks are the checks the data page passed (license_appears_real's
// inputs): the page, its TD3 proportions, a face on it, the zone's check
// digits.
type PassportChecks struct {
	PageFound     bool `json:"page_found"`
	ProportionsOK bool `json:"proportions_ok"`
	FacePresent   bool `json:"face_present"`
	MRZValid      bool `json:"mrz_valid"`
}

// PassportPage judges a photo of a passport's data page: the page, its
// portrait and its machine-readable zone in one step. Problems the user
// can fix (a specimen's zone included) are a *ProblemsError; an accepted
// page replaces any earlier one, keeps the photo, sealed, for manual
// review under its own name, and records the client IP (for IP
// intelligence, as the license's barcode step does). An expired passport
// is accepted: expiry is a result field.
func (f *Flow) PassportPage(ctx context.Context, token string, image []byte, clientIP string) (PassportAnswer, error) {
	var out PassportAnswer
	err := f.upload(ctx, token, StepPassportPage, image, &out, func(v verifier.Verification) (func(*Session), []Problem, any, error) {
		st, err := verifier.ParseSettings(v.Options)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("passport page: %w", err)
		}
		page := f.Engines.Passport
		if st.FrontBarcodeMatch {
			page = f.Engines.PassportPrinted
		}
		rep, err := page(ctx, image)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("passport page: %w", err)
		}
		if len(rep.Problems) > 0 {
			return nil, rep.Problems, nil, nil
		}
		if rep.Document == nil {
			return nil, nil, nil, fmt.Errorf("passport page: accepted without its zone")
		}
		done := &PassportDone{PageFound: rep.PageFound, ProportionsOK: rep.ProportionsOK, FacePresent: rep.FacePresent, ZoneOutOfPlace: !rep.ZoneInPlace,
			Headshot: rep.Headshot, Portrait: rep.Portrait, Document: rep.Document, Printed: rep.Printed}
		if err := f.keepForReview(ctx, v, ReviewPassportPage, image); err != nil {
			return nil, nil, nil, err
		}
		return func(s *Session) { s.Passport, s.BackIP = done, clientIP }, nil, PassportAnswer{Accepted: true,
			Checks: PassportChecks{PageFound: rep.PageFound, ProportionsOK: rep.ProportionsOK, FacePresent: rep.FacePresent, MRZValid: true}}, nil
	})
	return out, err
}
