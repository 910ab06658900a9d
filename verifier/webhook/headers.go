package webhook

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/idgate/idgate/internal/problem"
)

// Limits on webhook_headers, checked at creation by ValidateHeaders.
const (
	MaxHeaders        = 20
	MaxHeaderName     = 64
	MaxHeaderValueLen = 1024
)

// Problem codes ValidateHeaders uses.
const (
	CodeTooManyHeaders = "too_many_headers"
	CodeHeaderName     = "invalid_header_name"
	CodeHeaderReserved = "reserved_header"
	CodeHeaderValue    = "invalid_header_value"
)

// reservedHeaders are set by the sender or by net/http, or change how the
// message is framed or routed (hop-by-hop); a custom header must not replace
// them. Any name starting with "Idgate-" is reserved too. Keys are canonical.
var reservedHeaders = map[string]bool{
	"Content-Type": true, "Content-Length": true, "Content-Encoding": true,
	"Host": true, "User-Agent": true, "Transfer-Encoding": true, "Te": true,
	"Trailer": true, "Connection": true, "Keep-Alive": true, "Upgrade": true,
	"Proxy-Connection": true, "Proxy-Authorization": true, "Proxy-Authenticate": true,
	"Expect": true,
}

// reserved reports whether a custom header may not use name.
func reserved(name string) bool {
	c := http.CanonicalHeaderKey(name)
	return reservedHeaders[c] || strings.HasPrefix(c, "Idgate-")
}

// ValidateHeaders checks a verification's webhook_headers and returns one
// problem per bad header (field "webhook_headers.<name>"), sorted by field,
// or nil. Names are RFC 9110 tokens of at most 64 characters and not
// reserved; values are at most 1024 bytes of visible ASCII, space, tab or
// non-ASCII bytes — never CR, LF or other control characters, so a value
// cannot smuggle a second header. Names differing only in case collide.
func ValidateHeaders(h map[string]string) []problem.Detail {
	var out []problem.Detail
	if len(h) > MaxHeaders {
		out = append(out, problem.Detail{Field: "webhook_headers", Code: CodeTooManyHeaders,
			Message: fmt.Sprintf("at most %d headers, got %d", MaxHeaders, len(h))})
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := make(map[string]string, len(h))
	for _, name := range names {
		field := "webhook_headers." + name
		bad := func(code, msg string) {
			out = append(out, problem.Detail{Field: field, Code: code, Message: msg})
		}
		switch {
		case name == "" || len(name) > MaxHeaderName || !isToken(name):
			bad(CodeHeaderName, fmt.Sprintf("header name must be a token of 1 to %d characters (letters, digits, !#$%%&'*+-.^_`|~)", MaxHeaderName))
		case reserved(name):
			bad(CodeHeaderReserved, "header is set by idgate or controls the connection and cannot be overridden")
		case seen[http.CanonicalHeaderKey(name)] != "":
			bad(CodeHeaderName, "duplicates header "+seen[http.CanonicalHeaderKey(name)]+" (names are case-insensitive)")
		case len(h[name]) > MaxHeaderValueLen:
			bad(CodeHeaderValue, fmt.Sprintf("value longer than %d bytes", MaxHeaderValueLen))
		case !validValue(h[name]):
			bad(CodeHeaderValue, "value contains CR, LF or another control character")
		}
		if isToken(name) {
			seen[http.CanonicalHeaderKey(name)] = name
		}
	}
	return out
}

// isToken: RFC 9110 §5.6.2 token = 1*tchar.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// validValue: RFC 9110 field-value bytes (VCHAR, SP, HTAB, obs-text).
func validValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
