package chromium

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Request is one request a page sent.
type Request struct {
	Method, URL string
	Headers     network.Headers
	Body        []byte
}

// Recorder keeps every request a tab sends, for tests that check what a
// page lets out (no third party, no secret, no Management API call).
type Recorder struct {
	mu   sync.Mutex
	reqs []Request
}

// Record starts recording the requests of the tab ctx.
func Record(t testing.TB, ctx context.Context) *Recorder {
	t.Helper()
	r := &Recorder{}
	if err := chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok || e.Request == nil {
			return
		}
		req := Request{Method: e.Request.Method, URL: e.Request.URL, Headers: e.Request.Headers}
		for _, p := range e.Request.PostDataEntries {
			req.Body = append(req.Body, p.Bytes...)
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, req)
		r.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	return r
}

// Sent are the requests sent so far, oldest first.
func (r *Recorder) Sent() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}
