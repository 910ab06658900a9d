// Package clientip reads a request's client address behind the proxies a
// server trusts: the verifier's rate limits and IP checks, and the
// storefront proxy's start limit and the address its settings page names
// to the verifier, read it one way.
package clientip

import (
	"fmt"
	"net"
	"strings"
)

// Trusted are the proxies (load balancers) whose X-Forwarded-For is read.
type Trusted []*net.IPNet

// Parse reads IPs and CIDRs ("10.0.0.1", "10.0.0.0/8", "::1").
func Parse(list []string) (Trusted, error) {
	var out Trusted
	for _, p := range list {
		if !strings.Contains(p, "/") {
			if ip := net.ParseIP(p); ip != nil && ip.To4() != nil {
				p += "/32"
			} else {
				p += "/128"
			}
		}
		_, n, err := net.ParseCIDR(p)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", p, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// Contains reports whether ip is a trusted proxy.
func (t Trusted) Contains(ip net.IP) bool {
	for _, n := range t {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// Of is the client's address: the peer's, or, when the peer is a trusted
// proxy, the right-most X-Forwarded-For entry that is not itself a
// trusted proxy. Entries left of that were written by the client and
// cannot be believed (the left-most, which many frameworks take, is
// whatever the client sent).
func (t Trusted) Of(peer net.IP, forwardedFor string) string {
	if !t.Contains(peer) {
		return peer.String()
	}
	hops := strings.Split(forwardedFor, ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(hops[i]))
		if ip == nil {
			break
		}
		if !t.Contains(ip) {
			return ip.String()
		}
	}
	return peer.String()
}
