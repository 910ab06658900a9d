package reader

import (
	"errors"
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// washedShot is a photo by cam of the specimen data page whose zone prints
// letter in the surname's second cell (col 6), part of that cell washed a
// of the way to the paper (mrztest.Wash), and the lines printed.
func washedShot(t testing.TB, f *ocrb.Font, cam mrztest.Camera, letter byte, part [4]float64, a float64) (*image.Gray, []string) {
	t.Helper()
	const col = 6
	lines := append([]string(nil), specimenTD3...)
	lines[0] = lines[0][:col] + string(letter) + lines[0][col+1:]
	r := rand.New(rand.NewPCG(3, uint64(letter)))
	px := cam.PageFrac * float64(cam.Width) / mrztest.Width(mrz.TD3)
	page, err := mrztest.PrintedPage(f, mrz.TD3, lines, nil, mrztest.Print{}, px, r)
	if err != nil {
		t.Fatal(err)
	}
	mrztest.Wash(page, mrz.TD3, px, 0, col, part, a)
	img, err := mrztest.Photo(page, cam, r)
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
func TestWashedLetterNotMisread(t *testing.T) {
	rd, f := newReader(t)
	cam := mrztest.Camera{Width: 2000, Height: 1500, PageFrac: 0.8, Angle: 2, Blur: 0.8, Light: 0.1, Noise: 2, Quality: 90}
	lower, left, right := [4]float64{0, 1, 0.5, 1}, [4]float64{0, 0.5, 0, 1}, [4]float64{0.5, 1, 0, 1}
	for _, c := range []struct {
		letter byte
		part   [4]float64
		a      float64
		width  int // the frame's, when not cam's (3 MP)
	}{
		// Each read as another letter above every margin before MinInk.
		{'G', lower, 0.93, 0}, // as C
		{'B', left, 0.90, 0},  // as J
		{'A', left, 0.96, 0},  // as I
		// Each read as I over MinInk before MaxBare and MinFaintMatch:
		// the side left makes an I, whose strokes lie on its ink.
		{'E', left, 0.93, 0},
		{'Z', left, 0.93, 0},
		{'T', right, 0.93, 0},
		{'T', right, 0.93, 1630}, // 2 MP: 0.326 bare (MaxBare)
	} {
		cam := cam
		if c.width > 0 {
			cam.Width, cam.Height = c.width, c.width*3/4
		}
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
