package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strings"
	"testing/fstest"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/verifier/web"
	"github.com/idgate/idgate/verifier/web/tracker"
)

// beforeCommit is main before the eyelids on the tracker's own step and
// its task boundary between the detector and the mesh (the lead-in and the
// blink on Human's pipeline, the turns' carried box seldom reached on the
// page's thread; earlier steps: ac76b0706960, Human's detector and mesh on
// every frame of a turn; 46e271114e69, every model on every frame): the
// "before" row runs that commit's page script on the page's thread (no
// Worker, as today's on-the-page row), built here from its sources with
// the same tracker files, in place of today's (the server and everything
// else are today's), so no old code is kept in the tree.
const beforeCommit = "349bb0568999415c8f4cacbaa56065f2f5727de5"

// beforeScript builds the end-user page's script at beforeCommit.
func beforeScript(root string, set *tracker.Set) ([]byte, error) {
	cmd := exec.Command("git", "-C", root, "archive", "--format=tar", beforeCommit, "verifier/web/src", "verifier/web/strings.json")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git archive %s: %v: %s", beforeCommit[:12], err, strings.TrimSpace(errb.String()))
	}
	files := fstest.MapFS{}
	tr := tar.NewReader(&out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[strings.TrimPrefix(h.Name, "verifier/web/")] = &fstest.MapFile{Data: b}
	}
	where, err := json.Marshal(set.Config)
	if err != nil {
		return nil, err
	}
	b, err := bundle.Build(bundle.Options{Sources: fs.FS(files), Entry: "src/main.ts",
		Define: map[string]string{"IDGATE_BARCODE": "null", "IDGATE_TRACKER": string(where)}})
	if err != nil {
		return nil, fmt.Errorf("the page at %s: %w", beforeCommit[:12], err)
	}
	return b.JS, nil
}

// serveScript makes the tab load js in place of the page's script.
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
	_, err = chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*" + now.Path}}})
	return err
}
