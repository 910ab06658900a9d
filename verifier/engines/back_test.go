package engines_test

import (
	"context"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"image"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The real AAMVA fixtures, printed as PDF417 on a photo of a license back
// at a slight angle, read back as exactly the license their payload
// parses to; every one is long expired, which is no problem.
func TestBackAccepted(t *testing.T) {
	e := loaded(t)
	for i, payload := range aamvaFixtures(t)[:3] {
		want, err := license.ParseAAMVA(payload)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Back(context.Background(), backPhoto(t, payload, uint64(10+i), synth.Degradation{RotationDeg: float64(4 * (i + 1)), JPEGQuality: 80}))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems) != 0 {
			t.Fatalf("fixture %d: problems %v", i, rep.Problems)
		}
		if !reflect.DeepEqual(rep.License, want) {
			t.Errorf("fixture %d: read %+v, want %+v", i, rep.License, want)
		}
		if c := rep.License.Check(time.Now()); !c.Expired {
			t.Errorf("fixture %d: expiry %v is not past", i, rep.License.ExpiryDate)
		}
	}
}

// Every AAMVA version Encode writes survives a round trip through a
// degraded photo: the scan reads what parsing the payload gives.
func TestBackVersions(t *testing.T) {
	e := loaded(t)
	sample, err := license.ParseAAMVA(aamvaFixtures(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	degradations := []synth.Degradation{{}, {RotationDeg: 12}, {Keystone: 0.1}, {BlurSigma: 0.8}, {Downscale: 0.8}, {JPEGQuality: 50}, {Light: 0.5}, {NoiseSigma: 8}}
	for v := 0; v <= license.MaxVersion; v++ {
		payload := license.Encode(sample, v)
		want, err := license.ParseAAMVA(payload)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Back(context.Background(), backPhoto(t, payload, uint64(1000+v), degradations[v%len(degradations)]))
		if err != nil || len(rep.Problems) != 0 || !reflect.DeepEqual(rep.License, want) {
			t.Errorf("version %d %+v: %v problems %v", v, degradations[v%len(degradations)], err, rep.Problems)
		}
	}
}

// Each barcode problem: a photo without one, a barcode photographed from
// too far to read, a barcode that cannot be read for blur, a readable
// PDF417 that is no license, and images refused before. The card's front
// sent as the back is "not found" (photograph the back), not "move
// closer", which its dense print gave before (18 synthetic fronts, seeds
// 1-6 at 700-1400 px of a 1600 px frame, were all too_small or
// unreadable; they and 12 more at 480-560 px are all not_found now).
func TestBackProblems(t *testing.T) {
	e := loaded(t)
	fixture := aamvaFixtures(t)[0]
	face := labeledFace(t, "sheldon/sheldon2.png")
	for _, c := range []struct {
		name  string
		photo []byte
		want  flow.Problem
	}{
		{"no barcode", encodeJPEG(t, image.NewGray(image.Rect(0, 0, 1600, 1200))), flow.ProblemBarcodeNotFound},
		{"too far at 1 MP", farBack(t, fixture, 0, 0.25), flow.ProblemBarcodeTooSmall},
		{"too far at 2 MP", farBack(t, fixture, 1, 0.22), flow.ProblemBarcodeTooSmall},
		{"out of focus", backPhoto(t, fixture, 3, synth.Degradation{BlurSigma: 6}), flow.ProblemBarcodeUnreadable},
		{"the front, near", frontPhoto(t, cardtest.Scene{Face: face, CardW: 1400, Seed: 1}), flow.ProblemBarcodeNotFound},
		{"the front, at arm's length", frontPhoto(t, cardtest.Scene{Face: face, CardW: 700, Seed: 2}), flow.ProblemBarcodeNotFound},
		{"not a license", backPhoto(t, []byte("HELLO, THIS IS NOT A DRIVER LICENSE 0123456789"), 7, synth.Degradation{}), flow.ProblemBarcodeInvalid},
		{"not an image", []byte("%PDF-1.7"), flow.ProblemImageUnsupported},
		{"over 40 MP", pngHeader(7000, 6000), flow.ProblemImageTooLarge},
	} {
		rep, err := e.Back(context.Background(), c.photo)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(rep.Problems, []flow.Problem{c.want}) {
			t.Errorf("%s: problems %v, want [%s]", c.name, rep.Problems, c.want)
		}
	}
}

// farBack is a phone photo (print and camera models) of a license back
// held far away, at 1 MP (i = 0) or 2 MP (i = 1), the card frac of the
// frame's width.
func farBack(t testing.TB, payload []byte, i int, frac float64) []byte {
	t.Helper()
	p := synth.PhotoSet(1, 8)[8*i]
	p.Payload, p.CardFrac = payload, frac
	img, mods, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	if m := p.ModulePx(mods); m >= pdf417.MinModulePx {
		t.Fatalf("%s: modules of %.2f px are not too small", p.Name, m)
	}
	return encodeJPEG(t, img)
}
