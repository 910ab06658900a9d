package ipintel_test

import (
	"math"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/ipintel"
)

// zips is a Gazetteer over real GeoNames rows (US.txt of the pinned data).
type zips map[string][4]any

func (z zips) USZIP(zip string) (string, string, float64, float64, bool) {
	r, ok := z[zip]
	if !ok {
		return "", "", 0, 0, false
	}
	return r[0].(string), r[1].(string), r[2].(float64), r[3].(float64), true
}

var gazetteer = zips{
	"19103": {"Philadelphia", "PA", 39.9513, -75.1741},
	"18101": {"Allentown", "PA", 40.6026, -75.4691},
	"15213": {"Pittsburgh", "PA", 40.444, -79.9552},
	"90012": {"Los Angeles", "CA", 34.0614, -118.2385},
	"08608": {"Trenton", "NJ", 40.2204, -74.7622},
}

func TestLocateConsistency(t *testing.T) {
	svc := &ipintel.Service{Data: data, Tor: fixtureExits(t), Places: gazetteer}
	philly := ipintel.Address{City: "PHILADELPHIA", Jurisdiction: "PA", PostalCode: "19103-1234", Country: "USA"}
	yes, no := true, false
	cases := []struct {
		name       string
		addr       ipintel.Address
		ip         string // "" = none recorded
		result     string
		likelihood string
		scoreMin   int
		scoreMax   int
		gran       string
		km         float64 // -1 = null
		reasons    []string
		anonymized *bool
	}{
		{"same city: Philadelphia ZIP, Verizon Plymouth Meeting (19 km)", philly, "174.198.1.1",
			ipintel.Consistent, ipintel.LikelihoodYes, 90, 95, ipintel.GranularityCity, 18.8, nil, &no},
		{"same area: Allentown ZIP, Comcast Gilbertsville (32 km)", ipintel.Address{Jurisdiction: "PA", PostalCode: "18101"}, "73.165.12.10",
			ipintel.Consistent, ipintel.LikelihoodYes, 80, 92, ipintel.GranularityCity, 32.3, nil, &no},
		{"nearby across a state line: Trenton NJ ZIP, Comcast Gilbertsville PA (69 km)", ipintel.Address{Jurisdiction: "NJ", PostalCode: "08608"}, "73.165.12.10",
			ipintel.Consistent, ipintel.LikelihoodProbably, 60, 79, ipintel.GranularityCity, 68.8, nil, &no},
		{"same state, far: Pittsburgh ZIP, Comcast Gilbertsville (372 km)", ipintel.Address{Jurisdiction: "PA", PostalCode: "15213"}, "73.165.12.10",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 35, 35, ipintel.GranularityCity, 372.3, nil, &no},
		{"far away: Los Angeles ZIP, Comcast Gilbertsville", ipintel.Address{Jurisdiction: "CA", PostalCode: "90012"}, "73.165.12.10",
			ipintel.Inconsistent, ipintel.LikelihoodNo, 0, 0, ipintel.GranularityCity, 3806.2, []string{ipintel.ReasonOutsideRange}, &no},
		{"hosting: AWS Ashburn", philly, "3.80.1.1",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityCity, 222.7, []string{ipintel.ReasonHostingProvider}, &yes},
		{"Tor exit in Berlin", philly, "185.220.101.1",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityCountry, 6515, []string{ipintel.ReasonTor, ipintel.ReasonOutsideRange}, &yes},
		{"IP not located (loopback)", philly, "127.0.0.1",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityNone, -1, []string{ipintel.ReasonIPNotLocated}, nil},
		{"routed IP without a location", philly, "198.51.100.20",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityNone, -1, []string{ipintel.ReasonIPNotLocated}, &no},
		{"no IP recorded", philly, "",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityNone, -1, []string{ipintel.ReasonIPNotLocated}, nil},
		{"address not geocodable: a Mexican license", ipintel.Address{City: "MONTERREY", Jurisdiction: "NL", Country: "MEX"}, "174.198.1.1",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityNone, -1, []string{ipintel.ReasonAddressNotGeocoded}, &no},
		{"address not geocodable: unknown jurisdiction", ipintel.Address{Jurisdiction: "ZZ", PostalCode: "19103"}, "174.198.1.1",
			ipintel.Inconclusive, ipintel.LikelihoodMaybe, 50, 50, ipintel.GranularityNone, -1, []string{ipintel.ReasonAddressNotGeocoded}, &no},
		{"unknown ZIP: compared by state name", ipintel.Address{City: "Plymouth Meeting", Jurisdiction: "PA", PostalCode: "19999"}, "174.198.1.1",
			ipintel.Consistent, ipintel.LikelihoodYes, 85, 85, ipintel.GranularityCity, -1, nil, &no},
		{"ZIP of another state than the license's: not used", ipintel.Address{Jurisdiction: "CA", PostalCode: "19103"}, "174.198.1.1",
			ipintel.Inconsistent, ipintel.LikelihoodNo, 20, 20, ipintel.GranularitySubdivision, -1, []string{ipintel.ReasonOutsideRange}, &no},
		{"Canada, same city: Toronto, Rogers Toronto", ipintel.Address{City: "TORONTO", Jurisdiction: "ON", PostalCode: "M5V 2T6", Country: "CAN"}, "99.230.4.1",
			ipintel.Consistent, ipintel.LikelihoodYes, 85, 85, ipintel.GranularityCity, -1, nil, &no},
		{"Canada, same province: Toronto, Bell Ottawa", ipintel.Address{City: "TORONTO", Jurisdiction: "ON", Country: "CAN"}, "70.50.1.1",
			ipintel.Consistent, ipintel.LikelihoodProbably, 65, 65, ipintel.GranularitySubdivision, -1, nil, &no},
		{"Canada, accents folded: Montréal QC, Videotron Montreal", ipintel.Address{City: "Montréal", Jurisdiction: "QC"}, "24.48.0.1",
			ipintel.Consistent, ipintel.LikelihoodYes, 85, 85, ipintel.GranularityCity, -1, nil, &no},
		{"Canada, another province: Montreal QC, Bell Ottawa ON", ipintel.Address{City: "MONTREAL", Jurisdiction: "QC", Country: "CAN"}, "70.50.1.1",
			ipintel.Inconsistent, ipintel.LikelihoodNo, 20, 20, ipintel.GranularitySubdivision, -1, []string{ipintel.ReasonOutsideRange}, &no},
		{"another country: a Toronto license, Verizon Pennsylvania", ipintel.Address{City: "TORONTO", Jurisdiction: "ON", Country: "CAN"}, "174.198.1.1",
			ipintel.Inconsistent, ipintel.LikelihoodNo, 5, 5, ipintel.GranularityCountry, -1, []string{ipintel.ReasonOutsideRange}, &no},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			submit := c.ip
			got, err := svc.Locate(c.addr, c.ip, submit)
			if err != nil {
				t.Fatal(err)
			}
			if got.Result != c.result || got.MatchLikelihood != c.likelihood || got.Granularity != c.gran ||
				got.MatchScore < c.scoreMin || got.MatchScore > c.scoreMax {
				t.Errorf("got %s/%s %d %s, want %s/%s %d–%d %s", got.Result, got.MatchLikelihood, got.MatchScore, got.Granularity,
					c.result, c.likelihood, c.scoreMin, c.scoreMax, c.gran)
			}
			if (c.km < 0) != (got.DistanceKM == nil) || (got.DistanceKM != nil && math.Abs(*got.DistanceKM-c.km) > 0.1) {
				t.Errorf("distance %v, want %v", fmtKM(got.DistanceKM), c.km)
			}
			want := c.reasons
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(got.Reasons, want) {
				t.Errorf("reasons %q, want %q", got.Reasons, want)
			}
			if (got.AnonymizedConnection == nil) != (c.anonymized == nil) ||
				(got.AnonymizedConnection != nil && *got.AnonymizedConnection != *c.anonymized) {
				t.Errorf("anonymized_connection %v, want %v", fmtBool(got.AnonymizedConnection), fmtBool(c.anonymized))
			}
			if got.ConnectionChanged {
				t.Error("connection_changed with one IP")
			}
		})
	}
}

func TestLocateConnectionChanged(t *testing.T) {
	svc := &ipintel.Service{Data: data, Tor: fixtureExits(t), Places: gazetteer}
	addr := ipintel.Address{Jurisdiction: "PA", PostalCode: "19103"}
	for _, c := range []struct {
		back, submit string
		changed      bool
		located      string // the IP the location is taken from
	}{
		{"174.198.1.1", "174.198.1.1", false, "Plymouth Meeting"},
		{"174.198.1.1", "73.165.12.10", true, "Gilbertsville"},
		{"::ffff:174.198.1.1", "174.198.1.1", false, "Plymouth Meeting"},
		{"", "174.198.1.1", false, "Plymouth Meeting"},
		{"174.198.1.1", "", false, "Plymouth Meeting"},
		{"174.198.1.1", "not an ip", false, "Plymouth Meeting"},
	} {
		got, err := svc.Locate(addr, c.back, c.submit)
		if err != nil {
			t.Fatal(err)
		}
		if got.ConnectionChanged != c.changed {
			t.Errorf("%q → %q: connection_changed %v, want %v", c.back, c.submit, got.ConnectionChanged, c.changed)
		}
	}
	// Tor at the barcode step, a home line at submission: the connection
	// counts as anonymized (either IP), and the location is the last one's.
	got, _ := svc.Locate(addr, "185.220.101.1", "174.198.1.1")
	if !got.ConnectionChanged || got.AnonymizedConnection == nil || !*got.AnonymizedConnection ||
		!slices.Contains(got.Reasons, ipintel.ReasonTor) || got.Granularity != ipintel.GranularityCity {
		t.Errorf("Tor then home: %+v", got)
	}
}

func TestAssessPicksSubmitIP(t *testing.T) {
	svc := &ipintel.Service{Data: data, Tor: fixtureExits(t)}
	a, ok, err := svc.Connection("174.198.1.1", "3.80.1.1")
	if err != nil || !ok || a.IP != netip.MustParseAddr("3.80.1.1") || !a.Proxy {
		t.Fatalf("submit IP wins: %+v %v %v", a, ok, err)
	}
	a, ok, _ = svc.Connection("174.198.1.1", "")
	if !ok || a.IP != netip.MustParseAddr("174.198.1.1") {
		t.Fatalf("back IP when submit is unknown: %+v %v", a, ok)
	}
	if _, ok, _ = svc.Connection("", "garbage"); ok {
		t.Fatal("no usable IP must say so")
	}
}

func fmtKM(p *float64) any {
	if p == nil {
		return "null"
	}
	return *p
}

func fmtBool(p *bool) any {
	if p == nil {
		return "null"
	}
	return *p
}

// FuzzLocate: any license address (the barcode is outside input) gives a
// well-formed member: known enums, a score in 0..100, a distance only
// with a finer granularity than country, known reason codes.
func FuzzLocate(f *testing.F) {
	f.Add("PHILADELPHIA", "PA", "19103-1234", "USA", "174.198.1.1")
	f.Add("Montréal (Ville-Marie)", "qc", "H2X 1Y4", "CAN", "24.48.0.1")
	f.Add("", "", "", "", "")
	f.Add("St. Louis", "MO", "63101", "", "185.220.101.1")
	codes := []string{ipintel.ReasonVPN, ipintel.ReasonTor, ipintel.ReasonHostingProvider, ipintel.ReasonImpreciseIPLocation,
		ipintel.ReasonIPNotLocated, ipintel.ReasonAddressNotGeocoded, ipintel.ReasonOutsideRange}
	f.Fuzz(func(t *testing.T, city, jurisdiction, postal, country, ip string) {
		svc := &ipintel.Service{Data: data, Tor: fixtureExitsF(), Places: gazetteer}
		c, err := svc.Locate(ipintel.Address{City: city, Jurisdiction: jurisdiction, PostalCode: postal, Country: country}, ip, ip)
		if err != nil {
			return // only the fake's corrupt record
		}
		if !slices.Contains([]string{ipintel.Consistent, ipintel.Inconsistent, ipintel.Inconclusive}, c.Result) ||
			!slices.Contains([]string{ipintel.LikelihoodYes, ipintel.LikelihoodProbably, ipintel.LikelihoodMaybe, ipintel.LikelihoodNo}, c.MatchLikelihood) ||
			c.MatchScore < 0 || c.MatchScore > 100 || c.Reasons == nil {
			t.Fatalf("malformed %+v", c)
		}
		for _, r := range c.Reasons {
			if !slices.Contains(codes, r) {
				t.Fatalf("unknown reason %q", r)
			}
		}
		if c.DistanceKM != nil && (*c.DistanceKM < 0 || *c.DistanceKM > 20038) {
			t.Fatalf("distance %v", *c.DistanceKM)
		}
	})
}

var fuzzExits *ipintel.ExitList

func fixtureExitsF() *ipintel.ExitList {
	if fuzzExits == nil {
		fuzzExits, _ = ipintel.ParseExitList(strings.NewReader("185.220.101.1\n203.0.113.66\n"))
	}
	return fuzzExits
}
