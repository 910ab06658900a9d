package license

import (
	"errors"
	"testing"
)

// TestMagstripeExpiryCodes: track 2's expiry month 77 never expires, 88
// expires at the end of the birth month, 99 on the birthday, in year YY.
func TestMagstripeExpiryCodes(t *testing.T) {
	for _, tc := range []struct {
		exp         string
		want        Date
		nonExpiring bool
	}{
		{"2877", Date{}, true},
		{"2888", day(2028, 4, 30), false},
		{"2899", day(2028, 4, 15), false},
		{"2806", day(2028, 6, 30), false},
	} {
		raw := "%CAANYTOWN^DOE$JANE$Q^1 MAIN ST^?;636014123456789=" + tc.exp + "19900415=?"
		l, err := ParseAAMVA([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.exp, err)
		}
		if l.ExpiryDate != tc.want || l.NonExpiring != tc.nonExpiring || l.DOB != day(1990, 4, 15) {
			t.Errorf("%s: expiry %s non-expiring %v dob %s", tc.exp, l.ExpiryDate, l.NonExpiring, l.DOB)
		}
		if l.LastName != "DOE" || l.FirstNames != "JANE" || l.MiddleNames != "Q" || l.IssuingJurisdiction != "CA" || l.DocumentNumber != "123456789" {
			t.Errorf("%s: %+v", tc.exp, l)
		}
		if c := l.Check(at(day(2029, 1, 1))); c.Expired == tc.nonExpiring {
			t.Errorf("%s: expired %v in 2029", tc.exp, c.Expired)
		}
	}
}

func TestMagstripeWithoutData(t *testing.T) {
	if _, err := ParseAAMVA([]byte("%^^?")); !errors.Is(err, ErrNotAAMVA) {
		t.Errorf("err %v", err)
	}
}
