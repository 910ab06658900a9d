package pdf417

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/zxing"
)

// Decoder holds the knobs of Decode; the zero value is ready to use.
type Decoder struct {
	// Budget caps the time spent on one image; 0 means DefaultBudget. A
	// context deadline that comes earlier wins.
	Budget time.Duration
	// Now is the clock for the budget and the report; nil means time.Now.
	Now func() time.Time
}

// Decode reads the PDF417 symbol in img with the default Decoder.
func Decode(ctx context.Context, img image.Image, accept func([]byte) error) ([]byte, Report, error) {
	return Decoder{}.Decode(ctx, img, accept)
}

// Decode runs the strategies in order until one yields a payload that
// accept returns nil for (a nil accept takes the first payload). The budget
// is checked between steps: a single zxing call is not interruptible, so an
// overrun is bounded by one step. Decode is safe for concurrent use.
func (d Decoder) Decode(ctx context.Context, img image.Image, accept func([]byte) error) ([]byte, Report, error) {
	return d.decode(ctx, img, accept, nil)
}

// decode is Decode; when kept is not nil it is set to the session the
// steps shared (none is made for a nil or oversized image), so that a
// test can ask for the module the steps measured, or measure it, without
// locating and straightening the symbol again (export_test.go).
func (d Decoder) decode(ctx context.Context, img image.Image, accept func([]byte) error, kept **session) ([]byte, Report, error) {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	budget := d.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	start := now()
	var rep Report
	if img == nil {
		return nil, rep, fmt.Errorf("decode pdf417: %w: no image", ErrNoBarcode)
	}
	b := img.Bounds()
	if int64(b.Dx())*int64(b.Dy()) > MaxPixels {
		return nil, rep, fmt.Errorf("decode pdf417: %dx%d: %w (max %d pixels)", b.Dx(), b.Dy(), ErrImageTooLarge, MaxPixels)
	}
	deadline := start.Add(budget)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	s := newSession(raster.Luminance(img))
	if kept != nil {
		*kept = s
	}
	finish := func() {
		rep.Total = now().Sub(start)
		if s.loc != nil {
			rep.Regions = len(s.loc.regions)
		}
	}
	for _, st := range strategies {
		if err := ctx.Err(); err != nil {
			finish()
			return nil, rep, fmt.Errorf("decode pdf417: %w: %w", ErrNoBarcode, err)
		}
		if !now().Before(deadline) {
			s.measureModule(&rep)
			finish()
			return nil, rep, fmt.Errorf("decode pdf417: budget of %v spent: %w: %w", budget, ErrNoBarcode, context.DeadlineExceeded)
		}
		t0 := now()
		payload, outcome := s.try(st, accept)
		rep.Steps = append(rep.Steps, Step{Strategy: st.name, Duration: now().Sub(t0), Outcome: outcome})
		if payload != nil {
			rep.Strategy = st.name
			finish()
			return payload, rep, nil
		}
	}
	s.measureModule(&rep)
	finish()
	return nil, rep, fmt.Errorf("decode pdf417: %d strategies tried: %w", len(strategies), ErrNoBarcode)
}

// measureModule fills rep.ModulePx after a failed decode, from the first
// region the strategies located (none is located for it alone).
func (s *session) measureModule(rep *Report) {
	if s.loc == nil || len(s.loc.regions) == 0 {
		return
	}
	if m, ok := s.module(); ok {
		rep.ModulePx, rep.EdgePx = m, s.modEdgePx
	}
}

// try runs one strategy and returns the accepted payload, or nil and why
// not. A library error (an exception inside zxing-cpp) fails only its own
// step: the next may present an image the library copes with.
func (s *session) try(st strategy, accept func([]byte) error) ([]byte, string) {
	img, skip := st.prepare(s)
	if img == nil {
		return nil, "skipped: " + skip
	}
	res, err := zxing.Read(img, st.tryHarder)
	if errors.Is(err, zxing.ErrNotFound) {
		return nil, "not found"
	}
	if err != nil {
		return nil, "error: " + err.Error()
	}
	if accept != nil {
		if err := accept(res.Bytes); err != nil {
			return nil, "rejected: " + err.Error()
		}
	}
	return res.Bytes, "decoded"
}
