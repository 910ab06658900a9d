package http

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	nethttp "net/http"
	"strings"
	"testing"
	"time"
)

// rawRequest writes head (the request line and headers, without the blank
// line) and then body, over a new connection, and reads one answer. It
// never writes more than body, so a declared Content-Length larger than
// body can only be answered if the server stops reading early.
func rawRequest(t *testing.T, base, head string, body []byte) (*nethttp.Response, []byte) {
	t.Helper()
	return rawRequestBy(t, base, head, func(w io.Writer) { _, _ = w.Write(body) })
}

// rawRequestBy is rawRequest with the body written by send, as slowly as
// it likes.
func rawRequestBy(t *testing.T, base, head string, send func(io.Writer)) (*nethttp.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	// Writing runs beside reading: the server may answer and close while
	// the body is still being sent.
	go func() {
		_, _ = io.WriteString(conn, head+"\r\n\r\n")
		send(conn)
	}()
	resp, err := nethttp.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer (the server waited for the whole body?): %v", err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp, got
}

// TestBodyBoundPerRoute: each route reads at most its own limit (the route
// table's body column). A body over it is answered without being read to
// its end, and the connection closes; a chunked body is bounded the same
// way; a body within the limit arrives whole, chunked or not.
func TestBodyBoundPerRoute(t *testing.T) {
	h := newFlowHarness(t, openSQLite) // BodyLimit 4096, photos 10 MiB, frames 40 MiB
	base := h.url()
	host := strings.TrimPrefix(base, "http://")

	t.Run("declared over the limit", func(t *testing.T) {
		// 50 MiB announced to POST /auth; 8 KiB sent.
		head := fmt.Sprintf("POST /auth HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d", host, 50<<20)
		resp, body := rawRequest(t, base, head, make([]byte, 8<<10))
		if resp.StatusCode != 413 || !strings.Contains(string(body), "PAYLOAD_TOO_LARGE") || !strings.Contains(string(body), "4096 bytes") {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		if !resp.Close {
			t.Error("the connection stays open with the body's rest unread")
		}
	})

	t.Run("chunked over the limit", func(t *testing.T) {
		head := fmt.Sprintf("POST /auth HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", host)
		var chunks bytes.Buffer
		for range 4 { // 8 KiB in 2 KiB chunks, no last chunk: the server must not wait for it
			fmt.Fprintf(&chunks, "800\r\n%s\r\n", strings.Repeat("x", 2048))
		}
		resp, body := rawRequest(t, base, head, chunks.Bytes())
		if resp.StatusCode != 413 || !resp.Close {
			t.Fatalf("%d close=%v %s", resp.StatusCode, resp.Close, body)
		}
	})

	t.Run("chunked within the limit", func(t *testing.T) {
		json := `{"email":"nobody@example.com","password":"wrong password"}`
		head := fmt.Sprintf("POST /auth HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", host)
		resp, body := rawRequest(t, base, head, []byte(fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(json), json)))
		if resp.StatusCode != 401 { // read whole and judged: a wrong password
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	})

	t.Run("a photo over the flow's bound", func(t *testing.T) {
		// 30 MiB announced, 11 MiB sent: the flow refuses the photo in the
		// page's words after reading 10 MiB and a byte of it.
		_, tok := h.link(`{}`)
		head := fmt.Sprintf("POST /v/%s/license/front HTTP/1.1\r\nHost: %s\r\nContent-Type: image/jpeg\r\nContent-Length: %d", tok, host, 30<<20)
		resp, body := rawRequest(t, base, head, append(frontPhoto(t, nil, 3), make([]byte, 11<<20)...))
		if resp.StatusCode != 422 || !strings.Contains(string(body), "image_too_large") || !resp.Close {
			t.Fatalf("%d close=%v %s", resp.StatusCode, resp.Close, body)
		}
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("flow answer without the flow's headers: %v", resp.Header)
		}
	})

	t.Run("the liveness answer takes more than the JSON limit", func(t *testing.T) {
		// Over BodyLimit, within FlowBodyLimit: read and judged by the flow
		// (not a multipart body: the flow's own refusal, not a 413).
		_, tok := h.link(`{}`)
		r := h.post(tok, "/liveness/nochallenge", "multipart/form-data; boundary=x", bytes.Repeat([]byte("y"), 64<<10))
		if e := expectError(t, r, 400, "BAD_REQUEST"); !strings.Contains(e.Message, "multipart body is malformed") {
			t.Fatalf("a liveness answer over the JSON limit, not read by the flow: %s", r.body)
		}
	})

	t.Run("a flow JSON step keeps the JSON limit", func(t *testing.T) {
		_, tok := h.link(`{}`)
		r := h.post(tok, "/phone", "application/json", []byte(`{"phone":"`+strings.Repeat("1", 5000)+`"}`))
		expectError(t, r, 413, "PAYLOAD_TOO_LARGE")
	})
}

// trickle writes n bytes in pieces of size every tick (a phone's uplink,
// or a sender holding the connection), stopping at the first error (the
// server answered and closed).
func trickle(n, size int, tick time.Duration) func(io.Writer) {
	return func(w io.Writer) {
		piece := bytes.Repeat([]byte("y"), size)
		for sent := 0; sent < n; sent += size {
			if _, err := w.Write(piece[:min(size, n-sent)]); err != nil {
				return
			}
			time.Sleep(tick)
		}
	}
}

// TestStreamedBodyKeepsItsPace: a streamed body (over BodyLimit) may take
// longer than ReadTimeout as long as it keeps coming (a liveness answer on
// a phone's uplink took more than the 15 s default and was cut off), while
// one that pauses past ReadTimeout, or comes slower than minBodyRate once
// ReadTimeout has passed, is answered 408 and its connection closed.
func TestStreamedBodyKeepsItsPace(t *testing.T) {
	t.Parallel()
	h := newFlowHarness(t, openSQLite, func(d *Deps) { d.Config.ReadTimeout = 2 * time.Second })
	base := h.url()
	_, tok := h.link(`{}`)
	head := func(n int) string {
		return fmt.Sprintf("POST /v/%s/liveness/nochallenge HTTP/1.1\r\nHost: %s\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: %d",
			tok, strings.TrimPrefix(base, "http://"), n)
	}

	t.Run("longer than ReadTimeout, at a phone's pace", func(t *testing.T) {
		// 3 MiB in about 6.4 s: 480 KiB a second, 30 times the floor,
		// with no pause near the 2 s ReadTimeout allows.
		const n = 3 << 20
		start := time.Now()
		resp, body := rawRequestBy(t, base, head(n), trickle(n, 24<<10, 50*time.Millisecond))
		// Read whole and judged by the flow: not multipart.
		if resp.StatusCode != 400 || !strings.Contains(string(body), "multipart body is malformed") {
			t.Fatalf("a body at a steady pace was not read whole: %d %s", resp.StatusCode, body)
		}
		if took := time.Since(start); took < 4*time.Second {
			t.Fatalf("sent in %v: not twice ReadTimeout, the test shows nothing", took)
		}
	})

	t.Run("a trickle", func(t *testing.T) {
		// 1 KiB a second, declared 1 MiB: refused soon after ReadTimeout,
		// not after the 17 minutes the body would take.
		start := time.Now()
		resp, body := rawRequestBy(t, base, head(1<<20), trickle(1<<20, 100, 100*time.Millisecond))
		if resp.StatusCode != 408 || !strings.Contains(string(body), "REQUEST_TIMEOUT") || !resp.Close {
			t.Fatalf("%d close=%v %s", resp.StatusCode, resp.Close, body)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("a trickle held the connection %v", took)
		}
	})

	t.Run("a pause", func(t *testing.T) {
		// 64 KiB, then nothing.
		resp, body := rawRequestBy(t, base, head(1<<20), func(w io.Writer) { _, _ = w.Write(make([]byte, 64<<10)) })
		if resp.StatusCode != 408 || !strings.Contains(string(body), "REQUEST_TIMEOUT") || !resp.Close {
			t.Fatalf("%d close=%v %s", resp.StatusCode, resp.Close, body)
		}
	})
}
