package web_test

import (
	"encoding/base64"
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/web/guidetest"
)

// The license steps' live guidance and auto-capture (autocapture.ts) in
// real Chromium on a fake camera: rendered card scenes, moving from far to
// close and then held, as a y4m file (Chromium's
// --use-file-for-fake-video-capture), and every guidance state shown at
// 360×640 and 390×844 through a test camera whose picture the test sets.

// frontScene is guidetest.Front with Foreman's face.
func frontScene(t *testing.T, share float64, mod func(*cardtest.Scene)) image.Image {
	t.Helper()
	return guidetest.Front(foremanFace(t), share, mod)
}

func backScene(t *testing.T, frameW int) image.Image {
	t.Helper()
	img, err := guidetest.Back(frameW, 0)
	check(t, err)
	return img
}

// guidedFromFar follows step's guide on a camera brought from far to
// close: its advice runs from "closer" to "capture", the page moves on to
// next, and the photo was the guide's (the capture mark idgate:capture:
// mark), not the shutter's.
func (tb *tab) guidedFromFar(t *testing.T, step, next, mark string) {
	t.Helper()
	seen := tb.advices(step, 60*time.Second)
	t.Logf("%s: advice shown %v", step, seen)
	if !slices.Contains(seen, "closer") || seen[len(seen)-1] != "capture" {
		t.Errorf("%s: advice %v, want closer first and capture last", step, seen)
	}
	tb.screen(next)
	if !eval[bool](tb, fmt.Sprintf(`performance.getEntriesByName("idgate:capture:%s").length === 1`, mark)) {
		t.Errorf("%s: the photo was not taken by the guide", step)
	}
}

// sceneSays shows frames on the test camera (in turn, as its scene) and
// waits for the guide's advice, whose words must contain words.
func (tb *tab) sceneSays(t *testing.T, frames []image.Image, advice, words string) {
	t.Helper()
	var urls []string
	for _, f := range frames {
		urls = append(urls, jsString("data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(jpegBytes(t, f))))
	}
	eval[bool](tb, `window.__scene([`+strings.Join(urls, ",")+`]), true`)
	tb.Wait(fmt.Sprintf(`(() => { const g = document.querySelector(".guidance"); return !!g && g.dataset.advice === %q; })()`, advice))
	contains(t, eval[string](tb, `document.querySelector(".guidance").textContent`), words)
}

// advices records, until the screen leaves step, the guidance states
// the page shows, each once in the order shown. A mutation observer
// notes each change as it happens: polling missed a state shown for less
// than its period on a loaded machine (the back's "capture", up only
// while the photo uploads).
func (tb *tab) advices(step string, timeout time.Duration) []string {
	tb.T.Helper()
	eval[bool](tb, fmt.Sprintf(`(() => {
		const seen = window.__advices = [];
		const note = (a) => { if (a && document.querySelector("main")?.dataset.screen === %q && seen[seen.length - 1] !== a) seen.push(a); };
		const now = () => note(document.querySelector(".guidance")?.dataset.advice);
		now();
		window.__adviceWatch?.disconnect();
		// The words come in with their first advice set: a new element
		// counts as a change too.
		window.__adviceWatch = new MutationObserver(now);
		window.__adviceWatch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-advice"] });
		return true;
	})()`, step))
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if eval[string](tb, `document.querySelector("main")?.dataset.screen ?? ""`) != step { // the next step's guide is not this one's
			return eval[[]string](tb, `window.__advices ?? []`)
		}
		time.Sleep(100 * time.Millisecond)
	}
	tb.T.Fatalf("the %s step never ended by itself in %v (advice seen: %v); page reads:\n%s", step, timeout, eval[[]string](tb, `window.__advices ?? []`), tb.Text())
	return nil
}

// A card moving from far to close: the front step says "closer" while the
// card is small, then captures by itself once the card has been right and
// still for a moment, and the server accepts the photo (the page moves on
// to the back with nobody pressing the shutter); the back says what is
// wrong while the barcode is too far to read, and sends the frame as soon
// as it reads on the device, which the server accepts too (liveness next).
func TestLicenseAutoCaptureInChromium(t *testing.T) {
	t.Parallel()
	needReader(t)
	e := start(t)
	c := e.create(`{}`)

	phone := cameraTab(t, 8, guidetest.FrontApproach(foremanFace(t)))
	phone.Open(c.URL)
	phone.screen("start")
	phone.click("Start")
	phone.screen("front")
	phone.guidedFromFar(t, "front", "back", "front")

	frames, err := guidetest.BackApproach(3, 30)
	check(t, err)
	other := cameraTab(t, 10, frames)
	other.Open(c.URL)
	other.screen("back")
	seen := other.advices("back", 60*time.Second)
	t.Logf("back: advice shown %v", seen)
	if len(seen) < 2 || seen[len(seen)-1] != "capture" || !slices.ContainsFunc(seen, func(a string) bool { return a == "closer" || a == "find" || a == "reading" }) {
		t.Errorf("back: advice %v, want guidance while too far, then capture", seen)
	}
	other.screen("live")
	if !eval[bool](other, `performance.getEntriesByName("idgate:capture:back").length === 1`) {
		t.Error("back: the photo was not taken by the guide")
	}
	// Everything came from the verifier's own origin.
	if n := eval[int](other, `performance.getEntriesByType("resource").filter(r => !r.name.startsWith(location.origin)).length`); n != 0 {
		t.Errorf("%d resources from another origin", n)
	}
}

// A back held turned (8°, past the 2–4° zxing-cpp reads a PDF417 at)
// is still taken by itself: the page turns the decoder's frame back by
// the angle of the card's outline or of the symbol it saw.
func TestTurnedBackAutoCapturesInChromium(t *testing.T) {
	t.Parallel()
	needReader(t)
	e := start(t)
	c := e.create(`{}`)
	e.endUser(c, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
	img, err := guidetest.Back(1600, 8)
	check(t, err)
	phone := cameraTab(t, 5, []image.Image{img})
	phone.Open(c.URL)
	phone.screen("back")
	seen := phone.advices("back", 60*time.Second)
	t.Logf("advice shown %v", seen)
	// Its binarizers see the symbol in turn before it reads; what is said
	// must not flicker with them (each change is read out).
	if len(seen) > 4 {
		t.Errorf("the advice changed %d times: %v", len(seen)-1, seen)
	}
	phone.screen("live")
	if !eval[bool](phone, `performance.getEntriesByName("idgate:capture:back").length === 1`) {
		t.Error("the turned back was not taken by the guide")
	}
}

// A phone that cannot load the barcode reader (its WebAssembly blocked,
// as a failed download or a browser without WebAssembly would leave it)
// gets today's back step: guidance from the page's own measures, nothing
// taken by itself, and the shutter's photo accepted.
func TestBackWithoutTheReaderInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	c := e.create(`{}`)
	e.endUser(c, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
	phone := cameraTab(t, 5, []image.Image{decode(t, back(t))})
	if _, err := chromedp.Call(phone.Ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(phone.Ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/assets/*.wasm", Block: true}}}); err != nil {
		t.Fatal(err)
	}
	phone.Open(c.URL)
	phone.screen("back")
	phone.cameraOn()
	phone.Wait(`!!document.querySelector(".guidance[data-advice]")`)
	time.Sleep(3 * time.Second) // the reader, had it loaded, reads this back in well under a second
	if eval[string](phone, `document.querySelector("main").dataset.screen`) != "back" || eval[bool](phone, `performance.getEntriesByName("idgate:capture:back").length > 0`) {
		t.Fatal("the back was taken by itself without the reader")
	}
	phone.click("Take photo")
	phone.screen("live")
}

// cameraTab is a phone whose camera (allowed) is Chromium's fake one
// playing frames at fps from a y4m file.
func cameraTab(t *testing.T, fps int, frames []image.Image) *tab {
	t.Helper()
	file := filepath.Join(t.TempDir(), "camera.y4m")
	writeY4M(t, file, fps, frames)
	return newTab(t, true, camera(file, true)...)
}

// testCameraTab is a w×h phone (walkTab, English) on testCamera.
func testCameraTab(t *testing.T, w, h int) *tab {
	t.Helper()
	tb := walkTab(t, w, h, "en-US")
	if _, err := chromedp.Call(tb.Ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: testCamera}); err != nil {
		t.Fatal(err)
	}
	return tb
}

// testCamera replaces getUserMedia, before any page script runs, by a
// canvas stream that shows window.__scene (a list of image URLs, shown in
// turn every 150 ms): a camera whose picture the test sets as it goes.
const testCamera = `(() => {
	const c = document.createElement("canvas"); c.width = 1280; c.height = 960;
	const x = c.getContext("2d"); let imgs = []; let i = 0;
	window.__scene = (urls) => { imgs = urls.map(u => { const m = new Image(); m.src = u; return m; }); };
	setInterval(() => { if (!imgs.length) return; const m = imgs[i++ % imgs.length]; if (m.complete && m.naturalWidth) x.drawImage(m, 0, 0, 1280, 960); }, 150);
	navigator.mediaDevices.getUserMedia = async () => c.captureStream(15);
})()`

// Every guidance state, in words (read out once per change by a polite
// live region) and by the outline's dash, not by colour, at 360×640 and
// 390×844; the reduced-motion variant is checked by its media query.
func TestLicenseGuidanceStatesInChromium(t *testing.T) {
	t.Parallel()
	needReader(t) // the back's states need it
	e := start(t)
	type state struct {
		side, advice, words string
		frames              []image.Image
	}
	shaky := []image.Image{frontScene(t, 0.6, nil), frontScene(t, 0.6, func(s *cardtest.Scene) { s.RotationDeg = 9 })}
	states := []state{
		{"front", "find", "Fit your license inside the frame", []image.Image{frontScene(t, 0.6, func(s *cardtest.Scene) { s.NoCard = true })}},
		{"front", "closer", "Move closer", []image.Image{frontScene(t, 0.38, nil)}},
		{"front", "corners", "all four corners", []image.Image{frontScene(t, 1.05, func(s *cardtest.Scene) { s.Centred = true; s.RotationDeg = 0 })}},
		{"front", "blur", "Hold still: the picture is blurred", []image.Image{frontScene(t, 0.6, func(s *cardtest.Scene) { s.Blur = 4 })}},
		{"front", "glare", "Glare on the card", []image.Image{frontScene(t, 0.6, func(s *cardtest.Scene) { s.Glare = true; s.GlareSize = 1.0 / 12 })}},
		{"front", "hold", "Good. Hold still", shaky},
		{"back", "closer", "Move closer", []image.Image{backScene(t, 3600)}},
		{"back", "barcode", "No barcode in view", []image.Image{frontScene(t, 0.6, nil)}},
	}
	for _, size := range [][2]int{{360, 640}, {390, 844}} {
		phone := testCameraTab(t, size[0], size[1])
		c := e.create(`{}`)
		phone.Open(c.URL)
		phone.screen("start")
		phone.click("Start")
		for _, s := range states {
			if s.side == "back" && eval[string](phone, `document.querySelector("main").dataset.screen`) == "front" {
				e.endUser(c, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
				phone.Open(c.URL)
				phone.screen("back")
			}
			phone.screen(s.side)
			phone.sceneSays(t, s.frames, s.advice, s.words)
			if live := eval[string](phone, `document.querySelector(".guidance").getAttribute("aria-live")`); live != "polite" {
				t.Errorf("%s %s: aria-live %q", s.side, s.advice, live)
			}
			phone.look(fmt.Sprintf("license-guide-%s-%s-%dx%d", s.side, s.advice, size[0], size[1]))
		}
		// Reduced motion: the outline changes without a transition.
		outline := `getComputedStyle(document.querySelector(".stage .outline polygon")).transitionDuration`
		if d := eval[string](phone, outline); d == "0s" {
			t.Errorf("the outline has no transition to reduce (%s)", d)
		}
		if _, err := chromedp.Call(phone.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
			t.Fatal(err)
		}
		if d := eval[string](phone, outline); d != "0s" {
			t.Errorf("under prefers-reduced-motion the outline still moves for %s", d)
		}
	}
}
