package twiliotest

import (
	"net/url"
	"strings"
)

// identityMatch answers Identity Match for number from its Subscriber
// record. Each field asked for (a query parameter given) gets a level:
// exact_match when equal ignoring case, spaces and punctuation;
// high_partial_match when one is a prefix of the other of at least three
// characters (ALEX, ALEXANDER; 123 MAIN ST, 123 MAIN STREET);
// partial_match when they share a first character; no_match otherwise;
// no_data_available when the record lacks the field. Fields not asked for
// are left out (the document makes the members non-nullable), and so is
// error_code unless the record answers one. summary_score is the share of
// asked fields that match exactly or highly, in steps of 20.
func (d *Double) identityMatch(number string, q url.Values) map[string]any {
	s, ok := d.subs[number]
	if ok && s.ErrorCode != 0 {
		return map[string]any{"error_code": s.ErrorCode, "error_message": "identity match refused by the double"}
	}
	out := map[string]any{}
	asked, strong := 0, 0
	for _, f := range []struct{ param, member, record string }{
		{"FirstName", "first_name_match", s.FirstName}, {"LastName", "last_name_match", s.LastName},
		{"AddressLine1", "address_lines_match", s.Line1}, {"City", "city_match", s.City},
		{"State", "state_match", s.State}, {"PostalCode", "postal_code_match", s.PostalCode},
	} {
		if !q.Has(f.param) {
			continue
		}
		asked++
		level := compare(q.Get(f.param), f.record)
		if level == "exact_match" || level == "high_partial_match" {
			strong++
		}
		out[f.member] = level
	}
	if asked > 0 {
		out["summary_score"] = strong * 5 / asked * 20
	}
	return out
}

func compare(given, record string) string {
	g, r := fold(given), fold(record)
	switch {
	case r == "":
		return "no_data_available"
	case g == r:
		return "exact_match"
	case len(g) >= 3 && len(r) >= 3 && (strings.HasPrefix(g, r) || strings.HasPrefix(r, g)):
		return "high_partial_match"
	case g != "" && g[0] == r[0]:
		return "partial_match"
	}
	return "no_match"
}

// fold upper-cases s and keeps only its letters and digits.
func fold(s string) string {
	var b strings.Builder
	for _, c := range strings.ToUpper(s) {
		if ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}
