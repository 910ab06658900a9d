package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Send sends body (of content type ct; none when ct is "") to url with the
// Authorization header auth (none when ""), fails the test unless the
// answer's status is want, and returns the answer's body.
func Send(t testing.TB, method, url, ct, auth string, body []byte, want int) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, want, raw)
	}
	return raw
}

// CallJSON is Send with a JSON body (none when body is ""), decoding the
// answer into out when out is not nil.
func CallJSON(t testing.TB, method, url, auth, body string, want int, out any) []byte {
	t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	raw := Send(t, method, url, ct, auth, []byte(body), want)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, raw)
		}
	}
	return raw
}
