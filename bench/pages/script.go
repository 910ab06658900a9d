package main

import (
	"context"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/verifier/web"
)

// serveScript makes the tab load js in place of the page's script: the
// rows load the page's own script this way, so that the network profile
// slows only the step's own downloads (the tracker's files, the frames
// sent), as it did when a row ran an older page's script beside today's.
func serveScript(ctx context.Context, js []byte) error {
	now, err := web.Script()
	if err != nil {
		return err
	}
	paused := make(chan fetch.RequestID, 16)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e.RequestID
		}
	}); err != nil {
		return err
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case id := <-paused:
				_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: id, ResponseCode: 200,
					ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: now.ContentType}}, Body: js})
			}
		}
	}()
	_, err = chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*" + now.Path()}}})
	return err
}
