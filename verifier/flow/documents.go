package flow

import (
	"fmt"
	"slices"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/license"
)

// DocumentKind is one kind of identity document as the flow captures it:
// its steps, in the order the page shows them (liveness follows), and how
// what those steps kept on the session becomes a Capture. Submit, the face
// match, completion, the address and IP checks and the result read only
// the Capture and its verifier.Document, so another kind (a passport: one
// step, the data page read with its machine-readable zone) is its step's
// handler and session member, its reader behind verifier.Document, and a
// DocumentKind (docs/documents.md).
type DocumentKind struct {
	Name  verifier.DocumentKind
	Steps []Step
	// capture is what the session's passed steps of this kind hold; a
	// step not passed contributes nothing.
	capture func(s *Session) Capture
}

// Capture is a document as the flow captured it.
type Capture struct {
	// Document is the document as read; nil until its data was read (the
	// license's barcode).
	Document verifier.Document
	// Evidence are the license_appears_real inputs the steps provided.
	Evidence verifier.DocumentEvidence
	// Headshot is the document's portrait cropped (JPEG, at most 400 px)
	// and Portrait its face descriptor, which the selfie is matched
	// against; nil when no portrait was found.
	Headshot []byte
	Portrait []float32
	// Printed is what OCR read on the document's printed personal-data
	// zone (front_barcode_match); nil when the option was not requested.
	Printed *license.Printed
}

// DriversLicense is the driver's license and state ID card: the front
// photo (the card, its portrait and, when asked, its printed zone), then
// the PDF417 barcode on the back.
var DriversLicense = DocumentKind{Name: verifier.DriversLicense, Steps: []Step{StepLicenseFront, StepLicenseBack},
	capture: captureLicense}

func captureLicense(s *Session) Capture {
	var c Capture
	if f := s.Front; f != nil {
		c.Evidence = verifier.DocumentEvidence{CardFound: f.CardFound, ProportionsOK: f.ProportionsOK, FacePresent: f.FacePresent}
		c.Headshot, c.Portrait, c.Printed = f.Headshot, f.Portrait, f.Printed
	}
	if s.Back != nil {
		c.Document, c.Evidence.BarcodeValid = s.Back.License, true
	}
	return c
}

// Passport is the passport (ICAO 9303 TD3): one photo of its data page,
// which gives the page's checks, the portrait and the machine-readable
// zone together.
var Passport = DocumentKind{Name: verifier.Passport, Steps: []Step{StepPassportPage}, capture: capturePassport}

// capturePassport: the page found stands where the license's card does,
// the zone's check digits and its place on the page where its barcode's
// structure does (as the ID card's back), and the
// visual inspection zone read where the front's printed zone does: the
// zone is what front_barcode_match compares it with (docs/documents.md).
func capturePassport(s *Session) Capture {
	var c Capture
	if p := s.Passport; p != nil {
		c.Evidence = verifier.DocumentEvidence{CardFound: p.PageFound, ProportionsOK: p.ProportionsOK, FacePresent: p.FacePresent,
			BarcodeValid: p.Document != nil && !p.ZoneOutOfPlace}
		c.Headshot, c.Portrait, c.Printed = p.Headshot, p.Portrait, p.Printed
		if p.Document != nil {
			c.Document = *p.Document
		}
	}
	return c
}

// Kinds are every kind the flow captures: verifier.AvailableDocuments, the
// kinds a verification may accept, names exactly these (a test holds them
// equal).
var Kinds = []DocumentKind{DriversLicense, Passport, IDCard}

// Steps are a license link's steps in order, without the phone.
var Steps = append(slices.Clone(DriversLicense.Steps), StepLiveness)

// kind is the kind whose steps the session captured: the kind its
// document member names (set by the end user's pick and by the first
// document step passed), the driver's license when none (every session
// stored before the member). A session whose document steps have not
// passed captures nothing, whatever its kind.
func (s *Session) kind() DocumentKind {
	if s.Document == "" {
		return DriversLicense
	}
	return kindOf(s.Document)
}

// kindOf is the flow's kind of that name; a kind this version does not
// capture (named by a session or verification a newer version wrote) is
// its name with no steps, capturing nothing.
func kindOf(name verifier.DocumentKind) DocumentKind {
	for _, k := range Kinds {
		if k.Name == name {
			return k
		}
	}
	return DocumentKind{Name: name, capture: func(*Session) Capture { return Capture{} }}
}

// kindOfStep is the kind a document step belongs to; false for liveness
// and the phone, which every kind shares.
func kindOfStep(step Step) (DocumentKind, bool) {
	for _, k := range Kinds {
		if slices.Contains(k.Steps, step) {
			return k, true
		}
	}
	return DocumentKind{}, false
}

// chosen is the session's document kind on a link accepting accepted (in
// order): the end user's pick; on a link accepting one kind, that kind,
// which needs no pick (every session stored before the pick existed is a
// license link's, so it reads as drivers_license). False while a link
// accepting several has no pick; then k is the first accepted, the kind
// whose steps the page lists and the result names (docs/documents.md).
func (s *Session) chosen(accepted []verifier.DocumentKind) (DocumentKind, bool) {
	if s.Document != "" {
		return s.kind(), true
	}
	return kindOf(accepted[0]), len(accepted) == 1
}

// documentStepPassed reports whether any document step has passed, which
// fixes the session's kind.
func (s *Session) documentStepPassed() bool {
	for _, k := range Kinds {
		for _, st := range k.Steps {
			if s.Done(st) {
				return true
			}
		}
	}
	return false
}

// steps are the link's steps in order: the session's document's (while a
// link accepting several kinds has no pick, the first accepted kind's),
// liveness, and the phone when offered.
func (f *Flow) steps(v verifier.Verification, s *Session) ([]Step, error) {
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return nil, fmt.Errorf("steps: %w", err)
	}
	k, _ := s.chosen(st.Documents())
	steps := append(slices.Clone(k.Steps), StepLiveness)
	if f.phoneOffered(v) {
		steps = append(steps, StepPhone)
	}
	return steps, nil
}

// capture is the document the session's steps captured.
func (s *Session) capture() Capture { return s.kind().capture(s) }

// outcome is the document's part of the verification outcome of s on a
// link accepting accepted: what its steps captured, under the kind's name.
func (s *Session) outcome(accepted []verifier.DocumentKind) verifier.Outcome {
	o := s.capture().outcome()
	k, _ := s.chosen(accepted)
	o.DocumentType = k.Name
	return o
}

// outcome is the document's part of the verification outcome.
func (c Capture) outcome() verifier.Outcome {
	return verifier.Outcome{License: c.Document, Document: c.Evidence, LicensePhoto: c.Headshot, FrontPrinted: c.Printed}
}
