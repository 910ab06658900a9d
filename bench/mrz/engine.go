package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"time"

	"github.com/idgate/idgate/bench/internal/cputime"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/mrz"
)

// enginePath reads photos again the way a passport's data page is judged
// (engines.ExaminePassport: the zone at its turns, the page placed around
// it, the portrait, the visual zone where the zone's names are unclear):
// what the reader alone refuses may read there. It tallies right, wrong
// (accepted with other text than printed) and refused, how many the
// visual zone settled, and the CPU of the whole process per photo (the
// engines work on their own goroutines; one worker).
type enginePath struct {
	eng                           *engines.Engines
	right, wrong, refused, settle int
	cpu                           []time.Duration
}

func newEnginePath() (*enginePath, error) {
	eng, err := engines.Load(engines.Config{Workers: 1})
	if err != nil {
		return nil, err
	}
	return &enginePath{eng: eng}, nil
}

// read judges img, a photo of a page printing the zone printed (none: a
// zone no reader should accept), and says what came of it.
func (p *enginePath) read(img *image.Gray, printed []string) (string, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", err
	}
	t0 := cputime.Process()
	x, err := p.eng.ExaminePassport(context.Background(), b.Bytes())
	p.cpu = append(p.cpu, cputime.Process()-t0)
	if err != nil {
		return "", err
	}
	if x.NamesSettled {
		p.settle++
	}
	note := fmt.Sprintf("turns %v, %v", x.Turns, x.Problems)
	if x.Printed != nil {
		note += fmt.Sprintf("; the visual zone's names %q (%.0f), %q (%.0f)", x.Printed.LastName.Text, x.Printed.LastName.Conf, x.Printed.FirstName.Text, x.Printed.FirstName.Conf)
	}
	switch {
	case x.MRZ == nil || x.MRZ.Format != mrz.TD3:
		p.refused++
		return fmt.Sprintf("refused (%v; %s)", x.ReadErr, note), nil
	case strings.Join(x.MRZ.Lines, "\n") == strings.Join(printed, "\n"):
		p.right++
		return fmt.Sprintf("right (settled by the visual zone: %v; %s)", x.NamesSettled, note), nil
	}
	p.wrong++
	return fmt.Sprintf("WRONG: %s (settled by the visual zone: %v; %s)", strings.Join(x.MRZ.Lines, " / "), x.NamesSettled, note), nil
}

func (p *enginePath) String() string {
	med, p95 := quantiles(p.cpu)
	return fmt.Sprintf("%d right, %d wrong, %d refused of %d (%d settled by the visual zone), process CPU %d/%d ms median/p95",
		p.right, p.wrong, p.refused, p.right+p.wrong+p.refused, p.settle, med, p95)
}
