package address

import (
	"testing"

	"github.com/idgate/idgate/verifier/license"
)

func TestFromLicense(t *testing.T) {
	l := license.License{FirstNames: " JANE ", LastName: "DOE", Country: "USA",
		Address: license.Address{Line1: "210 KING ST", City: "SAN FRANCISCO", Jurisdiction: "ca", PostalCode: "94107-1234"}}
	q, ok := FromHolder(l.Holder())
	if !ok || q.FirstNames != "JANE" || q.State != "CA" || q.PostalCode != "94107-1234" || !q.US() {
		t.Fatalf("FromLicense = %+v, %v", q, ok)
	}
	for _, a := range []license.Address{{}, {City: "X", Jurisdiction: "CA", PostalCode: "94107"}, {Line1: "1 MAIN ST", City: "X"}} {
		if _, ok := FromHolder(license.License{Address: a}.Holder()); ok {
			t.Errorf("an incomplete address %+v is checked", a)
		}
	}
	ca := Query{Line1: "1 RUE", PostalCode: "H2X 1Y4", Country: "CAN"}
	if ca.US() {
		t.Error("a Canadian address is US")
	}
	if !(Query{PostalCode: "94107"}).US() || (Query{PostalCode: "H2X 1Y4"}).US() {
		t.Error("US by ZIP code is wrong")
	}
}

// TestSubscriberNames: the rule from field levels to name_at_address and
// last_name_at_address, null (ok false) whenever data the answer needs is
// missing.
func TestSubscriberNames(t *testing.T) {
	const (
		E, H, P, N, D = LevelExact, LevelHighPartial, LevelPartial, LevelNoMatch, LevelNoData
	)
	at := func(first, last Level) SubscriberMatch {
		return SubscriberMatch{FirstName: first, LastName: last, AddressLine: E, City: E, State: E, PostalCode: E}
	}
	type want struct{ full, last, ok bool }
	for _, c := range []struct {
		name string
		m    SubscriberMatch
		want want
	}{
		{"everything exact", at(E, E), want{true, false, true}},
		{"nickname and typo (high partial)", at(H, H), want{true, false, true}},
		{"household member: last name only", at(N, E), want{false, true, true}},
		{"a partial first name is not the name", at(P, E), want{false, true, true}},
		{"another name at the address", at(N, N), want{false, false, true}},
		{"last name partial", at(E, P), want{false, false, true}},
		{"no last name on record", at(E, D), want{false, false, false}},
		{"no first name on record, last matches", at(D, E), want{false, false, false}},
		{"no first name on record, last differs", at(D, N), want{false, false, true}},
		{"no record at all", SubscriberMatch{D, D, D, D, D, D}, want{false, false, false}},
		{"empty answer", SubscriberMatch{}, want{false, false, false}},
		{"the record is at another street", SubscriberMatch{E, E, N, E, E, E}, want{false, false, true}},
		{"street and ZIP only", SubscriberMatch{E, E, E, D, D, E}, want{true, false, true}},
		{"street, city and state without ZIP", SubscriberMatch{E, E, H, E, E, D}, want{true, false, true}},
		{"street, city, no state, no ZIP", SubscriberMatch{E, E, E, E, D, D}, want{false, false, false}},
		{"street matches, ZIP and city differ", SubscriberMatch{E, E, E, N, E, N}, want{false, false, true}},
		{"street unknown", SubscriberMatch{E, E, D, E, E, E}, want{false, false, false}},
		{"street unknown, ZIP and city differ: not there", SubscriberMatch{E, E, D, N, E, N}, want{false, false, true}},
		{"another street, no name data: not there", SubscriberMatch{D, D, N, E, E, E}, want{false, false, true}},
	} {
		full, last, ok := c.m.Names()
		if (want{full, last, ok}) != c.want {
			t.Errorf("%s: %+v = full %v, last only %v, ok %v; want %+v", c.name, c.m, full, last, ok, c.want)
		}
	}
}

// TestTestProvider: test verifications' stand-in answers from the form
// alone and matches no names.
func TestTestProvider(t *testing.T) {
	for q, want := range map[Query]bool{
		{Line1: "123 TEST STREET", PostalCode: "62701"}:      true,
		{Line1: "123 TEST STREET", PostalCode: "62701-0001"}: true,
		{Line1: "1 RUE X", PostalCode: "h2x 1y4"}:            true,
		{Line1: "123 TEST STREET", PostalCode: "6270"}:       false,
		{PostalCode: "62701"}:                                false,
	} {
		r, err := TestProvider{}.Verify(t.Context(), q)
		if err != nil || r.Deliverable != want || r.NamesChecked {
			t.Errorf("%+v: %+v %v", q, r, err)
		}
	}
}
