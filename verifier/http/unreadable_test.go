package http

import (
	"strings"
	"testing"
)

// A request fasthttp cannot read is answered in the error format, and its
// access line says why without quoting the request (which may carry a
// link token or a bearer token).
func TestUnreadableRequestLoggedWithoutItsBytes(t *testing.T) {
	h := newHarness(t)
	const secret = "Bearer s3cr3t-never-logged"
	link := strings.Repeat("A", 43)
	resp, body := rawRequest(t, h.url(), "GET /v/"+link+" HTTP/1.1\r\nHost: x\r\nAuthorization: "+secret+"\r\nContent-Length: lots", nil)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"BAD_REQUEST"`) {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	logs := h.logs.String()
	if strings.Contains(logs, "s3cr3t") || strings.Contains(logs, link) {
		t.Fatalf("the request's bytes reached the log:\n%s", logs)
	}
	var line string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, `"unreadable"`) {
			line = l
		}
	}
	if !strings.Contains(line, `"status":400`) || !strings.Contains(line, "error when reading request headers") {
		t.Fatalf("no access line saying why the request could not be read:\n%s", logs)
	}
}
