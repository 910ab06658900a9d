package verifier

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/idgate/idgate/internal/problem"
)

// Integration-key allowlists. Rules (documented in docs/decisions.md and OpenAPI):
//
//   - An entry is a host, optionally with a port: "shop.example.com",
//     "shop.example.com:8443", "*.example.com", "203.0.113.7". No scheme, no
//     path. Entries are lower-cased; IDNs are written in punycode (xn--...).
//   - "*.example.com" permits example.com itself and every subdomain at any
//     depth, and nothing else: "evil-example.com" and "example.com.evil.net"
//     never match. The wildcard is only allowed as the whole first label, over
//     a base of at least two labels ("*.com" is refused).
//   - The request's Origin must be https. In dev mode only, http is also
//     accepted for localhost, 127.0.0.1 and [::1] so local storefronts work.
//   - Ports: an entry without a port matches only the scheme's default port
//     (443 for https, 80 for http); an entry with a port matches exactly that
//     port. There is no port wildcard.
//   - A missing, "null" or unparsable Origin matches nothing.
const (
	MaxAllowedDomains = 50
	maxHostLen        = 253
)

// NormalizeAllowlist validates entries, lower-cases them and drops
// duplicates. Problems are reported per entry as allowed_domains[i].
func NormalizeAllowlist(entries []string) ([]string, error) {
	if len(entries) > MaxAllowedDomains {
		return nil, &ValidationError{Fields: []problem.Detail{{Field: "allowed_domains", Code: "too_many",
			Message: fmt.Sprintf("at most %d domains", MaxAllowedDomains)}}}
	}
	out := make([]string, 0, len(entries))
	seen := map[string]bool{}
	var ve ValidationError
	for i, e := range entries {
		p, err := parsePattern(e)
		if err != nil {
			ve.Fields = append(ve.Fields, problem.Detail{Field: fmt.Sprintf("allowed_domains[%d]", i), Code: "invalid_domain", Message: err.Error()})
			continue
		}
		if s := p.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(ve.Fields) > 0 {
		return nil, &ve
	}
	return out, nil
}

// OriginAllowed reports whether an Origin header value matches an entry of
// allowlist under the rules above. dev enables http for loopback hosts.
func OriginAllowed(origin string, allowlist []string, dev bool) bool {
	o, ok := parseOrigin(origin)
	if !ok {
		return false
	}
	if o.scheme == "http" && !(dev && isLoopbackName(o.host)) {
		return false
	}
	for _, entry := range allowlist {
		p, err := parsePattern(entry)
		if err == nil && p.matches(o) {
			return true
		}
	}
	return false
}

// CanonicalOrigin is origin ("scheme://host[:port]", as browsers send it)
// in the form browsers show as location.origin: lower-cased, the scheme's
// default port left out. ok is false for anything parseOrigin refuses.
func CanonicalOrigin(origin string) (canon string, ok bool) {
	o, ok := parseOrigin(origin)
	if !ok {
		return "", false
	}
	canon = o.scheme + "://" + o.host
	if o.port != defaultPort(o.scheme) {
		canon += ":" + strconv.Itoa(o.port)
	}
	return canon, true
}

type origin struct {
	scheme, host string
	port         int // explicit or the scheme's default
}

func defaultPort(scheme string) int {
	if scheme == "http" {
		return 80
	}
	return 443
}

// parseOrigin reads "scheme://host[:port]" as browsers send it: nothing
// after the authority, no user info.
func parseOrigin(s string) (origin, bool) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || (scheme != "https" && scheme != "http") || rest == "" || strings.ContainsAny(rest, "/?#@\\ ") {
		return origin{}, false
	}
	host, port, err := splitHostPort(rest)
	if err != nil {
		return origin{}, false
	}
	if port == 0 {
		port = defaultPort(scheme)
	}
	host = strings.ToLower(host)
	if !validHost(host) && !isLoopbackName(host) {
		return origin{}, false
	}
	return origin{scheme: scheme, host: host, port: port}, true
}

// splitHostPort splits an optional ":port" (1-65535, digits only) off s.
// Port 0 means none was given. IPv6 literals stay bracketed.
func splitHostPort(s string) (string, int, error) {
	hostEnd := len(s)
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("unclosed IPv6 literal")
		}
		hostEnd = end + 1
	} else if i := strings.LastIndexByte(s, ':'); i >= 0 {
		hostEnd = i
	}
	host, rest := s[:hostEnd], s[hostEnd:]
	if rest == "" {
		return host, 0, nil
	}
	digits, ok := strings.CutPrefix(rest, ":")
	if !ok || digits == "" || len(digits) > 5 || strings.TrimLeft(digits, "0123456789") != "" {
		return "", 0, fmt.Errorf("bad port %q", rest)
	}
	port, _ := strconv.Atoi(digits)
	if port < 1 || port > 65535 {
		return "", 0, fmt.Errorf("port %d out of range", port)
	}
	return host, port, nil
}

type pattern struct {
	wildcard bool
	host     string // the base for a wildcard
	port     int    // 0: the scheme's default
}

func (p pattern) String() string {
	s := p.host
	if p.wildcard {
		s = "*." + s
	}
	if p.port != 0 {
		s += ":" + strconv.Itoa(p.port)
	}
	return s
}

func (p pattern) matches(o origin) bool {
	port := p.port
	if port == 0 {
		port = defaultPort(o.scheme)
	}
	if port != o.port {
		return false
	}
	if o.host == p.host {
		return true
	}
	return p.wildcard && strings.HasSuffix(o.host, "."+p.host)
}

func parsePattern(s string) (pattern, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@\\ ") {
		return pattern{}, fmt.Errorf("give a host (optionally :port), not a URL")
	}
	host, port, err := splitHostPort(s)
	if err != nil {
		return pattern{}, err
	}
	p := pattern{host: host, port: port}
	if base, ok := strings.CutPrefix(host, "*."); ok {
		p.wildcard, p.host = true, base
		if net.ParseIP(base) != nil || strings.Count(base, ".") < 1 {
			return pattern{}, fmt.Errorf("a wildcard needs a base domain of at least two labels")
		}
	}
	if !validHost(p.host) && !(isLoopbackName(p.host) && !p.wildcard) {
		return pattern{}, fmt.Errorf("%q is not a valid host name", host)
	}
	return p, nil
}

// validHost accepts DNS names (letters, digits, hyphens; labels 1-63 chars,
// no leading or trailing hyphen, no trailing dot) and IPv4 literals.
func validHost(h string) bool {
	if h == "" || len(h) > maxHostLen {
		return false
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.To4() != nil
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

func isLoopbackName(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "[::1]"
}
