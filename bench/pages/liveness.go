package main

// The liveness step's budget: on Chromium's 4× CPU slowdown
// and the "Fast 4G" network profile, cold (nothing cached), the time from
// "Start the video" to the first guidance the page shows (and to the
// head's pose, the mesh model loading after the detector), and how many
// frames a second the face tracker follows while the page records; side
// by side with the page paced without the tracker (its files blocked:
// what a phone that cannot load them gets), whose first guidance is its
// first cue. The camera is Chromium's fake device playing Foreman (the
// liveness test clip) from a y4m file. Extra bytes are the tracker's files
// as served (gzip where the browser asks for it).

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/bench/internal/loopback"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/web/tracker"
)

const liveRuns = 3

// livenessBudget runs the step's measurements on a second verifier, with
// the real engines (the challenge needs them), and prints them.
func livenessBudget(ctx context.Context, dir, chrome string) error {
	set, err := tracker.Files()
	if err != nil {
		return fmt.Errorf("liveness: %w", err)
	}
	var total int
	var parts []string
	for name, f := range set.Files {
		if strings.HasSuffix(name, ".wasm") && !strings.Contains(name, "simd") {
			continue // the plain build is for browsers without SIMD
		}
		total += len(f.Gzip)
		parts = append(parts, fmt.Sprintf("%s %d KB", name[:strings.LastIndex(name, "-")], len(f.Gzip)>>10))
	}
	sort.Strings(parts)
	fmt.Printf("liveness step: extra download with the tracker %d KB gzipped (%s); without it 0 KB\n", total>>10, strings.Join(parts, ", "))

	root, err := os.Getwd()
	if err != nil {
		return err
	}
	data := flowtest.Data{Repo: root}
	face, err := data.ForemanFace()
	if err != nil {
		return fmt.Errorf("liveness: %w (make testdata)", err)
	}
	front, err := flowtest.FrontPhoto(face, 2000, 1)
	if err != nil {
		return err
	}
	back, _, err := flowtest.BackPhoto(5, 0, 0)
	if err != nil {
		return err
	}
	y4m := filepath.Join(dir, "foreman.y4m")
	if err := foremanY4M(data, y4m); err != nil {
		return err
	}
	eng, err := engines.Load(engines.Config{})
	if err != nil {
		return err
	}
	liveDir := filepath.Join(dir, "live")
	if err := os.Mkdir(liveDir, 0o700); err != nil {
		return err
	}
	lv, err := loopback.Start(ctx, liveDir, eng)
	if err != nil {
		return err
	}
	defer lv.Close()
	base, bearer := lv.Base, lv.Bearer
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "live-profile")),
		chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", y4m))
	defer cancelAlloc()
	for _, mode := range []struct {
		name    string
		tracked bool
	}{{"tracked", true}, {"paced (tracker blocked)", false}} {
		var first, posed, fps, eyes []float64
		for range liveRuns {
			link, err := newLink(base, bearer)
			if err != nil {
				return err
			}
			tok := link[strings.LastIndex(link, "/v/")+3:]
			for _, step := range []struct {
				path string
				body []byte
			}{{"/license/front", front}, {"/license/back", back}} {
				resp, err := http.Post(base+"/v/"+tok+step.path, "image/jpeg", bytes.NewReader(step.body))
				if err != nil {
					return err
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					return fmt.Errorf("liveness: %s answered %d", step.path, resp.StatusCode)
				}
			}
			m, err := liveRun(alloc, link, mode.tracked)
			if err != nil {
				return fmt.Errorf("liveness %s: %w", mode.name, err)
			}
			first, posed, fps, eyes = append(first, m.first), append(posed, m.posed), append(fps, m.fps), append(eyes, m.eyes)
		}
		if mode.tracked {
			fmt.Printf("liveness step, %-24s first guidance median %5.0f ms (target ≤ 2000), head pose from %5.0f ms, tracked %4.1f fps (target ≥ 10), eyelids %4.1f fps; 4× CPU, Fast 4G, cold, %d runs\n",
				mode.name, median64(first), median64(posed), median64(fps), median64(eyes), liveRuns)
		} else {
			fmt.Printf("liveness step, %-24s first guidance median %5.0f ms (its first cue); 4× CPU, Fast 4G, cold, %d runs\n", mode.name, median64(first), liveRuns)
		}
	}
	return nil
}

// liveMeasure: ms from the click to the first guidance and to the first
// frame with the head's pose (the mesh model in); frames a second tracked
// while recording, and of those with the eyelids.
type liveMeasure struct{ first, posed, fps, eyes float64 }

// liveRun opens link at the liveness step in a fresh tab with the cache
// cleared, throttled, presses "Start the video" and measures.
func liveRun(alloc context.Context, link string, tracked bool) (liveMeasure, error) {
	var m liveMeasure
	tab, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx); err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, struct{}{}); err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&loopback.Fast4G}}); err != nil {
		return m, err
	}
	if !tracked {
		if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/assets/tracker-*", Block: true}}}); err != nil {
			return m, err
		}
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4}); err != nil {
		return m, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return m, err
	}
	poll := func(expr string) (float64, error) {
		return chromedp.Run(ctx, chromedp.Poll[float64](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	}
	if _, err := poll(`document.querySelector('main[data-screen="live"] button') ? 1 : 0`); err != nil {
		return m, fmt.Errorf("liveness screen: %w", err)
	}
	// The click and the clock start together, in the page.
	first := `(() => { const s = document.querySelector(".stage"); return s && s.dataset.firstGuidance ? +s.dataset.firstGuidance : 0; })()`
	if !tracked {
		first = `(() => { const s = document.querySelector(".stage"); return s && s.dataset.step ? performance.now() - window.idgateBenchT0 : 0; })()`
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.idgateBenchT0 = performance.now(), document.querySelector('main[data-screen="live"] button').click(), true)`)); err != nil {
		return m, err
	}
	var err error
	if m.first, err = poll(first); err != nil {
		return m, fmt.Errorf("first guidance: %w", err)
	}
	if !tracked {
		return m, nil
	}
	if m.posed, err = poll(`(() => { const s = document.querySelector(".stage"); return s && s.dataset.firstPose ? +s.dataset.firstPose : 0; })()`); err != nil {
		return m, fmt.Errorf("head pose: %w", err)
	}
	// Tracked rate while recording: frames the tracker finished over 4 s
	// of the recording.
	count := `(() => { const s = document.querySelector(".stage"); return s && s.dataset.tracked ? JSON.stringify([performance.now(), +s.dataset.tracked, +s.dataset.eyes]) : ""; })()`
	read := func() ([3]float64, error) {
		var v [3]float64
		raw, err := chromedp.Run(ctx, chromedp.Poll[string](count, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
		if err != nil {
			return v, err
		}
		_, err = fmt.Sscanf(strings.Trim(raw, "[]"), "%g,%g,%g", &v[0], &v[1], &v[2])
		return v, err
	}
	a, err := read()
	if err != nil {
		return m, fmt.Errorf("recording: %w", err)
	}
	time.Sleep(4 * time.Second)
	b, err := read()
	if err != nil {
		return m, fmt.Errorf("recording: %w", err)
	}
	secs := (b[0] - a[0]) / 1000
	m.fps, m.eyes = (b[1]-a[1])/secs, (b[2]-a[2])/secs
	return m, nil
}

// foremanY4M writes Foreman's frames 36–96 (facing the camera, the blink,
// both turns) and back, at 15 fps, as the fake camera's looping file.
func foremanY4M(d flowtest.Data, path string) error {
	var frames []image.Image
	for n := 36; n <= 96; n++ {
		raw, err := d.ForemanFrame(n)
		if err != nil {
			return err
		}
		img, err := jpeg.Decode(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		frames = append(frames, img)
	}
	for i := len(frames) - 2; i > 0; i-- {
		frames = append(frames, frames[i])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	b := frames[0].Bounds()
	fmt.Fprintf(w, "YUV4MPEG2 W%d H%d F15:1 Ip A1:1 C420jpeg\n", b.Dx(), b.Dy())
	for _, img := range frames {
		w.WriteString("FRAME\n")
		yuv := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				yy, cb, cr := rgbToYCbCr(r, g, bl)
				yuv.Y[yuv.YOffset(x, y)] = yy
				if x%2 == 0 && y%2 == 0 {
					yuv.Cb[yuv.COffset(x, y)], yuv.Cr[yuv.COffset(x, y)] = cb, cr
				}
			}
		}
		w.Write(yuv.Y)
		w.Write(yuv.Cb)
		w.Write(yuv.Cr)
	}
	return w.Flush()
}

func rgbToYCbCr(r, g, b uint32) (uint8, uint8, uint8) {
	return color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(b>>8))
}

func median64(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
