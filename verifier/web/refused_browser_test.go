package web_test

import (
	"bytes"
	"encoding/json"
	"image"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/web/guidetest"
)

// lookIn is the guide's look (autocapture.ts) at the card it finds in
// img, drawn as the live loop draws a frame; nil when it finds none.
func lookIn(tb *chromium.Tab, img image.Image) []float64 {
	tb.T.Helper()
	raw := chromium.Eval[string](tb, inSmallFrame(tb.T.(*testing.T), img, `const q = G.findCard(g); return JSON.stringify(q ? G.look(g, q) : null);`))
	var look []float64
	check(tb.T.(*testing.T), json.Unmarshal([]byte(raw), &look))
	return look
}

func lookDiff(a, b []float64) float64 {
	var sum float64
	for i := range a {
		d := a[i] - b[i]
		if d < 0 {
			d = -d
		}
		sum += d
	}
	return sum / float64(len(a))
}

// After a refused photo the guide takes no photo by itself until the
// card was moved, taken away or changed (autocapture.ts, Refused). Its
// "changed" is the look's difference: the same card seen again (other
// blur, distance, turn) must stay under limits.changed, the card
// turned over (a license's front and back, an ID card's front and back)
// over twice it. The figures it logs are limits.changed's
// evidence.
func TestRefusedCardLookInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	face := foremanFace(t)
	tb := guidePage(t)
	changed := chromium.Eval[float64](tb, `G.limits.changed`)
	ref := lookIn(tb, guidetest.Front(face, 0.6, nil))
	if ref == nil {
		t.Fatal("no card found in the reference front")
	}
	same := map[string]image.Image{
		"blur 1.5":  guidetest.Front(face, 0.6, func(s *cardtest.Scene) { s.Blur = 1.5 }),
		"blur 3":    guidetest.Front(face, 0.6, func(s *cardtest.Scene) { s.Blur = 3 }),
		"closer":    guidetest.Front(face, 0.7, nil),
		"farther":   guidetest.Front(face, 0.5, nil),
		"turned 8°": guidetest.Front(face, 0.6, func(s *cardtest.Scene) { s.RotationDeg = 12 }),
	}
	var worstSame float64
	for name, img := range same {
		l := lookIn(tb, img)
		if l == nil {
			t.Errorf("same card, %s: no card found", name)
			continue
		}
		d := lookDiff(ref, l)
		worstSame = max(worstSame, d)
		t.Logf("the same front, %s: %.3f", name, d)
		if d >= changed {
			t.Errorf("the same front, %s, differs by %.3f: over limits.changed %.2f", name, d, changed)
		}
	}
	// A glare hotspot appearing is logged: the refusal for glare is
	// remedied by removing it, which then counts as a change.
	glare := lookDiff(ref, lookIn(tb, guidetest.Front(face, 0.6, func(s *cardtest.Scene) { s.Glare = true })))
	t.Logf("the same front with a glare hotspot: %.3f", glare)
	licenseBack, err := guidetest.Back(1600, 4)
	check(t, err)
	idBack, err := flowtest.IDCardBackPhoto(nil, 3)
	check(t, err)
	idBackImg, _, err := image.Decode(bytes.NewReader(idBack))
	check(t, err)
	idFrontImg, _, err := image.Decode(bytes.NewReader(front(t, face)))
	check(t, err)
	bestOther := 10.0
	for _, c := range []struct {
		name  string
		front image.Image
		back  image.Image
	}{
		{"license", guidetest.Front(face, 0.6, nil), licenseBack},
		{"ID card", idFrontImg, idBackImg},
	} {
		f, b := lookIn(tb, c.front), lookIn(tb, c.back)
		if f == nil || b == nil {
			t.Errorf("%s: a side without a card found (front %v, back %v)", c.name, f != nil, b != nil)
			continue
		}
		d := lookDiff(f, b)
		bestOther = min(bestOther, d)
		t.Logf("%s turned over: %.3f", c.name, d)
		if d <= 2*changed {
			t.Errorf("%s turned over differs by only %.3f: within 2 × limits.changed %.2f", c.name, d, changed)
		}
	}
	t.Logf("limits.changed %.2f: the same card at most %.3f, turned over at least %.3f", changed, worstSame, bestOther)
}
