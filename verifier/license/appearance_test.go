package license

import (
	"context"
	"image"
	"image/png"
	"os"
	"slices"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The rule on hand-built evidence: every piece must hold, and each
// missing piece is named.
func TestAppearanceRule(t *testing.T) {
	good := Evidence{
		Card:     card.Card{Image: image.NewRGBA(image.Rect(0, 0, card.Width, card.Height)), Aspect: 1.59, AspectOK: true, Sharpness: 0.4, Glare: 0.03},
		Portrait: &card.Portrait{},
		Back:     &License{},
	}
	cases := []struct {
		name  string
		edit  func(e *Evidence)
		want  []Reason
		edges bool
	}{
		{"all pieces", func(*Evidence) {}, []Reason{}, true},
		{"nothing", func(e *Evidence) { *e = Evidence{} }, []Reason{ReasonNoCard, ReasonNoPortrait, ReasonNoBarcode}, false},
		{"blurred", func(e *Evidence) { e.CardErr = card.ErrTooBlurred }, []Reason{ReasonCardBlurred}, false},
		{"too small", func(e *Evidence) { e.Card.Image, e.CardErr = nil, card.ErrCardTooSmall }, []Reason{ReasonCardTooSmall}, false},
		{"no card", func(e *Evidence) { e.Card, e.CardErr = card.Card{}, card.ErrNoCard }, []Reason{ReasonNoCard}, false},
		{"badge shape", func(e *Evidence) { e.Card.Aspect, e.Card.AspectOK = 1.25, false }, []Reason{ReasonAspect}, true},
		{"no face", func(e *Evidence) { e.Portrait = nil }, []Reason{ReasonNoPortrait}, true},
		{"no barcode", func(e *Evidence) { e.Back = nil }, []Reason{ReasonNoBarcode}, true},
	}
	for _, tc := range cases {
		e := good
		tc.edit(&e)
		a := e.Appearance()
		if !slices.Equal(a.Reasons, tc.want) || a.EdgesOK != tc.edges || a.Real() != (len(tc.want) == 0) {
			t.Errorf("%s: edges %v real %v reasons %v, want edges %v reasons %v", tc.name, a.EdgesOK, a.Real(), a.Reasons, tc.edges, tc.want)
		}
	}
	if a := good.Appearance(); a.Glare != 0.03 || a.Sharpness != 0.4 || a.Aspect != 1.59 {
		t.Errorf("measurements not reported: %+v", a)
	}
}

// End to end on synthetic photos: a license front with a real face and a
// back with a valid barcode appear real; a face-less front, a badge-shaped
// card or a missing barcode each do not.
func TestAppearanceOnPhotos(t *testing.T) {
	set := modelstest.Set(t)
	faces, err := faceengine.Load(set.Dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(testkit.Shared(t, "testdata", "faces", "labeled", "sheldon", "sheldon2.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	portrait, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := synth.Case{Payload: Encode(sampleUS(), 10), EC: 4, Module: 3, Seed: 5, Degradation: synth.Degradation{RotationDeg: 7}}.Render()
	if err != nil {
		t.Fatal(err)
	}
	scanned, _, err := testScanner.Scan(context.Background(), back)
	if err != nil {
		t.Fatal(err)
	}
	front := func(s cardtest.Scene) Evidence {
		s.FrameW, s.CardW = 1600, 1000
		if s.Aspect == 0 {
			s.Aspect = card.ID1Aspect
		}
		img, _ := s.Render()
		ev, err := ExamineFront(img, faces)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	genuine := front(cardtest.Scene{Face: portrait, RotationDeg: 6, Keystone: 0.05, Seed: 1})
	genuine.Back = &scanned
	if a := genuine.Appearance(); !a.Real() || !a.EdgesOK || !a.AspectOK || !a.FacePresent || !a.BarcodeValid {
		t.Errorf("genuine-looking license: %+v", a)
	}
	faceless := front(cardtest.Scene{RotationDeg: -4, Seed: 2})
	faceless.Back = &scanned
	badge := front(cardtest.Scene{Face: portrait, Aspect: 1.25, RotationDeg: 3, Seed: 3})
	badge.Back = &scanned
	noBack := genuine
	noBack.Back = nil
	for name, c := range map[string]struct {
		ev   Evidence
		want Reason
	}{
		"face-less card": {faceless, ReasonNoPortrait},
		"badge shape":    {badge, ReasonAspect},
		"no barcode":     {noBack, ReasonNoBarcode},
	} {
		if a := c.ev.Appearance(); a.Real() || !slices.Equal(a.Reasons, []Reason{c.want}) {
			t.Errorf("%s: real %v reasons %v, want [%s]", name, a.Real(), a.Reasons, c.want)
		}
	}
}
