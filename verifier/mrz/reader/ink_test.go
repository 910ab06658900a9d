package reader

import (
	"cmp"
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// washedShot is mrztest.WashedSpecimen, failing t on error.
func washedShot(t testing.TB, f *ocrb.Font, cam mrztest.Camera, letter byte, part [4]float64, a float64) (*image.Gray, []string) {
	t.Helper()
	img, lines, err := mrztest.WashedSpecimen(f, cam, letter, part, a)
	if err != nil {
		t.Fatal(err)
	}
	return img, lines
}

// A name letter washed out past what its strokes can tell (glare, rubbed
// ink) was read as another letter above every margin, and no check digit
// covers a name: now such a cell is unclear, so the zone is refused, or
// read through a second reading of the names that agrees (UnsureNames).
// About 1 s of CPU a case.
//
// Each case is judged alone, so they take turns, every kind of misreading
// in every run: a third of each kind of three or four cases, one of each
// pair (testkit.Share: the round is the commit's hash modulo 3;
// IDGATE_TEST_SWEEPS=full walks all eleven in one run). The test took
// 17-19 s of CPU, 1.1-2.6 s a case, the reading most of it (2026-12-02).
func TestWashedLetterNotMisread(t *testing.T) {
	rd, f := newReader(t)
	lower, left, right := [4]float64{0, 1, 0.5, 1}, [4]float64{0, 0.5, 0, 1}, [4]float64{0.5, 1, 0, 1}
	type washCase struct {
		letter byte
		part   [4]float64
		a      float64
		width  int // the frame's, px, when not 3 MP's (2000)
	}
	var cases []washCase
	for _, kind := range [][]washCase{
		// Each read as another letter above every margin before MinInk.
		{
			{'G', lower, 0.93, 0}, // as C
			{'B', left, 0.90, 0},  // as J
			{'A', left, 0.96, 0},  // as I
		},
		// Each read as I over MinInk before MaxBare and MinFaintMatch:
		// the side left makes an I, whose strokes lie on its ink.
		{
			{'E', left, 0.93, 0},
			{'Z', left, 0.93, 0},
			{'T', right, 0.93, 0},
			{'T', right, 0.93, 1630}, // 2 MP: 0.326 bare (MaxBare)
		},
		// Read as 1, under every sign: what is left of the T is the 1's
		// stem and flag, its twin I far below (asLetter).
		{
			{'T', right, 0.80, 1630},
			{'T', right, 0.85, 1630},
		},
		// Read as the filler (its arms are a <) above every margin at
		// 0.13-0.15 of its zone's ink: MinInk's alone, as the filler is
		// held to no other sign.
		{
			{'K', left, 0.96, 0},
			{'K', left, 0.96, 1630},
		},
	} {
		cases = append(cases, testkit.Share(kind, min(3, len(kind)))...)
	}
	for _, c := range cases {
		cam := mrztest.WashedCamera(cmp.Or(c.width, 2000))
		img, lines := washedShot(t, f, cam, c.letter, c.part, c.a)
		m, err := rd.Read(img)
		var u *UnsureNames
		switch {
		case err == nil && strings.Join(m.Lines, "\n") != strings.Join(lines, "\n"):
			t.Errorf("%c washed %.2f, %d px: read %q", c.letter, c.a, cam.Width, m.Lines[0])
		case errors.As(err, &u):
			if s, err := u.Settle(lines[0][5:]); err != nil || strings.Join(s.Lines, "\n") != strings.Join(lines, "\n") {
				t.Errorf("%c washed %.2f, %d px: the printed names do not settle the zone: %v", c.letter, c.a, cam.Width, err)
			}
		case err != nil && !errors.Is(err, ErrUnsure):
			t.Errorf("%c washed %.2f, %d px: %v, want unclear", c.letter, c.a, cam.Width, err)
		}
	}
}
