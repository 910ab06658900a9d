package proxy

import (
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Every trigger alone and in combination (OR), and no trigger (every
// order).
func TestTriggersMatch(t *testing.T) {
	tx := []bigcommerce.ShipTo{{State: "Texas", CountryISO2: "US"}}
	on := []bigcommerce.ShipTo{{State: "Ontario", CountryISO2: "ca"}}
	ny := []bigcommerce.ShipTo{{State: "New York", CountryISO2: "US"}}
	total := Triggers{MinTotalCents: 5000}
	country := Triggers{ShipToCountries: []string{"CA"}}
	state := Triggers{ShipToStates: []string{"texas"}}
	all := Triggers{MinTotalCents: 5000, ShipToCountries: []string{"CA"}, ShipToStates: []string{"Texas"}}
	for _, c := range []struct {
		name string
		t    Triggers
		o    OrderFacts
		want bool
	}{
		{"none set: any order", Triggers{}, OrderFacts{}, true},
		{"total: over", total, OrderFacts{TotalCents: 6000}, true},
		{"total: exactly", total, OrderFacts{TotalCents: 5000}, true},
		{"total: under", total, OrderFacts{TotalCents: 4999}, false},
		{"country: to it (any case)", country, OrderFacts{ShipTo: on}, true},
		{"country: elsewhere", country, OrderFacts{ShipTo: tx}, false},
		{"country: nothing shipped", country, OrderFacts{}, false},
		{"state: to it (any case)", state, OrderFacts{ShipTo: tx}, true},
		{"state: elsewhere", state, OrderFacts{ShipTo: ny}, false},
		{"all: total only", all, OrderFacts{TotalCents: 9000, ShipTo: ny}, true},
		{"all: country only", all, OrderFacts{TotalCents: 100, ShipTo: on}, true},
		{"all: state only", all, OrderFacts{TotalCents: 100, ShipTo: tx}, true},
		{"all: one consignment of two", all, OrderFacts{TotalCents: 100, ShipTo: append(append([]bigcommerce.ShipTo{}, ny...), tx...)}, true},
		{"all: none", all, OrderFacts{TotalCents: 100, ShipTo: ny}, false},
	} {
		if got, why := c.t.Match(c.o); got != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, got, why, c.want)
		}
	}
}

func TestParseCents(t *testing.T) {
	for in, want := range map[string]int64{"50": 5000, "50.5": 5050, "49.99": 4999, "60.0000": 6000, "49.999": 4999, "0": 0, " 7.10 ": 710} {
		if got, err := ParseCents(in); err != nil || got != want {
			t.Errorf("ParseCents(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "1e3", "1.2.3", "$50", "50,00", ".5", "9999999999999"} {
		if _, err := ParseCents(bad); err == nil {
			t.Errorf("ParseCents(%q) accepted", bad)
		}
	}
	if FormatCents(5050) != "50.50" || FormatCents(0) != "" {
		t.Errorf("FormatCents: %q %q", FormatCents(5050), FormatCents(0))
	}
}

func FuzzParseCents(f *testing.F) {
	for _, s := range []string{"50", "60.0000", "", "1.", "00000000000.99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCents(s)
		if err == nil && (c < 0 || c > maxCents) {
			t.Fatalf("ParseCents(%q) = %d", s, c)
		}
	})
}

// What no address can match is refused; the rest is tidied.
func TestTriggersNormalize(t *testing.T) {
	tr := Triggers{ShipToCountries: []string{" us", "US", "ca"}, ShipToStates: []string{" Texas ", "texas"}}
	if err := tr.normalize(); err != nil || len(tr.ShipToCountries) != 2 || tr.ShipToCountries[0] != "US" || len(tr.ShipToStates) != 1 || tr.ShipToStates[0] != "Texas" {
		t.Fatalf("%+v, %v", tr, err)
	}
	for _, bad := range []Triggers{{MinTotalCents: -1}, {ShipToCountries: []string{"USA"}}, {ShipToCountries: []string{"U1"}}, {ShipToStates: []string{" "}}} {
		if err := bad.normalize(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
