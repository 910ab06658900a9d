package mrz

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// TestCodesAreISOsAndICAOs: every ISO code of the table is a country or
// territory x/text (CLDR's region data) knows by that alpha-3 code, 249 of
// them; ICAO's additions are none of ISO's; no code is listed twice.
func TestCodesAreISOsAndICAOs(t *testing.T) {
	iso := strings.Fields(iso3166)
	if len(iso) != 249 {
		t.Errorf("%d ISO 3166-1 codes, want 249", len(iso))
	}
	for _, c := range iso {
		r, err := language.ParseRegion(c)
		if err != nil || r.IsPrivateUse() || r.ISO3() != c {
			t.Errorf("%s: x/text reads %v (%v), not a country of that code", c, r, err)
		}
	}
	for _, c := range strings.Fields(icaoCodes) {
		if r, err := language.ParseRegion(c); err == nil && !r.IsPrivateUse() && r.ISO3() == c {
			t.Errorf("%s: an ISO code among ICAO's additions", c)
		}
	}
	for i := 1; i < len(codes); i++ {
		if codes[i] == codes[i-1] {
			t.Errorf("%s listed twice", codes[i])
		}
	}
}

// TestGermanyReadsAsD: Germany's one-letter code, printed "D<<", reads as D
// in both places.
func TestGermanyReadsAsD(t *testing.T) {
	zone := []string{"IDD<<T220001293<<<<<<<<<<<<<<<", "6408125<2010315D<<<<<<<<<<<<<4", "MUSTERMANN<<ERIKA<<<<<<<<<<<<<"}
	m, err := Parse(strings.Join(zone, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.IssuingState != "D" || m.Nationality != "D" {
		t.Errorf("state %q nationality %q, want D and D", m.IssuingState, m.Nationality)
	}
	if _, err := Encode(MRZ{Format: TD1, DocumentCode: "ID", IssuingState: "NLO", Nationality: "D", Surname: "X",
		DocumentNumber: "1", BirthDate: Date{64, 8, 12}, ExpiryDate: Date{20, 10, 31}}); !errors.Is(err, ErrField) {
		t.Errorf("encoding the issuing state NLO: %v, want ErrField", err)
	}
}
