package ipintel

import (
	"math"
	"slices"
)

// Consistency is the result's location_consistency member: whether the
// connection's location agrees with the license address. Informational only:
// it never changes the overall result, and inconclusive is common (mobile
// carriers route through distant gateways) and not negative on its own.
type Consistency struct {
	// Result: consistent, inconsistent or inconclusive.
	Result string `json:"result"`
	// AnonymizedConnection is the connection flag: true for a VPN, proxy,
	// Tor or hosting-provider connection, null when that data was
	// unavailable (the IP is in no ASN data and no Tor exit list is
	// installed, or no IP was recorded).
	AnonymizedConnection *bool `json:"anonymized_connection"`
	// MatchLikelihood: yes, probably, maybe or no; MatchScore 0–100 (see
	// Service.Locate for the bands).
	MatchLikelihood string `json:"match_likelihood"`
	MatchScore      int    `json:"match_score"`
	// Granularity is the finest level both sides were compared at: city,
	// subdivision, country or none.
	Granularity string `json:"granularity"`
	// DistanceKM is the great-circle distance between the address point
	// and the IP's location, null unless both were placed finer than a
	// country.
	DistanceKM *float64 `json:"distance_km"`
	// Reasons are the codes behind the result ([] when none).
	Reasons []string `json:"reasons"`
	// ConnectionChanged: the IP at submission differs from the IP at the
	// barcode step.
	ConnectionChanged bool `json:"connection_changed"`
}

// Values of Consistency's members.
const (
	Consistent   = "consistent"
	Inconsistent = "inconsistent"
	Inconclusive = "inconclusive"

	LikelihoodYes      = "yes"
	LikelihoodProbably = "probably"
	LikelihoodMaybe    = "maybe"
	LikelihoodNo       = "no"

	GranularityCity        = "city"
	GranularitySubdivision = "subdivision"
	GranularityCountry     = "country"
	GranularityNone        = "none"

	ReasonVPN                 = "vpn"
	ReasonTor                 = "tor"
	ReasonHostingProvider     = "hosting_provider"
	ReasonImpreciseIPLocation = "imprecise_ip_location"
	ReasonIPNotLocated        = "ip_not_located"
	ReasonAddressNotGeocoded  = "address_not_geocoded"
	ReasonOutsideRange        = "outside_expected_range"
)

// Radii of the expected range (km). DB-IP Lite publishes no accuracy
// radius, so each record gets the nominal radius of its precision: a city
// record is taken to be right within 50 km, a subdivision-only record within
// 250 km; a ZIP centroid stands for its ZIP area within 10 km.
const (
	cityRadiusKM        = 50
	subdivisionRadiusKM = 250
	zipRadiusKM         = 10
	// farKM is where the score of a far connection reaches 0.
	farKM = 2000
)

// Locate is location_consistency for a license address and the IPs
// recorded at the barcode step (back) and at submission (submit); either may
// be "" when not recorded. The location compared is the submission's IP
// (else the barcode step's); the connection counts as anonymized when either
// IP is a Tor exit or a hosting provider's. An error is a failure to read the
// data, never a property of the inputs.
//
// Scoring. With a point on both sides (a US ZIP centroid and an IP record
// placed at a city or subdivision), the distance d is measured against the
// expected range R = 10 km + the record's nominal radius (60 km for a city
// record, 260 km for a subdivision record):
//
//	d ≤ R        yes       100→80   consistent
//	d ≤ 2R       probably   79→60   consistent
//	d ≤ 4R       maybe      59→35   inconclusive
//	d > 4R       no         34→0    inconsistent, outside_expected_range
//	             (reaching 0 at 4R + 2000 km); in the license's own state it
//	             stays maybe, 35, inconclusive: a carrier gateway in the same
//	             state is common
//
// Without a point on the address side (Canada, an unknown ZIP) names are
// compared: same subdivision and city yes 85 (city), same subdivision
// probably 65 (subdivision), another subdivision no 20 (inconsistent,
// outside_expected_range). Another country is no 5 (country, inconsistent,
// outside_expected_range). An IP record with no subdivision is maybe 50
// (country, inconclusive, imprecise_ip_location); imprecise_ip_location is
// also given whenever the record has no city. No IP location or no address
// is maybe 50, granularity none, inconclusive. A Tor, hosting or VPN
// connection locates the relay, not the person: the result is inconclusive,
// maybe 50, whatever the distance, with the proxy's reason code.
func (s *Service) Locate(addr Address, back, submit string) (Consistency, error) {
	c := Consistency{Reasons: []string{}}
	a, ok, err := s.Connection(back, submit)
	if err != nil {
		return Consistency{}, err
	}
	assessed := []Assessment{}
	if ok {
		assessed = append(assessed, a)
		b, bok := parseIP(back)
		if sub, sok := parseIP(submit); bok && sok && b != sub {
			c.ConnectionChanged = true
			other, err := s.Assess(b)
			if err != nil {
				return Consistency{}, err
			}
			assessed = append(assessed, other)
		}
	}
	anonymized := false
	for _, x := range assessed {
		if !x.Proxy {
			continue
		}
		anonymized = true
		reason := map[ProxyType]string{ProxyTor: ReasonTor, ProxyHosting: ReasonHostingProvider}[x.Type]
		if reason == "" {
			reason = ReasonVPN
		}
		if !slices.Contains(c.Reasons, reason) {
			c.Reasons = append(c.Reasons, reason)
		}
	}
	switch {
	case anonymized:
		c.AnonymizedConnection = ptr(true)
	case ok && a.Record.ASN != 0 && s.TorKnown():
		// Known not to be a listed proxy: the ASN data has the IP and the
		// Tor list was consulted.
		c.AnonymizedConnection = ptr(false)
	}
	place, placed := Geocode(addr, s.Places)
	switch {
	case !ok || !a.Record.Located:
		c.set(Inconclusive, LikelihoodMaybe, 50, GranularityNone, ReasonIPNotLocated)
	case !placed:
		c.set(Inconclusive, LikelihoodMaybe, 50, GranularityNone, ReasonAddressNotGeocoded)
	default:
		c.compare(place, a.Record)
	}
	if anonymized {
		c.Result, c.MatchLikelihood, c.MatchScore = Inconclusive, LikelihoodMaybe, 50
	}
	return c, nil
}

// compare places a located record against a placed address.
func (c *Consistency) compare(p Place, r Record) {
	if r.City == "" {
		c.Reasons = append(c.Reasons, ReasonImpreciseIPLocation)
	}
	switch {
	case p.Country != r.Country:
		if p.HasPoint && r.HasPoint && r.Subdivision != "" {
			c.DistanceKM = ptr(roundKM(haversineKM(p.Lat, p.Lon, r.Lat, r.Lon)))
		}
		c.set(Inconsistent, LikelihoodNo, 5, GranularityCountry, ReasonOutsideRange)
	case r.Subdivision == "" || p.Subdivision == "":
		// Only the country is known on one side.
		c.set(Inconclusive, LikelihoodMaybe, 50, GranularityCountry, "")
		if r.Subdivision == "" && r.City == "" {
			return // imprecise_ip_location already given
		}
	case p.HasPoint && r.HasPoint:
		c.byDistance(p, r)
	case sameName(p.Subdivision, r.Subdivision) && sameName(p.City, r.City):
		c.set(Consistent, LikelihoodYes, 85, GranularityCity, "")
	case sameName(p.Subdivision, r.Subdivision):
		c.set(Consistent, LikelihoodProbably, 65, GranularitySubdivision, "")
	default:
		c.set(Inconsistent, LikelihoodNo, 20, GranularitySubdivision, ReasonOutsideRange)
	}
}

// byDistance scores by the distance bands (see Service.Locate).
func (c *Consistency) byDistance(p Place, r Record) {
	g, radius := GranularityCity, float64(cityRadiusKM)
	if r.City == "" {
		g, radius = GranularitySubdivision, subdivisionRadiusKM
	}
	R := radius + zipRadiusKM
	d := haversineKM(p.Lat, p.Lon, r.Lat, r.Lon)
	c.DistanceKM = ptr(roundKM(d))
	lerp := func(hi, lo, from, to float64) int {
		return int(math.Round(hi - (hi-lo)*(d-from)/(to-from)))
	}
	switch {
	case d <= R:
		c.set(Consistent, LikelihoodYes, lerp(100, 80, 0, R), g, "")
	case d <= 2*R:
		c.set(Consistent, LikelihoodProbably, lerp(79, 60, R, 2*R), g, "")
	case d <= 4*R:
		c.set(Inconclusive, LikelihoodMaybe, lerp(59, 35, 2*R, 4*R), g, "")
	case sameName(p.Subdivision, r.Subdivision):
		c.set(Inconclusive, LikelihoodMaybe, 35, g, "")
	default:
		c.set(Inconsistent, LikelihoodNo, max(0, lerp(34, 0, 4*R, 4*R+farKM)), g, ReasonOutsideRange)
	}
}

func (c *Consistency) set(result, likelihood string, score int, granularity, reason string) {
	c.Result, c.MatchLikelihood, c.MatchScore, c.Granularity = result, likelihood, score, granularity
	if reason != "" {
		c.Reasons = append(c.Reasons, reason)
	}
}

// haversineKM is the great-circle distance on a sphere of the Earth's mean
// radius.
func haversineKM(lat1, lon1, lat2, lon2 float64) float64 {
	const earthKM = 6371.0088
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthKM * math.Asin(math.Min(1, math.Sqrt(h)))
}

// roundKM keeps one decimal: IP locations are not more precise than that.
func roundKM(d float64) float64 { return math.Round(d*10) / 10 }

func ptr[T any](v T) *T { return &v }
