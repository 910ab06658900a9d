package mrz

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzParse: any input either fails with one of the coded errors or gives
// an MRZ whose lines parse again to the same zone, unchanged (a corrected
// zone is a valid one).
func FuzzParse(f *testing.F) {
	f.Add(strings.Join(specimenTD3, "\n"))
	f.Add(strings.Join(specimenTD1, "\n"))
	f.Add("P<UT0ER1KSS0N<<ANNA<MAR1A<<<<<<<<<<<<<<<<<<<\nLB98902C36UTO7408I22F12O4I59ZE184226B<<<<<IO")
	r := rand.New(rand.NewPCG(7, 7))
	for range 8 {
		f.Add(strings.Join(randomZone(f, r, TD3), "\n"))
		f.Add(strings.Join(randomZone(f, r, TD1), "\r\n"))
	}
	f.Add("")
	f.Add("<<<\n<<<")
	f.Fuzz(func(t *testing.T, zone string) {
		m, err := Parse(zone)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrCheckDigit) && !errors.Is(err, ErrAmbiguous) && !errors.Is(err, ErrField) {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		again, err := Parse(strings.Join(m.Lines, "\n"))
		if err != nil || len(again.Corrected) != 0 || strings.Join(again.Lines, "") != strings.Join(m.Lines, "") {
			t.Fatalf("%q read as %q, which reads as %+v, %v", zone, m.Lines, again, err)
		}
	})
}
