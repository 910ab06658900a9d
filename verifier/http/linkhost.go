package http

import (
	"net"
	"net/url"
	"strings"
)

// unreachableHost is the host (with its port) of the links' base URL when a
// phone cannot be expected to open it: localhost or a loopback, private,
// link-local or unspecified address, as links are on a dev machine without
// IDGATE_PUBLIC_URL. The computer's page says so beside its QR code
// instead of offering a code that leads nowhere. "" for any other host.
func unreachableHost(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" {
		return ""
	}
	name := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return u.Host
	}
	ip := net.ParseIP(name)
	if ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()) {
		return u.Host
	}
	return ""
}
