package webhook

import (
	"fmt"
	"strings"
	"testing"
)

func TestValidateHeadersAccepts(t *testing.T) {
	h := map[string]string{
		"Authorization":                    "Bearer abc.def",
		"X-Shop":                           "ünïcode and\ttab",
		"x-empty":                          "",
		strings.Repeat("a", MaxHeaderName): strings.Repeat("v", MaxHeaderValueLen),
	}
	for i := len(h); i < MaxHeaders; i++ {
		h[fmt.Sprintf("X-H%d", i)] = "1"
	}
	if d := ValidateHeaders(h); d != nil {
		t.Fatalf("valid headers refused: %+v", d)
	}
	if d := ValidateHeaders(nil); d != nil {
		t.Fatalf("no headers refused: %+v", d)
	}
}

func TestValidateHeadersRejects(t *testing.T) {
	cases := []struct {
		name, value string
		code        string
	}{
		{"Content-Type", "text/plain", CodeHeaderReserved},
		{"content-length", "1", CodeHeaderReserved},
		{"HOST", "evil", CodeHeaderReserved},
		{"User-Agent", "x", CodeHeaderReserved},
		{"Idgate-Signature", "t=1,v1=00", CodeHeaderReserved},
		{"idgate-anything", "x", CodeHeaderReserved},
		{"Transfer-Encoding", "chunked", CodeHeaderReserved},
		{"Connection", "close", CodeHeaderReserved},
		{"X Space", "x", CodeHeaderName},
		{"X:Colon", "x", CodeHeaderName},
		{"", "x", CodeHeaderName},
		{strings.Repeat("a", MaxHeaderName+1), "x", CodeHeaderName},
		{"X-Crlf", "a\r\nInjected: 1", CodeHeaderValue},
		{"X-Lf", "a\nb", CodeHeaderValue},
		{"X-Nul", "a\x00b", CodeHeaderValue},
		{"X-Long", strings.Repeat("v", MaxHeaderValueLen+1), CodeHeaderValue},
	}
	for _, c := range cases {
		d := ValidateHeaders(map[string]string{c.name: c.value, "X-Fine": "ok"})
		if len(d) != 1 || d[0].Code != c.code || d[0].Field != "webhook_headers."+c.name || d[0].Message == "" {
			t.Errorf("%q: got %+v, want one %s", c.name, d, c.code)
		}
	}
}

func TestValidateHeadersCountAndDuplicates(t *testing.T) {
	h := map[string]string{}
	for i := 0; i <= MaxHeaders; i++ {
		h[fmt.Sprintf("X-H%d", i)] = "1"
	}
	d := ValidateHeaders(h)
	if len(d) != 1 || d[0].Code != CodeTooManyHeaders || d[0].Field != "webhook_headers" {
		t.Fatalf("21 headers: %+v", d)
	}
	d = ValidateHeaders(map[string]string{"X-Key": "a", "x-key": "b", "Host": "h", "Bad Name": "c"})
	if len(d) != 3 {
		t.Fatalf("want one detail per bad header (3), got %+v", d)
	}
	if d[0].Field > d[1].Field || d[1].Field > d[2].Field {
		t.Fatalf("details not sorted by field: %+v", d)
	}
}

func FuzzValidateHeaders(f *testing.F) {
	f.Add("X-Key", "value")
	f.Add("Idgate-Attempt", "9")
	f.Add("X-A", "a\r\nb")
	f.Fuzz(func(t *testing.T, name, value string) {
		d := ValidateHeaders(map[string]string{name: value})
		if len(d) > 1 {
			t.Fatalf("one header gave %d details", len(d))
		}
		if len(d) == 0 && (reserved(name) || strings.ContainsAny(value, "\r\n") || !isToken(name)) {
			t.Fatalf("accepted %q: %q", name, value)
		}
	})
}
