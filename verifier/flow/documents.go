package flow

import (
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

// Kinds are every kind the flow captures: verifier.AvailableDocuments, the
// kinds a verification may accept, names exactly these (a test holds them
// equal).
var Kinds = []DocumentKind{DriversLicense}

// Steps are a license link's steps in order, without the phone.
var Steps = append(slices.Clone(DriversLicense.Steps), StepLiveness)

// kind is the session's document kind: the driver's license, the one kind
// the flow captures so far. With a second kind, the end user's pick among
// the verification's accepted_documents becomes a session member
// (docs/documents.md), absent on every session stored before it.
func (s *Session) kind() DocumentKind { return DriversLicense }

// capture is the document the session's steps captured.
func (s *Session) capture() Capture { return s.kind().capture(s) }

// outcome is the document's part of the verification outcome.
func (c Capture) outcome() verifier.Outcome {
	return verifier.Outcome{License: c.Document, Document: c.Evidence, LicensePhoto: c.Headshot, FrontPrinted: c.Printed}
}
