package proxy

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Triggers say which orders need verification. None set: every order. Set:
// an order needs verification when any one matches (OR). The order guard
// reads them on the order; before checkout the status reads the total on
// the cart when it is the only trigger (Service.cartRequires), since the
// shipping address is not known until checkout.
type Triggers struct {
	// MinTotalCents: orders whose total with tax is at least this, in
	// hundredths of the store's currency; 0 is no such trigger.
	MinTotalCents int64 `json:"min_total_cents,omitempty"`
	// ShipToCountries: orders shipping to any of these countries (ISO
	// 3166-1 alpha-2, "US").
	ShipToCountries []string `json:"ship_to_countries,omitempty"`
	// ShipToStates: orders shipping to any of these states or provinces,
	// by the name the store's addresses use ("Texas"), in any country.
	ShipToStates []string `json:"ship_to_states,omitempty"`
}

// OrderFacts are what the triggers read of an order.
type OrderFacts struct {
	TotalCents int64
	ShipTo     []bigcommerce.ShipTo
}

// Any reports whether a trigger is set (else every order needs
// verification).
func (t Triggers) Any() bool {
	return t.MinTotalCents > 0 || len(t.ShipToCountries) > 0 || len(t.ShipToStates) > 0
}

// NeedsShipTo reports whether matching reads the shipping addresses.
func (t Triggers) NeedsShipTo() bool { return len(t.ShipToCountries) > 0 || len(t.ShipToStates) > 0 }

// Match reports whether an order needs verification, and why (for the
// log): every order when no trigger is set, else the first that matches.
func (t Triggers) Match(o OrderFacts) (bool, string) {
	if !t.Any() {
		return true, "every order"
	}
	if t.MinTotalCents > 0 && o.TotalCents >= t.MinTotalCents {
		return true, "order total at or over the minimum"
	}
	for _, a := range o.ShipTo {
		if slices.Contains(t.ShipToCountries, strings.ToUpper(a.CountryISO2)) {
			return true, "ships to " + strings.ToUpper(a.CountryISO2)
		}
		if slices.ContainsFunc(t.ShipToStates, func(s string) bool { return strings.EqualFold(s, strings.TrimSpace(a.State)) }) {
			return true, "ships to " + a.State
		}
	}
	return false, "no trigger matches"
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// normalize trims, uppercases the countries and drops duplicates; it
// refuses what no address could match.
func (t *Triggers) normalize() error {
	if t.MinTotalCents < 0 {
		return fmt.Errorf("minimum order total: want zero or more")
	}
	var countries []string
	for _, c := range t.ShipToCountries {
		c = strings.ToUpper(strings.TrimSpace(c))
		if !countryCode.MatchString(c) {
			return fmt.Errorf("ship-to country %q: want a two-letter ISO code such as US", c)
		}
		if !slices.Contains(countries, c) {
			countries = append(countries, c)
		}
	}
	var states []string
	for _, s := range t.ShipToStates {
		s = strings.TrimSpace(s)
		if s == "" || len(s) > 100 {
			return fmt.Errorf("ship-to state %q: want a name of 1 to 100 characters", s)
		}
		if !slices.ContainsFunc(states, func(x string) bool { return strings.EqualFold(x, s) }) {
			states = append(states, s)
		}
	}
	t.ShipToCountries, t.ShipToStates = countries, states
	return nil
}

// maxCents bounds amounts so cents never overflow (a trillion).
const maxCents = 1e14

// ParseCents reads a non-negative decimal amount ("60", "60.5",
// "60.0000", as the platform writes totals) as hundredths, truncating
// digits past the second: a total of 49.999 is not 50.
func ParseCents(s string) (int64, error) {
	s = strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" || len(whole) > 12 {
		return 0, fmt.Errorf("amount %q: want a number such as 50 or 49.99", s)
	}
	frac = (frac + "00")[:2]
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || n > maxCents {
		return 0, fmt.Errorf("amount %q: too large", s)
	}
	return n, nil
}

// FormatCents writes hundredths as a decimal amount ("50.00"); 0 is "".
func FormatCents(c int64) string {
	if c <= 0 {
		return ""
	}
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

// SplitList reads a comma-separated list as typed (a flag, a form field),
// dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
