package http

import (
	"io"
	nethttp "net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/httperr"
)

// TestVerificationIDInPathIsAnswered: the REST habit, the id in the path,
// is a 404 that says where the id goes; other unknown paths stay plain, and
// the real routes under /verification/ keep their own answers.
func TestVerificationIDInPathIsAnswered(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	id := uuid.NewString()
	// Sent around h.do, whose OpenAPI check refuses paths the document lacks:
	// these are unknown on purpose.
	unrouted := func(path string) httperr.BodyError {
		t.Helper()
		req, _ := nethttp.NewRequest("GET", h.url()+path, nil)
		req.Header.Set("Authorization", bearer)
		resp, err := h.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return expectError(t, response{status: resp.StatusCode, header: resp.Header, body: raw}, 404, httperr.NotFound)
	}
	for _, path := range []string{"/verification/" + id, "/verifications/" + id, "/verification/" + id + "/cancel"} {
		if e := unrouted(path); !strings.Contains(e.Message, "/verification?id=") {
			t.Errorf("GET %s: %q", path, e.Message)
		}
	}
	if e := unrouted("/verificationz"); e.Message != "no such endpoint" {
		t.Errorf("other unknown path: %q", e.Message)
	}
	if e := expectError(t, h.do("GET", "/verification?id="+id, "", "Authorization", bearer), 404, httperr.NotFound); strings.Contains(e.Message, "?id=") {
		t.Errorf("GET /verification?id= of an unknown id: %q", e.Message)
	}
	expectError(t, h.do("GET", "/verification/webhook/deliveries?id="+id, "", "Authorization", bearer), 404, httperr.NotFound)
}
