package webhook

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// ErrRefused is wrapped by every refusal to send: a URL that is not https,
// or an address that is not public. Errors.As to *RefusedError for the
// reason, which the caller logs.
var ErrRefused = errors.New("webhook target refused")

// RefusedError says what was refused and why.
type RefusedError struct {
	Target string // the URL or dialed IP:port
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("webhook target %s refused: %s", e.Target, e.Reason)
}

func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// blocked lists every non-public range with the reason logged. IPv4-mapped
// IPv6 addresses are unmapped before the check, so ::ffff:10.0.0.1 is
// refused as 10.0.0.1. IPv6 outside 2000::/3 (global unicast) is refused as a
// whole, which covers ::1, ::, IPv4-compatible ::/96, NAT64 64:ff9b::/96,
// discard 100::/64, fc00::/7, fe80::/10, fec0::/10 and ff00::/8.
var blocked = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `"this network" address (0.0.0.0/8)`},
	{netip.MustParsePrefix("10.0.0.0/8"), "private address (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT address (100.64.0.0/10)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local address (169.254.0.0/16, cloud metadata)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private address (RFC 1918)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation address (TEST-NET-1)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast (192.88.99.0/24)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private address (RFC 1918)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking address (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation address (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation address (TEST-NET-3)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved or broadcast address (240.0.0.0/4)"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignment (2001::/23, incl. Teredo)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation address (2001:db8::/32)"},
	{netip.MustParsePrefix("2002::/16"), "6to4 address (2002::/16, embeds an IPv4 address)"},
	{netip.MustParsePrefix("3fff::/20"), "documentation address (3fff::/20)"},
}

var globalUnicast6 = netip.MustParsePrefix("2000::/3")

// checkAddr returns why ip may not be dialed, or "" if it may. With
// allowLoopback, 127.0.0.0/8 and ::1 (and nothing else) are permitted.
func checkAddr(ip netip.Addr, allowLoopback bool) string {
	ip = ip.Unmap()
	if !ip.IsValid() {
		return "not an IP address"
	}
	if ip.Zone() != "" {
		return "scoped (zoned) IPv6 address"
	}
	if allowLoopback && ip.IsLoopback() {
		return ""
	}
	if ip.Is6() && !globalUnicast6.Contains(ip) {
		switch {
		case ip.IsLoopback():
			return "loopback address"
		case ip.IsUnspecified():
			return "unspecified address"
		case ip.IsLinkLocalUnicast():
			return "link-local address (fe80::/10)"
		case ip.IsPrivate():
			return "private address (fc00::/7)"
		case ip.IsMulticast():
			return "multicast address"
		}
		return "IPv6 address outside global unicast (2000::/3)"
	}
	for _, b := range blocked {
		if b.prefix.Contains(ip) {
			return b.reason
		}
	}
	return ""
}

// checkDial is net.Dialer.Control: it runs on the address actually being
// connected to, after DNS resolution, so a hostname that resolves (or
// re-resolves) to an internal address is refused.
func checkDial(allowLoopback bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return &RefusedError{Target: address, Reason: "unparsable dial address"}
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return &RefusedError{Target: address, Reason: "dial address is not an IP"}
		}
		if reason := checkAddr(ip, allowLoopback); reason != "" {
			return &RefusedError{Target: address, Reason: reason}
		}
		return nil
	}
}

// ValidateURL checks a webhook_url (at creation and again before every
// attempt): absolute https with a host, no user:password, no fragment, and
// a host HostRefusal lets through. Names are checked again after
// resolution, when dialing. The error wraps ErrRefused.
func ValidateURL(raw string, allowLoopback bool) error {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > MaxURLLen {
		return &RefusedError{Target: "(webhook_url)", Reason: fmt.Sprintf("not a URL of at most %d bytes", MaxURLLen)}
	}
	// The target logged leaves out the query, which may carry a token.
	refuse := func(reason string) error {
		return &RefusedError{Target: u.Scheme + "://" + u.Host + u.EscapedPath(), Reason: reason}
	}
	switch {
	case !strings.EqualFold(u.Scheme, "https"):
		return refuse("scheme must be https")
	case u.Hostname() == "":
		return refuse("no host")
	case u.User != nil:
		return refuse("credentials in the URL are not allowed; use webhook_headers")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return refuse("fragments are not allowed")
	}
	if reason := HostRefusal(u.Hostname(), allowLoopback); reason != "" {
		return refuse(reason)
	}
	return nil
}

// MaxURLLen bounds webhook_url.
const MaxURLLen = 2048
