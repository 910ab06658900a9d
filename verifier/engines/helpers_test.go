package engines_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/jpeg"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// loaded is one Engines for the test binary (loading the models is the
// slow part), with two workers.
func loaded(t testing.TB) *engines.Engines { return enginestest.Load(t, 2) }

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// labeledFace is a real face photo of the labeled test set.
func labeledFace(t testing.TB, path string) image.Image {
	return testkit.PNG(t, "testdata", "faces", "labeled", path)
}

// frontPhoto renders a license front photo (JPEG) of s, 1600 px wide with
// the card 1000 px across unless s says otherwise.
func frontPhoto(t testing.TB, s cardtest.Scene) []byte {
	t.Helper()
	if s.FrameW == 0 {
		s.FrameW = 1600
	}
	if s.CardW == 0 {
		s.CardW = 1000
	}
	if s.Aspect == 0 {
		s.Aspect = card.ID1Aspect
	}
	img, _ := s.Render()
	return encodeJPEG(t, img)
}

// aamvaFixtures are the licenses of the shared AAMVA fixtures (real
// barcode texts, transcribed with their separators lost, so none passes
// license.ValidateStructure as it stands), encoded again by license.Encode
// as the barcode payload a card would carry.
func aamvaFixtures(t testing.TB) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(testkit.Data(t, "testdata", "aamva", "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx []struct{ Kind, Data string }
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, f := range fx {
		l, err := license.ParseAAMVA([]byte(f.Data))
		if f.Kind != "pdf417" || err != nil || l.LastName == "" || l.ExpiryDate.IsZero() {
			continue
		}
		payload := license.Encode(l, license.MaxVersion)
		if err := license.ValidateStructure(payload); err != nil {
			t.Fatalf("Encode wrote an invalid payload: %v", err)
		}
		out = append(out, payload)
	}
	if len(out) < 3 {
		t.Fatalf("only %d PDF417 fixtures parse", len(out))
	}
	return out
}

// backPhoto renders payload as the PDF417 on a photo of a license back
// (JPEG).
func backPhoto(t testing.TB, payload []byte, seed uint64, d synth.Degradation) []byte {
	t.Helper()
	img, err := synth.Case{Name: "back", Payload: payload, EC: 4, Module: 3, Seed: seed, Degradation: d}.Render()
	if err != nil {
		t.Fatal(err)
	}
	return encodeJPEG(t, img)
}

// frontScene is an accepted license front with a real face.
func frontScene(t testing.TB) cardtest.Scene {
	return cardtest.Scene{Face: labeledFace(t, "sheldon/sheldon2.png"), RotationDeg: 6, Keystone: 0.05, Seed: 1}
}

// frontSceneShot is frontScene rendered as frontPhoto renders it, and its
// JPEG: rendered once per test binary, not by each of the four tests that
// photograph it (about 0.2 s of CPU a render). The engines only read
// their input, so the tests share the bytes.
func frontSceneShot(t testing.TB) (image.Image, []byte) {
	t.Helper()
	frontShot.once.Do(func() {
		s := frontScene(t)
		s.FrameW, s.CardW, s.Aspect = 1600, 1000, card.ID1Aspect
		frontShot.img, _ = s.Render()
		frontShot.jpeg = encodeJPEG(t, frontShot.img)
	})
	if frontShot.jpeg == nil {
		t.Fatal("frontScene's photo was not rendered")
	}
	return frontShot.img, frontShot.jpeg
}

var frontShot struct {
	once sync.Once
	img  image.Image
	jpeg []byte
}

// sharedCases is the indices of a test's n independent cases to walk in
// this run: one in k, taking turns by commit (testkit.Share: the round
// is the commit's hash modulo k, IDGATE_TEST_ROUND=r repeats a round,
// IDGATE_TEST_SWEEPS=full walks every one). The indices, not the cases,
// are shared so that each case keeps the zone and seed its index gives it.
func sharedCases(t testing.TB, n, k int) []int {
	t.Helper()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return logShared(t, testkit.Share(idx, k), n)
}

// sharedGroups is sharedCases for cases that must not be parted: each
// group (one case of each class a run keeps, say a dotted and a named
// date) is walked whole or not at all.
func sharedGroups(t testing.TB, k int, groups ...[]int) []int {
	t.Helper()
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	return logShared(t, slices.Concat(testkit.Share(groups, k)...), n)
}

func logShared(t testing.TB, idx []int, n int) []int {
	t.Helper()
	if len(idx) < n {
		t.Logf("cases %v of %d this round (testkit.Share; IDGATE_TEST_SWEEPS=full walks all)", idx, n)
	}
	return idx
}
