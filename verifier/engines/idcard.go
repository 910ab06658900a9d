package engines

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/verifier/flow"
)

// IDCardBack judges a photo of the back of an ID card with a
// machine-readable zone (ICAO 9303 TD1: a passport card, a national ID):
// it reads the zone as Passport does, takes only a TD1 zone (a data
// page's is mrz_not_found), places the ID-1 card around it and finds its
// four edges (zoneside.go, page.go). The card's portrait is on its front,
// judged by Front. A zone that does not read is never guessed.
func (e *Engines) IDCardBack(ctx context.Context, data []byte) (flow.IDCardBackReport, error) {
	x, err := e.ExamineIDCardBack(ctx, data)
	return x.IDCardBackReport, err
}

// IDCardBackExam is IDCardBack's report with what it was decided from,
// for tests and calibration.
type IDCardBackExam struct {
	flow.IDCardBackReport
	ZoneExam
}

// ExamineIDCardBack is IDCardBack with everything it measured.
func (e *Engines) ExamineIDCardBack(ctx context.Context, data []byte) (IDCardBackExam, error) {
	rd, err := e.mrzReader()
	if err != nil {
		return IDCardBackExam{}, fmt.Errorf("id card back: %w", err)
	}
	var x IDCardBackExam
	err = e.run(ctx, func(*worker) error {
		s, err := x.examine(ctx, rd, data, &td1Card, e.cfg.Now(), nil)
		if err != nil {
			return fmt.Errorf("id card back: %w", err)
		}
		x.IDCardBackReport = flow.IDCardBackReport{Problems: s.Problems, CardFound: s.Found, ProportionsOK: s.ProportionsOK,
			ZoneInPlace: s.ZoneInPlace, Aspect: s.Aspect, Sharpness: s.Sharpness, Glare: s.Glare, Document: s.Document}
		return nil
	})
	return x, err
}
