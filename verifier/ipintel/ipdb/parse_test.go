package ipdb

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

const asnFixture = `1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."
1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd
214.95.0.0,215.0.255.255,749,United States Department of Defense (DoD)
215.0.0.0,215.1.3.255,721,DoD Network Information Center
`

const asn6Fixture = `2001::,2001::ffff:ffff:ffff:ffff:ffff:ffff,6939,Hurricane Electric LLC
2001:4:112::,2001:4:112:ffff:ffff:ffff:ffff:ffff,112,DNS-OARC
`

func TestParseASN(t *testing.T) {
	var tab asnTable
	if err := parseASN(strings.NewReader(asnFixture), &tab); err != nil {
		t.Fatal(err)
	}
	if err := parseASN(strings.NewReader(asn6Fixture), &tab); err != nil {
		t.Fatal(err)
	}
	for ip, want := range map[string]uint32{
		"1.0.0.0": 13335, "1.0.0.255": 13335, "1.0.1.0": 0, "1.0.5.9": 38803, "0.0.0.1": 0,
		// The published overlap: the later, narrower range wins.
		"214.255.0.1": 749, "215.0.0.1": 721, "215.1.3.255": 721, "215.1.4.0": 0,
		"2001::1": 6939, "2001:4:112::5": 112, "2001:4:113::": 0, "255.255.255.255": 0,
	} {
		if got, org := tab.lookup(netip.MustParseAddr(ip)); got != want || (got != 0) != (org != "") {
			t.Errorf("%s: AS%d %q, want AS%d", ip, got, org, want)
		}
	}
	if len(tab.orgs) != 6 {
		t.Errorf("organisations stored %d times, want 6 (one each)", len(tab.orgs))
	}
}

func TestParseASNRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"three fields":   "1.0.0.0,1.0.0.255,13335\n",
		"bad address":    "1.0.0.300,1.0.0.255,1,x\n",
		"bad asn":        "1.0.0.0,1.0.0.255,AS1,x\n",
		"reversed":       "1.0.0.9,1.0.0.1,1,x\n",
		"mixed family":   "1.0.0.0,::1,1,x\n",
		"out of order":   "1.0.4.0,1.0.7.255,1,x\n1.0.0.0,1.0.0.255,2,y\n",
		"repeated start": "1.0.4.0,1.0.7.255,1,x\n1.0.4.0,1.0.4.9,2,y\n",
		"bad quoting":    "1.0.0.0,1.0.0.255,1,\"x\n",
	} {
		var tab asnTable
		if err := parseASN(strings.NewReader(text), &tab); !errors.Is(err, ErrASNData) {
			t.Errorf("%s: %v, want ErrASNData", name, err)
		}
	}
	var tab asnTable
	_ = parseASN(strings.NewReader(asn6Fixture), &tab)
	if err := parseASN(strings.NewReader(asnFixture), &tab); !errors.Is(err, ErrASNData) {
		t.Errorf("IPv4 after IPv6: %v, want ErrASNData", err)
	}
}

func FuzzParseASN(f *testing.F) {
	f.Add(asnFixture)
	f.Add(asn6Fixture)
	f.Fuzz(func(t *testing.T, text string) {
		var tab asnTable
		if err := parseASN(strings.NewReader(text), &tab); err != nil {
			return
		}
		// Accepted: sorted and disjoint, so every range finds itself.
		for i, r := range tab.ranges {
			if i > 0 && !tab.ranges[i-1].last.Less(r.first) {
				t.Fatalf("ranges %d and %d overlap", i-1, i)
			}
			if got, _ := tab.lookup(r.first); got != r.asn {
				t.Fatalf("range %d does not find its first address", i)
			}
		}
	})
}

const zipFixture = "US\t19103\tPhiladelphia\tPennsylvania\tPA\tPhiladelphia\t101\t\t\t39.9513\t-75.1741\t4\n" +
	"US\t00601\tAdjuntas\tPuerto Rico\tPR\tAdjuntas\t001\t\t\t18.1788\t-66.7516\t\n" +
	"CA\tM5V\tToronto\tOntario\tON\t\t\t\t\t43.64\t-79.39\t\n"

func TestParseZIPs(t *testing.T) {
	z, err := parseZIPs(strings.NewReader(zipFixture))
	if err != nil {
		t.Fatal(err)
	}
	if p := z["19103"]; len(z) != 2 || p.city != "Philadelphia" || p.state != "PA" || p.lat < 39.95 || p.lon > -75.17 {
		t.Fatalf("got %+v", z)
	}
	for name, text := range map[string]string{
		"eleven fields":    "US\t19103\tPhiladelphia\tPennsylvania\tPA\tPhiladelphia\t101\t\t39.9513\t-75.1741\t4\n",
		"bad latitude":     "US\t19103\tP\tP\tPA\tP\t101\t\t\tnorth\t-75.1741\t4\n",
		"latitude past 90": "US\t19103\tP\tP\tPA\tP\t101\t\t\t91\t-75.1741\t4\n",
		"NaN":              "US\t19103\tP\tP\tPA\tP\t101\t\t\tNaN\t-75.1741\t4\n",
	} {
		if _, err := parseZIPs(strings.NewReader(text)); !errors.Is(err, ErrZIPData) {
			t.Errorf("%s: %v, want ErrZIPData", name, err)
		}
	}
}

func FuzzParseZIPs(f *testing.F) {
	f.Add(zipFixture)
	f.Fuzz(func(t *testing.T, text string) {
		z, err := parseZIPs(strings.NewReader(text))
		if err != nil {
			return
		}
		for zip, p := range z {
			if !isZIP5(zip) || !(p.lat >= -90 && p.lat <= 90) || !(p.lon >= -180 && p.lon <= 180) {
				t.Fatalf("accepted %q %+v", zip, p)
			}
		}
	})
}
