// Command licenseguide measures the document steps' on-device guidance
// (verifier/web/src/autocapture.ts: the license's sides and the
// passport's data page, zoneguide.ts) in headless Chromium under
// Chromium's 4× CPU slowdown and DevTools' "Fast 4G" network profile,
// against the real verifier and engines on loopback, the camera fed from
// rendered card scenes (y4m, --use-file-for-fake-video-capture):
//
//   - extra bytes each step loads (gzipped, as transferred): the back's
//     barcode reader (script and WebAssembly), fetched when the step starts;
//     the front's guide is part of the page's script, whose size is printed;
//   - time from the step's start to the camera, to the first guidance
//     shown, to the photo taken by itself, and to the server's acceptance;
//   - side by side, today's manual page on the same camera: the shutter
//     pressed the moment the camera shows (a lower bound for a person,
//     who still has to see the card is right and press), to the acceptance.
//
// Scenes: "in place" is the card already held right (front at 62% of the
// frame, back filling it, the passport's page at 60%); "far to close"
// starts it far and brings it closer over 3 s (the tests' scene), so the
// guide must wait for it. -only runs the scenes whose name holds it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/bench/internal/loopback"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/internal/testkit/y4m"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/web"
	"github.com/idgate/idgate/verifier/web/guidetest"
)

const runs = 3

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/licenseguide:", err)
		os.Exit(1)
	}
}

type scene struct {
	name, side string
	frames     []image.Image
	fps        int
}

func run() error {
	only := flag.String("only", "", "run only the scenes whose name holds this")
	flag.Parse()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bench-licenseguide")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	eng, err := engines.Load(engines.Config{})
	if err != nil {
		return fmt.Errorf("engines (make models): %w", err)
	}
	face, err := flowtest.Data{Repo: "."}.ForemanFace()
	if err != nil {
		return fmt.Errorf("Foreman's face (make testdata): %w", err)
	}
	v, err := loopback.Start(ctx, dir, eng)
	if err != nil {
		return err
	}
	defer v.Close()
	base, bearer := v.Base, v.Bearer
	js, err := web.Script()
	if err != nil {
		return err
	}
	fmt.Printf("page script %d bytes gzipped (the front's guide is in it)\n", len(js.Gzip))

	frontFar := guidetest.FrontApproach(face)
	backFar, err := guidetest.BackApproach(2, 40)
	if err != nil {
		return err
	}
	inPlace, err := guidetest.Back(0, 0)
	if err != nil {
		return err
	}
	font, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		return fmt.Errorf("the OCR-B font (fonts-ocr-b): %w", err)
	}
	page, err := guidetest.Page(font, face, guidetest.PageZone(), guidetest.PageCamera(0.6, nil), 7)
	if err != nil {
		return err
	}
	pageFar, err := guidetest.PageApproach(font, face)
	if err != nil {
		return err
	}
	var scenes []scene
	for _, sc := range []scene{
		{"front, in place", "front", []image.Image{guidetest.Front(face, 0.62, nil)}, 8},
		{"front, far to close", "front", frontFar, 8},
		{"back, in place", "back", []image.Image{inPlace}, 8},
		{"back, far to close", "back", backFar, 8},
		{"passport, in place", "passport", []image.Image{page}, 8},
		{"passport, far to close", "passport", pageFar, 8},
	} {
		if strings.Contains(sc.name, *only) {
			scenes = append(scenes, sc)
		}
	}
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("chromium: %w", err)
	}
	fmt.Printf("Chromium, 4x CPU slowdown, Fast 4G (%.0f ms, %.1f/%.1f Mbit/s); median of %d runs, cold cache; ms from the step's start\n",
		loopback.Fast4G.Latency, loopback.Fast4G.DownloadThroughput*8/1e6, loopback.Fast4G.UploadThroughput*8/1e6, runs)
	for _, sc := range scenes {
		file := filepath.Join(dir, strings.NewReplacer(" ", "", ",", "-").Replace(sc.name)+".y4m")
		if err := y4m.Write(file, sc.fps, sc.frames); err != nil {
			return err
		}
		modes := []bool{true}
		if strings.HasSuffix(sc.name, "in place") {
			modes = append(modes, false)
		}
		for _, auto := range modes {
			var all []timeline
			for range runs {
				tl, err := step(chrome, dir, file, base, bearer, sc.side, auto, face)
				if err != nil {
					return fmt.Errorf("%s: %w", sc.name, err)
				}
				all = append(all, tl)
			}
			m := median(all)
			if auto {
				fmt.Printf("%-20s guided: camera %5.0f, first guidance %5.0f, taken by itself %5.0f, accepted %5.0f; extra %7d bytes\n",
					sc.name, m.Camera, m.Guide, m.Capture, m.Accepted, m.Extra)
			} else {
				fmt.Printf("%-20s manual: camera %5.0f, shutter pressed at once,          accepted %5.0f; extra %7d bytes\n",
					sc.name, m.Camera, m.Accepted, m.Extra)
			}
		}
	}
	return nil
}

// timeline is one step's marks (license.ts, autocapture.ts), in ms from
// the step's start, and the bytes the page fetched from /assets/ after it.
type timeline struct {
	Camera, Guide, Capture, Accepted float64
	Extra                            int
}

func median(ts []timeline) timeline {
	pick := func(f func(timeline) float64) float64 {
		v := make([]float64, len(ts))
		for i, t := range ts {
			v[i] = f(t)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return timeline{
		Camera: pick(func(t timeline) float64 { return t.Camera }), Guide: pick(func(t timeline) float64 { return t.Guide }),
		Capture: pick(func(t timeline) float64 { return t.Capture }), Accepted: pick(func(t timeline) float64 { return t.Accepted }),
		Extra: int(pick(func(t timeline) float64 { return float64(t.Extra) })),
	}
}

// step opens a fresh link at side in a fresh browser on the camera file,
// throttled, and waits for the photo to be accepted: taken by the guide
// (auto) or by the shutter pressed as soon as the camera shows.
func step(chrome, dir, file, base, bearer, side string, auto bool, face image.Image) (timeline, error) {
	body := `{}`
	if side == "passport" {
		body = `{"accepted_documents":["passport"]}`
	}
	link, err := newLink(base, bearer, body)
	if err != nil {
		return timeline{}, err
	}
	if side == "back" {
		photo, err := flowtest.FrontPhoto(face, 1600, 7)
		if err != nil {
			return timeline{}, err
		}
		if err := loopback.Post(link+"/license/front", "", "image/jpeg", photo, nil); err != nil {
			return timeline{}, err
		}
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, fmt.Sprintf("profile-%d", time.Now().UnixNano()))),
		chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", file))
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(tab, 2*time.Minute)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return timeline{}, err
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&loopback.Fast4G}}); err != nil {
		return timeline{}, err
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4}); err != nil {
		return timeline{}, err
	}
	// A phone (the pages' phone path: no QR handoff) at 390×844.
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: chromium.PhoneUA, AcceptLanguage: "en-US"}); err != nil {
		return timeline{}, err
	}
	if err := chromedp.Do(ctx, chromium.Phone()); err != nil {
		return timeline{}, err
	}
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		return timeline{}, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return timeline{}, err
	}
	screen := func(name string) error {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("main").dataset.screen === %q`, name),
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
		if err != nil {
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			return fmt.Errorf("screen %s: %w (page reads %q)", name, err, text)
		}
		return nil
	}
	if side != "back" {
		if err := screen("start"); err != nil {
			return timeline{}, err
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll("button")].find(b => b.textContent.trim() === "Start").click(), true`)); err != nil {
			return timeline{}, err
		}
	}
	if err := screen(side); err != nil {
		return timeline{}, err
	}
	if !auto {
		// The shutter the moment the camera shows: before the guide could
		// have judged two frames.
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const b = [...document.querySelectorAll("button")].find(b => b.textContent === "Take photo");
			if (!b || b.hidden || b.disabled) return false; b.click(); return true; })()`, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			return timeline{}, err
		}
	}
	next := map[string]string{"front": "back", "back": "live", "passport": "live"}[side]
	// The guide's own marks name what it judges (autocapture.ts): the
	// passport's step is guided as a "page".
	guided := map[string]string{"passport": "page"}[side]
	if guided == "" {
		guided = side
	}
	if err := screen(next); err != nil {
		return timeline{}, err
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const at = (n) => { const e = performance.getEntriesByName(n).pop(); return e ? e.startTime : -1; };
		const t0 = at("idgate:step:%[1]s");
		const rel = (n) => { const v = at(n); return v < 0 ? -1 : v - t0; };
		const extra = performance.getEntriesByType("resource").filter(r => r.startTime >= t0 && r.name.includes("/assets/")).reduce((s, r) => s + r.transferSize, 0);
		return JSON.stringify({Camera: rel("idgate:camera:%[1]s"), Guide: rel("idgate:guide:%[2]s"), Capture: rel("idgate:capture:%[2]s"), Accepted: rel("idgate:accepted:%[1]s"), Extra: extra});
	})()`, side, guided)))
	if err != nil {
		return timeline{}, err
	}
	var tl timeline
	return tl, json.Unmarshal([]byte(raw), &tl)
}

func newLink(base, bearer, body string) (string, error) {
	var v struct {
		URL string `json:"url"`
	}
	err := loopback.Post(base+"/verification", bearer, "application/json", []byte(body), &v)
	return v.URL, err
}
