package http

import (
	"context"
	"io"
	"net"
	nethttp "net/http"
	"runtime"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// TestShutdownDrainsInFlight: once Shutdown starts, new connections are
// refused, but a request already being handled completes normally and
// Shutdown waits for it.
func TestShutdownDrainsInFlight(t *testing.T) {
	h := newHarness(t)
	entered, release := make(chan struct{}), make(chan struct{})
	h.srv.app.Get("/test/slow", func(c *fiber.Ctx) error {
		close(entered)
		<-release
		return c.SendString("finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(ln) }()

	type result struct {
		status int
		body   string
		err    error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := nethttp.Get("http://" + ln.Addr().String() + "/test/slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{resp.StatusCode, string(b), err}
	}()
	<-entered

	stopped := make(chan error, 1)
	go func() { stopped <- h.srv.Shutdown(context.Background()) }()

	// Wait (by polling, not sleeping) until the listener is closed.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still accepting after Shutdown began")
		}
		runtime.Gosched()
	}
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) while a request was in flight", err)
	default:
	}

	close(release)
	r := <-got
	if r.err != nil || r.status != 200 || r.body != "finished" {
		t.Fatalf("in-flight request: %+v", r)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
}
