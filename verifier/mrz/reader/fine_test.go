package reader

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
)

// TestFineBlurMeasured: the fine reading measures a zone's blur. A TD3
// page whose zone has a pitch of about 9 px on a 2 MP frame, defocused by
// σ 0.3 to 1.5 px, is read at the template blur (σ pitches) nearest the
// photo's own: its defocus and its pixels' width (a box of one pixel, σ
// 0.29 px) together, within a step and a half of the blurs drawn.
func TestFineBlurMeasured(t *testing.T) {
	rd, f := newReader(t)
	for i, blur := range []float64{0.3, 0.7, 1.1, 1.5} {
		r := rand.New(rand.NewPCG(uint64(i), 77))
		lines := mrztest.Zone(r, mrz.TD3)
		cam := mrztest.Camera{Width: 1632, Height: 1224, PageFrac: 0.285, Angle: 3, Blur: blur, Noise: 1, Quality: 90}
		img, err := mrztest.Shot(f, mrz.TD3, lines, cam, r)
		if err != nil {
			t.Fatal(err)
		}
		for z, err := range Zones(img, MatchPitch) {
			if err != nil {
				continue
			}
			_, cells := rd.read(z)
			_, got := rd.fineRead(z, cells, math.Inf(1))
			want := math.Sqrt(blur*blur+1.0/12) / z.Pitch
			t.Logf("blur %.1f px, pitch %.2f px: measured σ %.3f pitch, the photo's %.3f", blur, z.Pitch, got, want)
			if math.Abs(got-want) > 0.0225 {
				t.Errorf("blur %.1f px: measured σ %.3f pitch, want %.3f ± 0.0225", blur, got, want)
			}
			break
		}
	}
}

// TestFineReadsBlurredSmallZones: data pages whose strokes are 1.0-1.3 px
// on a 2 MP frame, defocused by about a stroke and a half (the cameras of
// bench/mrz's 2 MP photos the glyph matcher refused), are read right or
// refused, never read wrong; and some the glyph matcher alone refuses are
// read right, by the fine reading.
func TestFineReadsBlurredSmallZones(t *testing.T) {
	rd, f := newReader(t)
	gained := 0
	for i, cam := range []mrztest.Camera{
		{Width: 1632, Height: 1224, PageFrac: 0.2299, Angle: -1.59, Blur: 1.373, Light: 0.113, Noise: 1.39, Quality: 75},
		{Width: 1632, Height: 1224, PageFrac: 0.2753, Angle: 9.54, Blur: 1.369, Light: 0.289, Noise: 4.0, Quality: 70, Keystone: 0.047},
		{Width: 1632, Height: 1224, PageFrac: 0.2589, Angle: 2.57, Blur: 1.238, Light: 0.382, Noise: 3.58, Quality: 64},
		{Width: 1632, Height: 1224, PageFrac: 0.1933, Angle: -8.52, Blur: 1.276, Light: 0.138, Noise: 3.85, Quality: 94, Keystone: 0.052},
	} {
		r := rand.New(rand.NewPCG(uint64(i), 78))
		format := []mrz.Format{mrz.TD3, mrz.TD1}[i%2]
		lines := mrztest.Zone(r, format)
		img, err := mrztest.Shot(f, format, lines, cam, r)
		if err != nil {
			t.Fatal(err)
		}
		m, err := rd.Read(img)
		switch {
		case err != nil:
			t.Logf("%v %+v: refused: %v", format, cam, err)
			continue
		case strings.Join(m.Lines, "\n") != strings.Join(lines, "\n"):
			t.Errorf("%v %+v: read\n%s\nprinted\n%s", format, cam, strings.Join(m.Lines, "\n"), strings.Join(lines, "\n"))
			continue
		}
		// The zones read again by the glyph matcher alone: the first that
		// parses settles it, and the zones after it need not be read
		// (each reading matches every cell: this loop cost more CPU than
		// Read above, 2026-12-02).
		alone := false
		for z, err := range Zones(img, MatchPitch) {
			if err != nil {
				continue
			}
			g, cells := rd.read(z)
			if _, err := parseCells(g.chars, cells, nil, g.minMargin(), MinBlindMargin, false); err == nil {
				alone = true
				break
			}
		}
		t.Logf("%v %+v: read right; by the glyph matcher alone: %v", format, cam, alone)
		if !alone {
			gained++
		}
	}
	if gained == 0 {
		t.Error("none read right that the glyph matcher alone refuses")
	}
}

// TestTooBlurred: a data page on a 2 MP frame whose strokes are about a
// pixel wide, defocused by σ 2 px (two strokes: OCR-B's counters fill
// in), is refused as too blurred, the retake's message.
func TestTooBlurred(t *testing.T) {
	rd, f := newReader(t)
	r := rand.New(rand.NewPCG(1, 79))
	lines := mrztest.Zone(r, mrz.TD3)
	cam := mrztest.Camera{Width: 1632, Height: 1224, PageFrac: 0.23, Angle: 2, Blur: 2, Noise: 1, Quality: 90}
	img, err := mrztest.Shot(f, mrz.TD3, lines, cam, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Read(img); !errors.Is(err, ErrTooBlurred) || !errors.Is(err, ErrUnsure) {
		t.Errorf("read: %v, want ErrTooBlurred", err)
	}
}
