package verifier

import (
	"testing"

	"github.com/idgate/idgate/verifier/license"
)

// TestDeriveType runs the documented rule (docs/decisions.md, Verifications) over every combination of the five
// switches and of requested-field sets (none, name/address only, beyond
// only, both), for every field of the catalog in each role.
func TestDeriveType(t *testing.T) {
	var nameAddr, beyond []string
	for _, f := range license.Catalog {
		if f.Class == license.ClassNameAddress {
			nameAddr = append(nameAddr, f.Name)
		} else {
			beyond = append(beyond, f.Name)
		}
	}
	if len(nameAddr) != 9 || len(beyond) != 21 {
		t.Fatalf("catalog changed: %d name/address, %d beyond", len(nameAddr), len(beyond))
	}
	type fieldSet struct {
		name   string
		fields []string
		hasNA  bool
		hasBey bool
	}
	var sets []fieldSet
	sets = append(sets, fieldSet{"none", nil, false, false})
	for _, n := range nameAddr {
		sets = append(sets, fieldSet{"only " + n, []string{n}, true, false})
	}
	for _, b := range beyond {
		sets = append(sets, fieldSet{"only " + b, []string{b}, false, true})
		sets = append(sets, fieldSet{"last_name+" + b, []string{"last_name", b}, true, true})
	}
	sets = append(sets, fieldSet{"all name/address", nameAddr, true, false})
	for mask := 0; mask < 1<<5; mask++ {
		bit := func(i int) bool { return mask&(1<<i) != 0 }
		for _, fs := range sets {
			s := Settings{RequestedFields: fs.fields, PhoneVerification: bit(0), AddressVerification: bit(1),
				IncludeLicensePhoto: bit(2), FrontBarcodeMatch: bit(3), LocationConsistency: bit(4)}
			want := TypeCore
			switch {
			case bit(0) || bit(1) || bit(2) || bit(3) || fs.hasBey:
				want = TypeFull
			case fs.hasNA || bit(4):
				want = TypeBasic
			}
			if got := DeriveType(s); got != want {
				t.Errorf("%s, switches %05b: %s, want %s", fs.name, mask, got, want)
			}
		}
	}
}
