// Package ipintel is IP intelligence and location consistency: what the
// service concludes about the end user's connection (found in the data, a
// known proxy, and of which kind) and whether the connection's location
// agrees with the license address. It is pure: the data comes through the
// Locator and Gazetteer ports (verifier/ipintel/ipdb reads the installed
// files), and the Tor exit list and hosting ASNs are values.
//
// A proxy is not proof of fraud: Tor, hosting and VPN connections are used by
// careful people too. The members are informational; nothing here changes
// the overall result.
package ipintel

import (
	"fmt"
	"net/netip"
	"strings"
)

// Record is what the data says about one IP.
type Record struct {
	// Located: the location data has a record for the IP (a country at
	// least).
	Located bool
	// Country is the ISO 3166-1 alpha-2 code.
	Country string
	// Subdivision is the first-level subdivision's name as the data spells
	// it ("California", "Ontario"); "" when the record has none.
	Subdivision string
	// City is "" when the record has none.
	City string
	// Lat and Lon are the record's point (the city's, else the
	// subdivision's or country's); HasPoint is false when it has none.
	Lat, Lon float64
	HasPoint bool
	// ASN and ASOrg are the autonomous system announcing the IP; ASN 0 when
	// the ASN data has no range for it.
	ASN   uint32
	ASOrg string
}

// Locator is the IP data port: location and autonomous system of an IP.
// An IP the data does not cover is a Record with Located false and ASN 0,
// not an error; errors are failures to read the data.
type Locator interface {
	Locate(ip netip.Addr) (Record, error)
}

// ProxyType is proxy_type: the kind of proxy a connection came through.
type ProxyType string

// Proxy types. VPN and public proxy classes are not reported: no openly
// licensed source of VPN or open-proxy exits is installed, and a guess would
// be worse than saying nothing.
const (
	// ProxyTor: the IP is a Tor exit relay (the Tor Project's published
	// exit list, `idgate ip update-tor`).
	ProxyTor ProxyType = "tor"
	// ProxyHosting: the IP belongs to a hosting or cloud provider's
	// autonomous system (HostingASNs): a server, a VPN exit or a relay
	// rather than a home or mobile connection.
	ProxyHosting ProxyType = "hosting"
)

// Assessment is what the service concludes about one IP.
type Assessment struct {
	IP netip.Addr
	// Found is ip_found: the IP is in the location or ASN data.
	Found bool
	// Proxy is is_proxy; Type and Description are set exactly when it is.
	Proxy       bool
	Type        ProxyType
	Description string
	Record      Record
}

// Service assesses IPs. Data is required; Tor may be nil (no exit list
// installed: Tor exits are then not recognised; TorKnown says so).
type Service struct {
	Data Locator
	Tor  ExitSet
	// Hosting maps hosting and cloud ASNs to the provider's name; nil is
	// HostingASNs.
	Hosting map[uint32]string
	// Places geocodes US ZIP codes; nil places US addresses by state only.
	Places Gazetteer
}

// TorKnown reports whether Tor exits can be recognised (an exit list is
// loaded).
func (s *Service) TorKnown() bool { return s.Tor != nil && s.Tor.Len() > 0 }

// ParseIP parses a client IP as the HTTP layer records it, dropping an IPv6
// zone and unmapping IPv4-in-IPv6.
func ParseIP(raw string) (netip.Addr, error) {
	ip, err := netip.ParseAddr(strings.TrimSpace(raw))
	if err != nil {
		return netip.Addr{}, fmt.Errorf("ip %q: %w", raw, err)
	}
	return ip.WithZone("").Unmap(), nil
}

func parseIP(raw string) (netip.Addr, bool) {
	ip, err := ParseIP(raw)
	return ip, err == nil
}

// Connection assesses the end user's connection of a finished flow: the IP
// recorded at submission, else the one recorded at the barcode step. False
// when neither is a usable IP (the check could not run).
func (s *Service) Connection(back, submit string) (Assessment, bool, error) {
	ip, ok := parseIP(submit)
	if !ok {
		if ip, ok = parseIP(back); !ok {
			return Assessment{}, false, nil
		}
	}
	a, err := s.Assess(ip)
	return a, err == nil, err
}

// Assess concludes about ip: found in the data, and whether it is a Tor
// exit (first, as the most specific) or a hosting provider's.
func (s *Service) Assess(ip netip.Addr) (Assessment, error) {
	ip = ip.WithZone("").Unmap()
	rec, err := s.Data.Locate(ip)
	if err != nil {
		return Assessment{}, fmt.Errorf("assess %s: %w", ip, err)
	}
	a := Assessment{IP: ip, Record: rec, Found: rec.Located || rec.ASN != 0}
	hosting := s.Hosting
	if hosting == nil {
		hosting = HostingASNs
	}
	switch name, isHosting := hosting[rec.ASN]; {
	case s.Tor != nil && s.Tor.Contains(ip):
		// A Tor exit is a proxy whether or not the location data knows it.
		a.Found, a.Proxy, a.Type = true, true, ProxyTor
		a.Description = "Tor exit relay (listed by the Tor Project)"
	case rec.ASN != 0 && isHosting:
		a.Proxy, a.Type = true, ProxyHosting
		a.Description = fmt.Sprintf("hosting or cloud provider network: %s (AS%d)", name, rec.ASN)
	}
	return a, nil
}
