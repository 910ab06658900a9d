package address

import (
	"testing"

	"github.com/idgate/idgate/verifier/license"
)

func TestFromLicense(t *testing.T) {
	l := license.License{FirstNames: " JANE ", LastName: "DOE", Country: "USA",
		Address: license.Address{Line1: "210 KING ST", City: "SAN FRANCISCO", Jurisdiction: "ca", PostalCode: "94107-1234"}}
	q, ok := FromLicense(l)
	if !ok || q.FirstNames != "JANE" || q.State != "CA" || q.PostalCode != "94107-1234" || !q.US() {
		t.Fatalf("FromLicense = %+v, %v", q, ok)
	}
	for _, a := range []license.Address{{}, {City: "X", Jurisdiction: "CA", PostalCode: "94107"}, {Line1: "1 MAIN ST", City: "X"}} {
		if _, ok := FromLicense(license.License{Address: a}); ok {
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
