package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// Listen opens a TCP listener on a free loopback port and returns it with
// its base URL (http://127.0.0.1:port): servers that put their own URL in
// what they answer (links, redirects) need it before they are built.
func Listen(t testing.TB) (net.Listener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln, "http://" + ln.Addr().String()
}

// Server is what Serve runs: an http.Server or a server built on one.
type Server interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
}

// Serve runs srv on ln until the test ends, then shuts it down (5 s for
// requests in flight) and waits for Serve to return.
func Serve(t testing.TB, srv Server, ln net.Listener) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
	})
}

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
