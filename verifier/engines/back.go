package engines

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"

	xdraw "golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417"
)

// Back reads the PDF417 barcode on a photo of the license back and
// validates it. An expired license is not a problem (it is a result
// field).
func (e *Engines) Back(ctx context.Context, data []byte) (flow.BackReport, error) {
	return e.BackAt(ctx, data, portraitShare)
}

// BackAt is Back with share in place of portraitShare (math.Inf(1): the
// front is never told apart), so bench/robust can weigh the rule.
func (e *Engines) BackAt(ctx context.Context, data []byte, share float64) (flow.BackReport, error) {
	var rep flow.BackReport
	err := e.run(ctx, func(w *worker) error {
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
			p := barcodeProblem(scan)
			if (p == flow.ProblemBarcodeTooSmall || p == flow.ProblemBarcodeUnreadable) && w.showsPortrait(img, share) {
				// The front's dense print looks barcode-like to the
				// locator, and "move closer" sent people back to
				// photograph the front again, closer.
				p = flow.ProblemBarcodeNotFound
			}
			rep.Problems = []flow.Problem{p}
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
// photo of the front comes back too small or unreadable (Back then looks
// for its portrait).
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

// portraitShare is the least height of a face, as a share of the photo's
// shorter side, that makes a photo whose barcode was not read a photo of
// the card's front: a license portrait is about half the card's height, so
// a card a third of the frame's shorter side (farther than the front step
// accepts) shows a face of about 0.15. A smaller face (a bystander, a
// small printed image) keeps the barcode's own advice.
const portraitShare = 0.08

// portraitSide is the side the photo is shrunk to before the face search
// (the detector's own input is smaller still).
const portraitSide = 640

// showsPortrait reports whether img, a photo sent as the license back,
// shows a face of a license portrait's size (share of its shorter side):
// the front, sent by mistake.
func (w *worker) showsPortrait(img image.Image, share float64) bool {
	small := shrink(img, portraitSide)
	faces, err := w.finder.FindFaces(small)
	if err != nil || len(faces) == 0 {
		return false
	}
	b := small.Bounds()
	return float64(faces[0].Box.Dy()) >= share*float64(min(b.Dx(), b.Dy()))
}

// shrink scales img so its longer side is at most side (a copy; img as it
// is when already small enough).
func shrink(img image.Image, side int) image.Image {
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if long <= side {
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx()*side/long, b.Dy()*side/long))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
	return dst
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
