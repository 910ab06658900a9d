package tesseract

import (
	"image"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

func sample() license.License {
	return license.License{FirstNames: "JANE", MiddleNames: "ANN", LastName: "SAMPLE", DocumentNumber: "T64235789",
		DOB: license.Date{Year: 1986, Month: time.June, Day: 6}, IssueDate: license.Date{Year: 2019, Month: time.June, Day: 6},
		ExpiryDate: license.Date{Year: 2027, Month: time.June, Day: 6}, Sex: "F", EyeColor: "BRO",
		Address: license.Address{Line1: "2300 WEST BROAD STREET"}, Country: "USA"}
}

func newReader(t testing.TB) *Reader {
	r, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// photographed renders printed on a card photographed at a slant and
// returns the corrected card, as the card finder gives it.
func photographed(t *testing.T, printed license.License, vertical bool) *card.Card {
	s := cardtest.Scene{FrameW: 1400, CardW: 1000, Aspect: card.ID1Aspect, RotationDeg: 4, Keystone: 0.03, Blur: 0.8, Seed: 3,
		Vertical: vertical, Front: &cardtest.Front{Lines: cardtest.FrontLines(printed)}}
	img, _ := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestReadFront: a genuine card matches, each altered field is caught,
// and a washed-out front is unreadable, never a mismatch.
func TestReadFront(t *testing.T) {
	r := newReader(t)
	l := sample()
	read := func(c *card.Card) license.FrontMatch {
		p, words, err := r.ReadFront(c.Image)
		if err != nil {
			t.Fatal(err)
		}
		m := license.CompareFront(l, p)
		t.Logf("%s %+v from %d words", m.Result, m.Fields, len(words))
		return m
	}
	if m := read(photographed(t, l, false)); m.Result != license.FieldMatch {
		t.Errorf("genuine front: %+v", m)
	}
	for _, a := range []cardtest.Alteration{cardtest.AlterLastName, cardtest.AlterDOB, cardtest.AlterNumber} {
		if m := read(photographed(t, cardtest.Altered(l, a), false)); m.Result != license.FieldMismatch {
			t.Errorf("front with %s altered: %+v", a, m)
		}
	}
	s := cardtest.Scene{Aspect: card.ID1Aspect, Front: &cardtest.Front{Lines: cardtest.FrontLines(l), Smudge: 0.9}}
	if m := read(&card.Card{Image: s.Card()}); m.Result != license.FieldUnreadable {
		t.Errorf("washed-out front: %+v", m)
	}
}

// TestReadFrontVertical: the under-21 layout, read on the upright card.
func TestReadFrontVertical(t *testing.T) {
	r := newReader(t)
	l := sample()
	s := cardtest.Scene{Aspect: card.ID1Aspect, Vertical: true, Front: &cardtest.Front{Lines: cardtest.FrontLines(l)}}
	// Card draws the horizontal corrected card; upright, the vertical
	// layout is it turned a quarter clockwise.
	flat := s.Card()
	b := flat.Bounds()
	up := imageRotate90(flat)
	if up.Bounds().Dx() != b.Dy() {
		t.Fatal("rotation")
	}
	p, _, err := r.ReadFront(up)
	if err != nil {
		t.Fatal(err)
	}
	if m := license.CompareFront(l, p); m.Result != license.FieldMatch {
		t.Errorf("vertical genuine front: %+v from %+v", m, p)
	}
}

// imageRotate90 turns img a quarter clockwise, as card.FindPortrait turns
// a vertical card upright.
func imageRotate90(img *image.RGBA) *image.RGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewRGBA(image.Rect(0, 0, h, w))
	for y := range w {
		for x := range h {
			copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x, y)+4], img.Pix[img.PixOffset(y, h-1-x):])
		}
	}
	return out
}
