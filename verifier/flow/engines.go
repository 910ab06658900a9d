package flow

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// ErrBusy: every engine worker stayed busy for the engines' bounded wait.
// The HTTP layer answers 503 with Retry-After; nothing was judged, so the
// same request may be sent again.
var ErrBusy = errors.New("engines busy")

// Engines is the barcode, card, face and liveness work of the flow.
// verifier/engines implements it: models loaded once, a bounded pool of
// workers, ErrBusy (wrapped) when none frees up in time. Bad images are
// not errors: they come back as Problems, so the user can retake them.
type Engines interface {
	// Front judges a photo of the license front (JPEG, PNG or WebP bytes).
	Front(ctx context.Context, image []byte) (FrontReport, error)
	// FrontPrinted is Front that also reads the front's printed
	// personal-data zone into FrontReport.Printed (front_barcode_match).
	FrontPrinted(ctx context.Context, image []byte) (FrontReport, error)
	// Back reads and validates the PDF417 barcode on a photo of the
	// license back.
	Back(ctx context.Context, image []byte) (BackReport, error)
	// Passport reads a photo of a passport's data page (ICAO 9303 TD3):
	// the page, its portrait and its machine-readable zone.
	Passport(ctx context.Context, image []byte) (PassportReport, error)
	// PassportPrinted is Passport that also reads the data page's visual
	// inspection zone into PassportReport.Printed (front_barcode_match).
	PassportPrinted(ctx context.Context, image []byte) (PassportReport, error)
	// IDCardFrontPrinted is Front that also reads the printed zone of an
	// ID card's front, its fields under captions as on a data page, into
	// FrontReport.Printed (front_barcode_match, against the back's zone).
	IDCardFrontPrinted(ctx context.Context, image []byte) (FrontReport, error)
	// IDCardBack reads a photo of the back of an ID card with a machine-readable
	// zone (ICAO 9303 TD1, 3 × 30): the card and its zone.
	IDCardBack(ctx context.Context, image []byte) (IDCardBackReport, error)
	// NewChallenge draws a liveness challenge (random step order from rnd,
	// crypto/rand when nil) issued at now, and the frame budget the client
	// must keep to.
	NewChallenge(rnd io.Reader, now time.Time) (liveness.Challenge, FrameBudget, error)
	// Liveness judges frames (in capture order) against ch at server time
	// now, and picks the selfie.
	Liveness(ctx context.Context, ch liveness.Challenge, frames []liveness.Frame, now time.Time) (LivenessReport, error)
	// Compare scores the license portrait against the selfie by their
	// face descriptors (no images needed, so it never waits for a worker).
	Compare(portrait, selfie []float32) (match.Result, error)
}

// Problem is one thing wrong with an image that the user can fix by
// retaking it. Code is stable (the API's details[].code); the flow owns
// the human sentences.
type Problem string

// Problem codes. Image problems apply to every upload.
const (
	ProblemImageUnsupported Problem = "image_unsupported" // not JPEG, PNG or WebP, or corrupt
	ProblemImageTooLarge    Problem = "image_too_large"   // over the byte or pixel bound

	ProblemCardNotFound Problem = "card_not_found"
	ProblemCardTooSmall Problem = "card_too_small"
	ProblemTooBlurry    Problem = "too_blurry"
	ProblemGlare        Problem = "glare"
	ProblemAspect       Problem = "card_proportions" // edges found, but not ID-1 proportions
	ProblemNoPortrait   Problem = "no_portrait"

	ProblemBarcodeNotFound   Problem = "barcode_not_found"
	ProblemBarcodeTooSmall   Problem = "barcode_too_small" // found, but its bars too narrow to read: move closer
	ProblemBarcodeUnreadable Problem = "barcode_unreadable"
	ProblemBarcodeInvalid    Problem = "barcode_invalid"

	// The passport's data page (Passport) and the ID card's back
	// (IDCardBack, with card_not_found for a photo without the card).
	ProblemPageNotFound     Problem = "page_not_found"    // no data page in the photo
	ProblemMRZNotFound      Problem = "mrz_not_found"     // a page, but no machine-readable zone on it
	ProblemMRZUnreadable    Problem = "mrz_unreadable"    // a check digit fails or a character is unsure: retake, never a guess
	ProblemDocumentSpecimen Problem = "document_specimen" // a specimen's zone or a known sample number: not genuine
)

// FrontReport is the judgement of a front photo. Accepted exactly when
// Problems is empty.
type FrontReport struct {
	Problems []Problem
	// The license_appears_real inputs the front provides.
	CardFound, ProportionsOK, FacePresent bool
	// Measures, for the answer's checks and for calibration.
	Aspect, Sharpness, Glare float64
	// Headshot is the license portrait cropped (JPEG, at most 400 px);
	// nil when no portrait was found.
	Headshot []byte
	// Portrait is the face descriptor of the license portrait; nil when
	// no portrait was found.
	Portrait []float32
	// Printed is what OCR read on the front's personal-data zone
	// (FrontPrinted only); nil when not asked or no portrait was found
	// (the portrait tells which way up the card is).
	Printed *license.Printed
}

// BackReport is the judgement of a back photo. Accepted exactly when
// Problems is empty; then License is the validated barcode's content.
type BackReport struct {
	Problems []Problem
	License  license.License
}

// PassportReport is the judgement of a photo of a passport's data page.
// Accepted exactly when Problems is empty.
type PassportReport struct {
	Problems []Problem
	// The license_appears_real evidence: the page found, its TD3
	// proportions, a face on it; the zone's check digits valid is
	// "Document != nil".
	PageFound, ProportionsOK, FacePresent bool
	// ZoneInPlace: the zone stands where TD3 puts it on the page found
	// (the zone's physical check; with the check digits, the evidence
	// docs/documents.md calls BarcodeValid for a passport).
	ZoneInPlace bool
	// Measures, for the answer's checks and for calibration.
	Aspect, Sharpness, Glare float64
	// Headshot is the portrait cropped (JPEG, at most 400 px); nil when
	// none was found.
	Headshot []byte
	// Portrait is the portrait's face descriptor; nil when none was found.
	Portrait []float32
	// Document is the parsed, validated zone; nil unless read.
	Document *mrz.Document
	// Printed is what OCR read in the visual inspection zone
	// (PassportPrinted only); nil when not asked or the zone not read.
	Printed *license.Printed
}

// IDCardBackReport is the judgement of a photo of an ID card's back (its
// TD1 zone). Accepted exactly when Problems is empty. The card's portrait
// is on its front (FrontReport), not here.
type IDCardBackReport struct {
	Problems []Problem
	// CardFound: the card's edges found around the zone; ProportionsOK: all four found and
	// within 6 % of ID-1's 85.6 × 53.98; ZoneInPlace: the zone where TD1 puts it on that card.
	CardFound, ProportionsOK, ZoneInPlace bool
	// Measures, for the answer's checks and for calibration.
	Aspect, Sharpness, Glare float64
	// Document is the parsed, validated TD1 zone; nil unless read.
	Document *mrz.Document
}

// FrameBudget is what the client must send for a challenge.
type FrameBudget struct {
	MinFrames, MaxFrames int
	// MaxFrameBytes bounds each encoded frame; MaxWidth/MaxHeight its size.
	MaxFrameBytes       int
	MaxWidth, MaxHeight int
	// FPS is the capture rate to aim for.
	FPS int
}

// LivenessReport is the judgement of a challenge's frames. When a frame
// breaks the budget or cannot be decoded, nothing is judged: Problems
// names the fault (frame_too_large, frame_not_jpeg, frames_count) and the
// rest is empty.
type LivenessReport struct {
	Problems []Problem
	Result   liveness.Result
	// Selfie is the chosen frontal frame as sent (JPEG), and
	// SelfieDescriptor its face descriptor; both nil when none qualified.
	Selfie           []byte
	SelfieDescriptor []float32
}
