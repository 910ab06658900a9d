package http

import (
	"fmt"
	"net"
	"strings"

	"github.com/gofiber/fiber/v2"
)

func parseProxies(list []string) ([]*net.IPNet, error) {
	var out []*net.IPNet
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

func (s *Server) trusted(ip net.IP) bool {
	for _, n := range s.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// clientIP is the peer address, or, when the peer is a trusted proxy, the
// right-most X-Forwarded-For entry that is not itself a trusted proxy. Entries
// left of that were written by the client and cannot be believed.
func (s *Server) clientIP(c *fiber.Ctx) string {
	peer := c.Context().RemoteIP()
	if !s.trusted(peer) {
		return peer.String()
	}
	hops := strings.Split(c.Get(fiber.HeaderXForwardedFor), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(hops[i]))
		if ip == nil {
			break
		}
		if !s.trusted(ip) {
			return ip.String()
		}
	}
	return peer.String()
}
