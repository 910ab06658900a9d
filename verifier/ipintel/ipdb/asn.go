package ipdb

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"sort"
	"strconv"
)

// asnTable maps address ranges to autonomous systems: sorted, disjoint
// ranges searched by binary search. Organisation names are stored once each.
type asnTable struct {
	ranges []asnRange
	orgs   []string
}

type asnRange struct {
	first, last netip.Addr
	asn         uint32
	org         int32
}

// ErrASNData: the ASN file is not what @ip-location-db/asn publishes.
var ErrASNData = errors.New("malformed ASN data")

// maxASNRows bounds one file (the 2026 IPv4 file has 412,000 rows).
const maxASNRows = 5_000_000

// parseASN reads the @ip-location-db/asn CSV format: first address, last
// address, AS number, organisation (quoted when it holds a comma), one range
// a line, sorted by first address, all of one address family. Anything else
// is an error naming the row.
func parseASN(r io.Reader, t *asnTable) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 4
	cr.ReuseRecord = true
	orgIndex := map[string]int32{}
	for i, o := range t.orgs {
		orgIndex[o] = int32(i)
	}
	start := len(t.ranges)
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrASNData, err)
		}
		if row > maxASNRows {
			return fmt.Errorf("%w: more than %d rows", ErrASNData, maxASNRows)
		}
		first, err1 := netip.ParseAddr(rec[0])
		last, err2 := netip.ParseAddr(rec[1])
		asn, err3 := strconv.ParseUint(rec[2], 10, 32)
		if err := errors.Join(err1, err2, err3); err != nil {
			return fmt.Errorf("%w: row %d: %w", ErrASNData, row, err)
		}
		if first.Zone() != "" || last.Zone() != "" || first.Is4() != last.Is4() || last.Less(first) {
			return fmt.Errorf("%w: row %d: %s-%s is not a range", ErrASNData, row, rec[0], rec[1])
		}
		if n := len(t.ranges); n > start {
			prev := &t.ranges[n-1]
			if prev.first.Is4() != first.Is4() || !prev.first.Less(first) {
				return fmt.Errorf("%w: row %d: %s-%s is out of order", ErrASNData, row, rec[0], rec[1])
			}
			if !prev.last.Less(first) {
				// The published data has a rare overlap (2026: one IPv4
				// row in 412,000): the later, narrower range wins, and
				// the earlier one ends where it starts.
				prev.last = first.Prev()
			}
		}
		idx, ok := orgIndex[rec[3]]
		if !ok {
			idx = int32(len(t.orgs))
			t.orgs = append(t.orgs, rec[3])
			orgIndex[rec[3]] = idx
		}
		t.ranges = append(t.ranges, asnRange{first: first, last: last, asn: uint32(asn), org: idx})
	}
	if len(t.ranges) > start && start > 0 {
		// A second file (the other family) must not interleave with the
		// first: the table stays sorted when IPv4 comes before IPv6.
		if !t.ranges[start-1].last.Less(t.ranges[start].first) {
			return fmt.Errorf("%w: files out of order (IPv4 first, then IPv6)", ErrASNData)
		}
	}
	return nil
}

// lookup is the AS announcing ip; 0 when no range holds it.
func (t *asnTable) lookup(ip netip.Addr) (uint32, string) {
	i := sort.Search(len(t.ranges), func(i int) bool { return !t.ranges[i].last.Less(ip) })
	if i == len(t.ranges) || ip.Less(t.ranges[i].first) {
		return 0, ""
	}
	r := t.ranges[i]
	return r.asn, t.orgs[r.org]
}
