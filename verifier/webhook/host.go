package webhook

import (
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// HostRefusal returns why a webhook URL's host (url.URL.Hostname()) is
// refused before any DNS lookup, or "" if it may be tried. It reads the host
// the way the sender's resolver and other stacks might: IDNA mapping first
// (net/http maps "①②⑦.0.0.1" to 127.0.0.1 before dialing), then any IPv6
// or IPv4 literal, including the inet_aton forms (2130706433, 0x7f000001,
// 0177.0.0.1, 127.1), judged by checkAddr, the same classification the
// dial-time guard uses; then names that never lead to a public host. The
// dial-time guard stays: a public-looking name may resolve anywhere.
func HostRefusal(host string, allowLoopback bool) string {
	if ip, err := netip.ParseAddr(host); err == nil {
		return checkAddr(ip, allowLoopback) // IPv6 literals fail IDNA's rules
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil || ascii == "" {
		return "not a valid host name"
	}
	name := strings.ToLower(strings.TrimSuffix(ascii, "."))
	if ip, err := netip.ParseAddr(name); err == nil {
		return checkAddr(ip, allowLoopback)
	}
	if ip, ok := parseIPv4Any(name); ok {
		return checkAddr(ip, allowLoopback)
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		if allowLoopback {
			return ""
		}
		return "loopback name (localhost)"
	}
	if !strings.Contains(name, ".") {
		return "single-label name (resolved only by local search domains: metadata, intranet hosts)"
	}
	for _, s := range internalSuffixes {
		if strings.HasSuffix(name, s.suffix) {
			return s.reason
		}
	}
	return ""
}

// internalSuffixes are domains reserved for private or local use, which no
// public receiver lives under.
var internalSuffixes = []struct{ suffix, reason string }{
	{".internal", "private-use domain .internal (cloud metadata such as metadata.google.internal, ec2.internal)"},
	{".local", "multicast DNS or cluster-local domain (.local)"},
	{".localdomain", "local domain (.localdomain)"},
	{".home.arpa", "home network domain (.home.arpa)"},
}

// parseIPv4Any reads the IPv4 forms inet_aton accepts: one to four parts
// separated by dots, each decimal, octal (leading 0) or hex (0x), the last
// part filling the remaining bytes ("127.1" is 127.0.0.1, "2130706433" and
// "0x7f000001" are too). Names that are not such a literal return false.
func parseIPv4Any(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals [4]uint64
	for i, p := range parts {
		v, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	n := len(parts)
	for i := 0; i < n-1; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false
		}
	}
	last := vals[n-1]
	if last >= 1<<(8*(5-n)) {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i := 0; i < n-1; i++ {
		b[i] = byte(vals[i])
	}
	for i := 3; i >= n-1; i-- {
		b[i] = byte(last)
		last >>= 8
	}
	return netip.AddrFrom4(b), true
}

func parseIPv4Part(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case strings.HasPrefix(p, "0x"):
		base, p = 16, p[2:]
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	v, err := strconv.ParseUint(p, base, 32)
	return v, err == nil
}
