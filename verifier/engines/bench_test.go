package engines_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
)

// The flow's compute per verification, as the engines run it: a 12 MP
// front and back (4000 × 3000 JPEG, what a phone camera sends) and 30
// liveness frames (2 s at 15 fps). Each reports the process CPU time per
// call (cpu-ms/op) beside the wall time: the pool is sized to the cores,
// so CPU time is what bounds verifications per minute.
func BenchmarkFront12MP(b *testing.B) {
	e := loaded(b)
	img, _ := cardtest.Scene{FrameW: 4000, CardW: 2200, Aspect: card.ID1Aspect, RotationDeg: 7, Face: labeledFace(b, "sheldon/sheldon2.png"), Seed: 1}.Render()
	photo := encodeJPEG(b, img)
	cpuPerOp(b, func() {
		rep, err := e.Front(context.Background(), photo)
		if err != nil || len(rep.Problems) != 0 {
			b.Fatalf("%v %v", err, rep.Problems)
		}
	})
}

// An ID card's front, 12 MP, with its printed fields read under their
// captions (IDCardFrontPrinted, front_barcode_match): beside
// BenchmarkFront12MP, the difference is the fields' OCR.
func BenchmarkIDCardFrontPrinted12MP(b *testing.B) {
	e := loaded(b)
	img, _ := cardtest.Scene{FrameW: 4000, CardW: 2200, Aspect: card.ID1Aspect, RotationDeg: 7, Face: labeledFace(b, "sheldon/sheldon2.png"), Seed: 1,
		Front: &cardtest.Front{Fields: mrztest.CardFields(nil, cardZone(1), nil, nil)}}.Render()
	photo := encodeJPEG(b, img)
	cpuPerOp(b, func() {
		rep, err := e.IDCardFrontPrinted(context.Background(), photo)
		if err != nil || len(rep.Problems) != 0 || rep.Printed == nil {
			b.Fatalf("%v %v", err, rep.Problems)
		}
	})
}

func BenchmarkBack12MP(b *testing.B) {
	e := loaded(b)
	img, err := synth.Case{Name: "bench", Payload: aamvaFixtures(b)[0], EC: 4, Module: 6, FrameWidth: 4000, Seed: 2,
		Degradation: synth.Degradation{RotationDeg: 5, JPEGQuality: 85}}.Render()
	if err != nil {
		b.Fatal(err)
	}
	photo := encodeJPEG(b, img)
	cpuPerOp(b, func() {
		rep, err := e.Back(context.Background(), photo)
		if err != nil || len(rep.Problems) != 0 {
			b.Fatalf("%v %v", err, rep.Problems)
		}
	})
}

// A passport's data page, 12 MP, without and with its visual inspection
// zone read (PassportPrinted, front_barcode_match): the difference is the
// visual zone's OCR.
func BenchmarkPassport12MP(b *testing.B) { benchPassport(b, false) }

func BenchmarkPassportPrinted12MP(b *testing.B) { benchPassport(b, true) }

func benchPassport(b *testing.B, printed bool) {
	e := loaded(b)
	photo := dataPage(b, mrz.TD3, passportZone(1), labeledFace(b, "sheldon/sheldon2.png"), shot(4000, 3000, 4, 0.8), 1, nil)
	page := e.Passport
	if printed {
		page = e.PassportPrinted
	}
	cpuPerOp(b, func() {
		rep, err := page(context.Background(), photo)
		if err != nil || len(rep.Problems) != 0 || (rep.Printed != nil) != printed {
			b.Fatalf("%v %v", err, rep.Problems)
		}
	})
}

func BenchmarkLiveness30Frames(b *testing.B) {
	e := loaded(b)
	frames := foreman(b, 36, 94)
	if len(frames) != 30 {
		b.Fatalf("%d frames", len(frames))
	}
	ch := challengeOf(b, e, now, liveness.Blink, liveness.TurnLeft, liveness.TurnRight)
	cpuPerOp(b, func() {
		if _, err := e.Liveness(context.Background(), ch, frames, now); err != nil {
			b.Fatal(err)
		}
	})
}

// cpuPerOp runs op in the benchmark loop and reports the process's user +
// system CPU time per call.
func cpuPerOp(b *testing.B, op func()) {
	b.Helper()
	n, cpu0 := 0, cpuTime()
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
