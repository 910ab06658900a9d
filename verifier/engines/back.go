package engines

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417"
)

// Back reads the PDF417 barcode on a photo of the license back and
// validates it. An expired license is not a problem (it is a result
// field).
func (e *Engines) Back(ctx context.Context, data []byte) (flow.BackReport, error) {
	var rep flow.BackReport
	err := e.run(ctx, func(*worker) error {
		img, err := imgio.DecodeImage(data, imgio.Upload)
		if p, ok := imageProblem(err); ok {
			rep.Problems = []flow.Problem{p}
			return nil
		} else if err != nil {
			return fmt.Errorf("back: %w", err)
		}
		l, scan, err := Scan(ctx, e.decoder, img)
		switch {
		case err == nil:
			rep.License = l
		case ctx.Err() != nil:
			return fmt.Errorf("back: %w", ctx.Err())
		case errors.Is(err, pdf417.ErrImageTooLarge):
			rep.Problems = []flow.Problem{flow.ProblemImageTooLarge}
		case errors.Is(err, pdf417.ErrNoBarcode):
			rep.Problems = []flow.Problem{barcodeProblem(scan)}
		default: // validated, yet the parser refused it
			rep.Problems = []flow.Problem{flow.ProblemBarcodeInvalid}
		}
		return nil
	})
	return rep, err
}

// barcodeProblem tells why nothing valid was read: a PDF417 that decoded
// but is no AAMVA file (barcode_invalid), a barcode-like region whose
// start and stop patterns measure a module under pdf417.MinModulePx
// (barcode_too_small: move closer), another barcode-like region that did
// not decode (barcode_unreadable), or nothing like a barcode
// (barcode_not_found). "Barcode-like" is the pdf417 locator's judgement
// (a patch of strong parallel edges), and dense print passes it too: a
// photo of the front usually comes back unreadable, not not-found.
func barcodeProblem(r pdf417.Report) flow.Problem {
	for _, s := range r.Steps {
		if strings.HasPrefix(s.Outcome, "rejected") {
			return flow.ProblemBarcodeInvalid
		}
	}
	if r.TooSmall() {
		return flow.ProblemBarcodeTooSmall
	}
	if r.Regions > 0 {
		return flow.ProblemBarcodeUnreadable
	}
	return flow.ProblemBarcodeNotFound
}

// Scan decodes the PDF417 barcode in img with d and parses it. Only a
// payload that passes license.ValidateStructure counts as a decode: a
// misread is rejected inside the decoder and its next strategy runs. The
// error wraps pdf417.ErrNoBarcode (or pdf417.ErrImageTooLarge) when
// nothing valid was read, and a license error when a validated payload
// does not parse; the report says what was tried.
func Scan(ctx context.Context, d pdf417.Decoder, img image.Image) (license.License, pdf417.Report, error) {
	raw, rep, err := d.Decode(ctx, img, license.ValidateStructure)
	if err != nil {
		return license.License{}, rep, fmt.Errorf("scan license: %w", err)
	}
	l, err := license.ParseAAMVA(raw)
	if err != nil {
		return license.License{}, rep, fmt.Errorf("scan license: %w", err)
	}
	return l, rep, nil
}
