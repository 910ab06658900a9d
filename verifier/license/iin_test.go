package license

import "testing"

// TestIINTablePinned pins every entry of Jurisdictions, listed in IIN order
// as AAMVA publishes them (the table itself is alphabetical), so that any
// change to a number, code or country is a deliberate edit of both.
func TestIINTablePinned(t *testing.T) {
	want := []struct{ iin, code, country string }{
		{"604426", "PE", "CAN"}, {"604427", "AS", "USA"}, {"604428", "QC", "CAN"},
		{"604429", "YT", "CAN"}, {"604430", "MP", "USA"}, {"604431", "PR", "USA"},
		{"604432", "AB", "CAN"}, {"604433", "NU", "CAN"}, {"604434", "NT", "CAN"},
		{"636000", "VA", "USA"}, {"636001", "NY", "USA"}, {"636002", "MA", "USA"},
		{"636003", "MD", "USA"}, {"636004", "NC", "USA"}, {"636005", "SC", "USA"},
		{"636006", "CT", "USA"}, {"636007", "LA", "USA"}, {"636008", "MT", "USA"},
		{"636009", "NM", "USA"}, {"636010", "FL", "USA"}, {"636011", "DE", "USA"},
		{"636012", "ON", "CAN"}, {"636013", "NS", "CAN"}, {"636014", "CA", "USA"},
		{"636015", "TX", "USA"}, {"636016", "NL", "CAN"}, {"636017", "NB", "CAN"},
		{"636018", "IA", "USA"}, {"636019", "GU", "USA"}, {"636020", "CO", "USA"},
		{"636021", "AR", "USA"}, {"636022", "KS", "USA"}, {"636023", "OH", "USA"},
		{"636024", "VT", "USA"}, {"636025", "PA", "USA"}, {"636026", "AZ", "USA"},
		{"636028", "BC", "CAN"}, {"636029", "OR", "USA"}, {"636030", "MO", "USA"},
		{"636031", "WI", "USA"}, {"636032", "MI", "USA"}, {"636033", "AL", "USA"},
		{"636034", "ND", "USA"}, {"636035", "IL", "USA"}, {"636036", "NJ", "USA"},
		{"636037", "IN", "USA"}, {"636038", "MN", "USA"}, {"636039", "NH", "USA"},
		{"636040", "UT", "USA"}, {"636041", "ME", "USA"}, {"636042", "SD", "USA"},
		{"636043", "DC", "USA"}, {"636044", "SK", "CAN"}, {"636045", "WA", "USA"},
		{"636046", "KY", "USA"}, {"636047", "HI", "USA"}, {"636048", "MB", "CAN"},
		{"636049", "NV", "USA"}, {"636050", "ID", "USA"}, {"636051", "MS", "USA"},
		{"636052", "RI", "USA"}, {"636053", "TN", "USA"}, {"636054", "NE", "USA"},
		{"636055", "GA", "USA"}, {"636058", "OK", "USA"}, {"636059", "AK", "USA"},
		{"636060", "WY", "USA"}, {"636061", "WV", "USA"}, {"636062", "VI", "USA"},
	}
	if len(Jurisdictions) != len(want) {
		t.Errorf("table has %d entries, pinned %d", len(Jurisdictions), len(want))
	}
	for _, w := range want {
		j, ok := Jurisdictions[w.iin]
		if !ok || j.IIN != w.iin || j.Code != w.code || j.Country != w.country || j.Name == "" {
			t.Errorf("%s: got %+v (present %v), want %s %s", w.iin, j, ok, w.code, w.country)
		}
		if iin, ok := IINFor(w.code); !ok || iin != w.iin {
			t.Errorf("IINFor(%s) = %q, %v; want %s", w.code, iin, ok, w.iin)
		}
	}
	if iin, ok := IINFor("XX"); ok {
		t.Errorf("IINFor(XX) = %q, want none", iin)
	}
}

// TestIINTableAgreesWithFixtures checks the table against the shared
// fixtures, whose reference parses come from other parsers: every fixture
// still parses, takes its issuer from the table, keeps the IIN its
// reference parse read, and every known IIN among them is confirmed by a
// fixture whose reference state is the table's code for it.
func TestIINTableAgreesWithFixtures(t *testing.T) {
	// These IINs occur only on samples whose holder's address is in another
	// state (CA, AR); fixtures_test.go pins both as flagged mismatches.
	addressElsewhere := map[string]bool{"636026": true, "636053": true}
	seen, confirmed := map[string]bool{}, map[string]bool{}
	for _, f := range loadFixtures(t) {
		l, err := ParseAAMVA([]byte(f.Data))
		if err != nil {
			t.Errorf("%s: %v", f.Source, err)
			continue
		}
		if iso, ok := f.Reference.Fields["iso_iin"].(string); ok && iso != l.Header.IIN {
			t.Errorf("%s: IIN %q, reference read %q", f.Source, l.Header.IIN, iso)
		}
		j, ok := Jurisdictions[l.Header.IIN]
		if !ok {
			continue // the NH sample's placeholder IIN 111111
		}
		seen[j.IIN] = true
		if l.IssuingJurisdiction != j.Code {
			t.Errorf("%s: issuer %q, table says %s for %s", f.Source, l.IssuingJurisdiction, j.Code, j.IIN)
		}
		if referenceCore(f)["state"] == j.Code {
			confirmed[j.IIN] = true
		}
	}
	for iin := range seen {
		if !confirmed[iin] && !addressElsewhere[iin] {
			t.Errorf("IIN %s (%s): no fixture's reference state confirms it", iin, Jurisdictions[iin].Code)
		}
	}
	// NY, MD, CT, FL, TX, KS and MO.
	if len(confirmed) < 7 {
		t.Errorf("only %d IINs confirmed by fixtures: %v", len(confirmed), confirmed)
	}
}
