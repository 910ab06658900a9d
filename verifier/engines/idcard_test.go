package engines_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
)

// cardZone is a random valid TD1 zone.
func cardZone(seed uint64) []string { return mrztest.Zone(rand.New(rand.NewPCG(seed, 5)), mrz.TD1) }

// cardCamera is a phone's photo of w × h pixels with the card filling
// frac of its width, turned by angle degrees and blurred by blur px.
func cardCamera(w, h int, frac, angle, blur float64) mrztest.Camera {
	return mrztest.Camera{Width: w, Height: h, PageFrac: frac, Angle: angle, Blur: blur, Light: 0.15, Noise: 2, Quality: 90}
}

// A card back photographed at 2 to 12 MP, straight, tilted, a little
// blurred, seen off square or upside down, is accepted: the card's four
// edges found in ID-1's proportions, the zone in its place and read
// exactly as printed. Three or four of the seven photos a run, taking
// turns by commit (sharedCases; the seven took 12.7 s of CPU): one of
// the guide's smallest in each round, and the 2, 8 MP and off-square
// photos or the 5, 12 MP and upside-down ones.
func TestIDCardBackAccepted(t *testing.T) {
	e := loaded(t)
	cases := []struct {
		name string
		cam  mrztest.Camera
	}{
		{"2 MP straight", cardCamera(1632, 1224, 0.7, 2, 0.5)},
		{"5 MP tilted", cardCamera(2592, 1944, 0.6, -9, 0.8)},
		{"8 MP blurred", cardCamera(3264, 2448, 0.55, 4, 1.5)},
		{"12 MP upside down", cardCamera(4000, 3000, 0.5, 178, 0.7)},
		// The smallest card the page's guide takes by itself (22% of the
		// frame, verifier/web/src/autocapture.ts) on a 1280×720 and a
		// 640×480 camera: ~19 and ~11 px a character.
		{"720p, the guide's smallest", cardCamera(1280, 720, 0.443, 3, 0.8)},
		{"VGA, the guide's smallest", cardCamera(640, 480, 0.512, -2, 0.6)},
		{"3 MP off square", func() mrztest.Camera {
			c := cardCamera(2000, 1500, 0.7, -3, 0.5)
			c.Keystone = 0.06
			return c
		}()},
	}
	for _, i := range sharedCases(t, len(cases), 2) {
		c := cases[i]
		zone := cardZone(uint64(i))
		x, err := e.ExamineIDCardBack(context.Background(), dataPage(t, mrz.TD1, zone, nil, c.cam, uint64(20+i), nil))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: aspect %.3f sharpness %.2f glare %.3f shift %.2f, %.2f mm, offsets %.1f, zone %v, page %v",
			c.name, x.Aspect, x.Sharpness, x.Glare, x.ZoneShift[0], x.ZoneShift[1], x.Page.Offset, x.Timings.Zone, x.Timings.Page)
		if len(x.Problems) != 0 || !x.CardFound || !x.ProportionsOK || !x.ZoneInPlace || x.Document == nil {
			t.Errorf("%s: %+v", c.name, x.IDCardBackReport)
			continue
		}
		if got := strings.Join(x.Document.MRZ.Lines, "\n"); got != strings.Join(zone, "\n") {
			t.Errorf("%s: read\n%s\nprinted\n%s", c.name, got, strings.Join(zone, "\n"))
		}
		if x.Document.MRZ.Format != mrz.TD1 || x.Document.Read.IsZero() {
			t.Errorf("%s: format %v, read %v", c.name, x.Document.MRZ.Format, x.Document.Read)
		}
		if math.Abs(x.Aspect/engines.TD1Aspect-1) > engines.PageAspectTolerance || x.Sharpness < engines.MinPageSharpness {
			t.Errorf("%s: aspect %.3f sharpness %.3f", c.name, x.Aspect, x.Sharpness)
		}
	}
}

// Each thing wrong with a card-back photo is its problem code, and only
// what is wrong.
func TestIDCardBackProblems(t *testing.T) {
	e := loaded(t)
	zone := cardZone(40)
	// The document number's check digit (line 1, column 14), one more.
	broken := digitOff(zone, 0, 14)
	// ICAO's TD1 specimen (Doc 9303 Part 5, Appendix A).
	specimen := []string{
		"I<UTOD231458907<<<<<<<<<<<<<<<",
		"7408122F1204159UTO<<<<<<<<<<<6",
		"ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
	}
	cam := cardCamera(2000, 1500, 0.7, 2, 0.5)
	far := cam
	far.PageFrac = 1.0 // the card's side edges at or outside the frame's, its zone inside
	for i, c := range []struct {
		name  string
		photo []byte
		want  []flow.Problem
	}{
		{"not an image", []byte("\x89PNG\r\n\x1a\n garbage"), []flow.Problem{flow.ProblemImageUnsupported}},
		{"no card", encodeJPEG(t, mrztest.Blank(1600, 1200)), []flow.Problem{flow.ProblemCardNotFound}},
		{"card without a zone", dataPage(t, mrz.TD1, nil, nil, cam, 41, nil), []flow.Problem{flow.ProblemMRZNotFound}},
		{"a passport's data page", dataPage(t, mrz.TD3, passportZone(42), nil, camera(2, 0.5), 42, nil), []flow.Problem{flow.ProblemMRZNotFound}},
		{"card cut off", dataPage(t, mrz.TD1, zone, nil, far, 43, nil), []flow.Problem{flow.ProblemCardNotFound}},
		{"check digit fails", dataPage(t, mrz.TD1, broken, nil, cam, 44, nil), []flow.Problem{flow.ProblemMRZUnreadable}},
		{"too blurred", dataPage(t, mrz.TD1, zone, nil, cardCamera(2000, 1500, 0.7, 2, 7.5), 45, nil), []flow.Problem{flow.ProblemMRZUnreadable, flow.ProblemTooBlurry}},
		{"ICAO specimen", dataPage(t, mrz.TD1, specimen, nil, cam, 46, nil), []flow.Problem{flow.ProblemDocumentSpecimen}},
	} {
		x, err := e.ExamineIDCardBack(context.Background(), c.photo)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v sharpness %.2f read %v", c.name, x.Problems, x.Sharpness, x.ReadErr)
		if !slices.Equal(x.Problems, c.want) {
			t.Errorf("%s (%d): problems %v, want %v", c.name, i, x.Problems, c.want)
		}
		if (slices.Contains(c.want, flow.ProblemMRZUnreadable) || slices.Contains(c.want, flow.ProblemDocumentSpecimen)) && x.Document != nil {
			t.Errorf("%s: a document kept", c.name)
		}
	}
}

// The zone's physical check on the card: where TD1 puts it on the card
// found, it is in place; printed 2.2-2.5 mm off it is not, and
// the photo is still accepted (evidence, not something a retake fixes).
// Three of the six cards a run, taking turns by commit (sharedCases; the
// six took 6.0 s of CPU): a card in place and two off in each round.
func TestIDCardBackZonePlace(t *testing.T) {
	e := loaded(t)
	cases := []struct {
		name    string
		shift   [2]float64
		cam     mrztest.Camera
		inPlace bool
	}{
		{"in place", [2]float64{}, cardCamera(2000, 1500, 0.7, 2, 0.5), true},
		{"in place, tilted and blurred", [2]float64{}, cardCamera(2000, 1500, 0.6, -8, 1.2), true},
		{"1.5 mm left and up", [2]float64{-1.5, 1.5}, cardCamera(2000, 1500, 0.7, 2, 0.5), false},
		{"2.5 mm up", [2]float64{0, 2.5}, cardCamera(2000, 1500, 0.7, -3, 0.5), false},
		{"1.8 mm left and down", [2]float64{-1.8, -1.8}, cardCamera(2000, 1500, 0.7, 4, 0.5), false},
		// 2.2 mm from the card's right edge: the edge stands a pitch from
		// the zone's last character.
		{"2.5 mm right", [2]float64{2.5, 0}, cardCamera(2000, 1500, 0.7, 2, 0.5), false},
	}
	for _, i := range sharedCases(t, len(cases), 2) {
		c := cases[i]
		photo := printedPage(t, mrz.TD1, cardZone(50), nil, mrztest.Print{Shift: c.shift}, c.cam, uint64(51+i), nil)
		x, err := e.ExamineIDCardBack(context.Background(), photo)
		if err != nil {
			t.Fatal(err)
		}
		zonePlaced(t, c.name, x.ZoneExam, x.Problems, x.ZoneInPlace, c.shift, c.inPlace)
	}
}
