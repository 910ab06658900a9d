package face_test

import (
	"errors"
	"image"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/match/matchtest"
	"github.com/idgate/idgate/verifier/imgio"
)

// TestTiersOnEvaluationPairs runs the face match as configured
// (match.Default) on bench/match's evaluation pairs — license portraits
// printed grey behind a guilloche on a tilted card, photographed and cut
// out, against selfie stills and frames of 16 people — and holds the
// tiers to what the thresholds' comment claims: no different-person pair
// reaches likely_match or definite_match, no same-person pair is
// no_match, and same-person pairs land in every matching tier. The grey,
// tilted variant is the one whose portraits reach the engine smallest
// but one; bench/match runs all three.
func TestTiersOnEvaluationPairs(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	find := func(elem ...string) (string, error) { return testkit.Data(t, elem...), nil }
	locate := func(img *image.RGBA) (image.Rectangle, error) {
		f, err := a.Single(imgio.ToTensor(img))
		b := f.Box
		return image.Rect(b[0], b[1], b[0]+b[2], b[1]+b[3]), err
	}
	set, err := matchtest.Load(find, locate, matchtest.Variants[1:2])
	if err != nil {
		t.Fatal(err)
	}
	t.Log(set)
	describe := func(p matchtest.Photo, card bool) []float32 {
		img := imgio.ToTensor(p.Image)
		if card {
			faces, err := a.Analyze(img)
			if err != nil || len(faces) == 0 {
				t.Errorf("%s: no portrait found (%v)", p.Name, err)
				return nil
			}
			return faces[0].Descriptor[:]
		}
		f, err := a.Single(img)
		if errors.Is(err, face.ErrNoFace) {
			t.Errorf("%s: %v", p.Name, err)
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return f.Descriptor[:]
	}
	selfies := make([][]float32, len(set.Selfies))
	for i, s := range set.Selfies {
		selfies[i] = describe(s, false)
	}
	count := map[bool]map[match.Tier]int{true: {}, false: {}}
	for _, c := range set.Cards {
		dc := describe(c, true)
		for i, s := range set.Selfies {
			same, use := matchtest.Pair(c, s)
			if !use || dc == nil || selfies[i] == nil {
				continue
			}
			r, err := match.Default.Compare(dc, selfies[i])
			if err != nil {
				t.Fatal(err)
			}
			count[same][r.Tier]++
			switch {
			case same && r.Tier == match.NoMatch:
				t.Errorf("%s vs %s: same person, no_match (distance %.3f)", c.Name, s.Name, r.Distance)
			case !same && (r.Tier == match.DefiniteMatch || r.Tier == match.LikelyMatch):
				t.Errorf("%s vs %s: different people, %s (distance %.3f)", c.Name, s.Name, r.Tier, r.Distance)
			}
		}
	}
	t.Logf("same person %v; different people %v", count[true], count[false])
	for _, tier := range []match.Tier{match.DefiniteMatch, match.LikelyMatch, match.PossibleMatch} {
		if count[true][tier] == 0 {
			t.Errorf("no same-person pair in %s: %v", tier, count[true])
		}
	}
	if count[false][match.NoMatch] == 0 {
		t.Errorf("no different-person pair in no_match: %v", count[false])
	}
}
