package engines_test

import (
	"context"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// FrontPrinted reads the printed fields of a front photographed upside
// down (the portrait decides which way up to read) and the comparison
// with the license it prints matches; Front reads nothing.
func TestFrontPrinted(t *testing.T) {
	e := loaded(t)
	l := license.License{FirstNames: "ALEXANDRA", LastName: "OCONNOR-SMITH", DocumentNumber: "K402771953018",
		DOB: license.Date{Year: 1971, Month: time.March, Day: 14}, ExpiryDate: license.Date{Year: 2029, Month: time.March, Day: 14},
		Address: license.Address{Line1: "77 W 5TH AVE APT 12B"}, Sex: license.SexFemale, EyeColor: "HAZ", Country: "USA"}
	s := frontScene(t)
	s.RotationDeg = 183
	s.Front = &cardtest.Front{Lines: cardtest.FrontLines(l)}
	photo := frontPhoto(t, s)
	rep, err := e.FrontPrinted(context.Background(), photo)
	if err != nil || len(rep.Problems) != 0 || rep.Printed == nil {
		t.Fatalf("report %+v, %v", rep, err)
	}
	if m := license.CompareFront(l, *rep.Printed); m.Result != license.FieldMatch {
		t.Errorf("the printed front compares %+v: %+v", m, *rep.Printed)
	}
	if rep, err := e.Front(context.Background(), photo); err != nil || rep.Printed != nil {
		t.Errorf("Front read the text (%v)", err)
	}
}
