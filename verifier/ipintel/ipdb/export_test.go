package ipdb

import (
	"strings"
	"testing"
)

// ASNRow is one parsed range, for tests.
type ASNRow struct {
	ASN uint32
	Org string
}

// ParseASNForTest parses an ASN CSV text and returns its rows.
func ParseASNForTest(t *testing.T, text string) []ASNRow {
	t.Helper()
	var tab asnTable
	if err := parseASN(strings.NewReader(text), &tab); err != nil {
		t.Fatal(err)
	}
	out := make([]ASNRow, len(tab.ranges))
	for i, r := range tab.ranges {
		out[i] = ASNRow{ASN: r.asn, Org: tab.orgs[r.org]}
	}
	return out
}
