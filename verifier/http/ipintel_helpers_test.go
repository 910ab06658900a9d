package http

import (
	"net/netip"

	"github.com/idgate/idgate/verifier/ipintel"
)

// fixedLocator answers IP data from a table: the flow tests' client,
// 203.0.113.9 (a documentation address), carries the record the pinned
// DB-IP and ASN data give a Comcast line in Gilbertsville, Pennsylvania.
// ipintel and ipdb test the real data; here only the wiring is under test.
type fixedLocator map[netip.Addr]ipintel.Record

func (l fixedLocator) Locate(ip netip.Addr) (ipintel.Record, error) { return l[ip], nil }

func testIPIntel() *ipintel.Service {
	return &ipintel.Service{Data: fixedLocator{
		netip.MustParseAddr("203.0.113.9"): {Located: true, Country: "US", Subdivision: "Pennsylvania", City: "Gilbertsville",
			Lat: 40.3214, Lon: -75.5626, HasPoint: true, ASN: 7922, ASOrg: "Comcast Cable Communications, LLC"},
	}}
}
