package ipintel_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/ipintel"
)

// fakeData is a Locator over a fixed table. The records are what the
// pinned DB-IP Lite and ASN data answer for these addresses (ipdb's tests
// read the real files), copied so the domain's tests need no database;
// 198.51.100.20 (a documentation address) stands for a routed IP without a
// location record.
type fakeData map[string]ipintel.Record

func (d fakeData) Locate(ip netip.Addr) (ipintel.Record, error) {
	if ip.String() == "192.0.2.99" {
		return ipintel.Record{}, errors.New("corrupt record")
	}
	return d[ip.String()], nil
}

var data = fakeData{
	// Verizon, Plymouth Meeting PA (Philadelphia's suburbs).
	"174.198.1.1": {Located: true, Country: "US", Subdivision: "Pennsylvania", City: "Plymouth Meeting",
		Lat: 40.1023, Lon: -75.2743, HasPoint: true, ASN: 6167, ASOrg: "Verizon Business"},
	// Comcast, Gilbertsville PA.
	"73.165.12.10": {Located: true, Country: "US", Subdivision: "Pennsylvania", City: "Gilbertsville",
		Lat: 40.3214, Lon: -75.5626, HasPoint: true, ASN: 7922, ASOrg: "Comcast Cable Communications, LLC"},
	// AWS us-east-1.
	"3.80.1.1": {Located: true, Country: "US", Subdivision: "Virginia", City: "Ashburn",
		Lat: 39.0438, Lon: -77.4874, HasPoint: true, ASN: 14618, ASOrg: "Amazon.com, Inc."},
	// A Tor exit in Berlin (the fixture list has it).
	"185.220.101.1": {Located: true, Country: "DE", Subdivision: "State of Berlin", City: "Berlin",
		Lat: 52.52, Lon: 13.405, HasPoint: true, ASN: 60729, ASOrg: "Stiftung Erneuerbare Freiheit"},
	// Rogers, Toronto; Bell, Ottawa; Videotron, Montreal.
	"99.230.4.1": {Located: true, Country: "CA", Subdivision: "Ontario", City: "Toronto (Old Toronto)",
		Lat: 43.67, Lon: -79.3794, HasPoint: true, ASN: 812, ASOrg: "Rogers Communications Canada Inc."},
	"70.50.1.1": {Located: true, Country: "CA", Subdivision: "Ontario", City: "Ottawa",
		Lat: 45.4215, Lon: -75.6972, HasPoint: true, ASN: 577, ASOrg: "Bell Canada"},
	"24.48.0.1": {Located: true, Country: "CA", Subdivision: "Quebec", City: "Montreal (Ville-Marie)",
		Lat: 45.511, Lon: -73.5561, HasPoint: true, ASN: 5769, ASOrg: "Videotron Ltee"},
	"198.51.100.20": {ASN: 64500, ASOrg: "Example Networks"},
}

func TestAssess(t *testing.T) {
	s := &ipintel.Service{Data: data, Tor: fixtureExits(t)}
	cases := []struct {
		ip           string
		found, proxy bool
		typ          ipintel.ProxyType
		desc         string
	}{
		{"73.165.12.10", true, false, "", ""},
		{"3.80.1.1", true, true, ipintel.ProxyHosting, "Amazon Web Services (AS14618)"},
		{"185.220.101.1", true, true, ipintel.ProxyTor, "Tor exit relay"},
		{"::ffff:185.220.101.1", true, true, ipintel.ProxyTor, "Tor exit relay"},
		{"198.51.100.20", true, false, "", ""},
		// A listed exit the location data does not know is still found.
		{"203.0.113.66", true, true, ipintel.ProxyTor, "Tor exit relay"},
		{"127.0.0.1", false, false, "", ""},
	}
	for _, c := range cases {
		a, err := s.Assess(netip.MustParseAddr(c.ip))
		if err != nil {
			t.Fatalf("%s: %v", c.ip, err)
		}
		if a.Found != c.found || a.Proxy != c.proxy || a.Type != c.typ || !strings.Contains(a.Description, c.desc) ||
			(a.Proxy != (a.Description != "")) {
			t.Errorf("%s: got %+v, want found %v proxy %v %q %q", c.ip, a, c.found, c.proxy, c.typ, c.desc)
		}
	}
	if _, err := s.Assess(netip.MustParseAddr("192.0.2.99")); err == nil {
		t.Error("a data error must come back")
	}
	// Without an exit list, Tor is not recognised (and the service says so).
	noTor := &ipintel.Service{Data: data}
	if a, _ := noTor.Assess(netip.MustParseAddr("185.220.101.1")); a.Proxy || noTor.TorKnown() {
		t.Errorf("no exit list: %+v, TorKnown %v", a, noTor.TorKnown())
	}
}

func TestParseIP(t *testing.T) {
	for in, want := range map[string]string{"203.0.113.5": "203.0.113.5", " ::ffff:203.0.113.5 ": "203.0.113.5",
		"fe80::1%eth0": "fe80::1", "2001:db8::1": "2001:db8::1"} {
		got, err := ipintel.ParseIP(in)
		if err != nil || got.String() != want {
			t.Errorf("%q: %v %v, want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "localhost", "1.2.3", "203.0.113.5:443"} {
		if _, err := ipintel.ParseIP(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
