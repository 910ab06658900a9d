package license

import (
	"context"
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/license/pdf417"
)

// Scanner reads licenses from photos of their back.
type Scanner struct {
	// Decoder sets the PDF417 time budget and clock; the zero value uses
	// pdf417's defaults.
	Decoder pdf417.Decoder
}

// Scan decodes the PDF417 barcode in img and parses it. Only a payload
// that passes ValidateStructure counts as a decode: a misread is rejected
// inside the decoder and its next strategy runs. The error wraps
// pdf417.ErrNoBarcode (or pdf417.ErrImageTooLarge) when nothing valid was
// read.
func (s Scanner) Scan(ctx context.Context, img image.Image) (License, pdf417.Report, error) {
	raw, rep, err := s.Decoder.Decode(ctx, img, ValidateStructure)
	if err != nil {
		return License{}, rep, fmt.Errorf("scan license: %w", err)
	}
	l, err := ParseAAMVA(raw)
	if err != nil {
		return License{}, rep, fmt.Errorf("scan license: %w", err)
	}
	return l, rep, nil
}

// Scan is Scanner{}.Scan without the decode report.
func Scan(ctx context.Context, img image.Image) (License, error) {
	l, _, err := Scanner{}.Scan(ctx, img)
	return l, err
}
