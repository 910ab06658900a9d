package web_test

import (
	"encoding/json"
	"fmt"
	"html"
	"image"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The live flow walked as a shopper walks it, on small phones: each test
// here pins one thing found wrong by walking it at 390×844 and 360×640 in
// English and Spanish. Screenshots go to var/screenshots/walk/.

// walkTab is a phone tab w×h CSS pixels (touch, scale 2) speaking lang,
// whose screenshots go to var/screenshots/walk/.
func walkTab(t *testing.T, w, h int, lang string, flags ...chromedp.ExecAllocatorOption) *tab {
	t.Helper()
	tb := newTab(t, true, flags...)
	tb.Shots = "walk"
	tb.language(lang)
	tb.Run(chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	return tb
}

// look shoots the page as it is to var/screenshots/walk/name.png, runs axe
// on it, and fails the test for what a shopper would trip on: a page wider
// than the screen or a visible control smaller than 44×44 px (a control
// inside its label is as large as the label: a tap anywhere on it
// chooses the control, as the test page's outcomes are chosen).
func (tb *tab) look(name string) {
	tb.T.Helper()
	tb.ShootHere(name)
	if w := eval[int](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
		tb.T.Errorf("%s: the page is %d px wider than the screen", name, w)
	}
	small := eval[[]string](tb, `[...document.querySelectorAll("button, .button, a, input:not(.vh), select, summary")]
		.filter(e => e.offsetParent !== null)
		.filter(e => { const r = (e.closest("label") || e).getBoundingClientRect(); return r.width < 44 || r.height < 44; })
		.map(e => e.textContent.trim() || e.outerHTML.slice(0, 60))`)
	for _, s := range small {
		tb.T.Errorf("%s: %q is smaller than 44×44 px", name, s)
	}
}

// inView reports whether the element matched by the JavaScript expression
// el lies wholly inside the screen, as it is scrolled.
func (tb *tab) inView(el string) bool {
	tb.T.Helper()
	return eval[bool](tb, fmt.Sprintf(`(() => { const r = (%s).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; })()`, el))
}

// The same link open on two phones: the first still shows the back of the
// license while the second finished every step and was offered a review.
// The first phone's photo used to get the server's 409 and "Something
// went wrong. Please try again.", whose Try again sent it again into the
// same 409, for ever. It now reloads the session and shows where the link
// is: the review offer, whose answer finishes it.
func TestStaleSecondPhoneFollowsTheLinkInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	for _, lang := range []struct{ accept, offer, yes string }{
		{"en-US", "We could not confirm that the photos match", "Send for review"},
		{"es-MX,es;q=0.9", "No pudimos confirmar que las fotos coinciden", "Enviar a revisión"},
	} {
		c := e.create(`{}`)
		first := walkTab(t, 360, 640, lang.accept)
		first.Open(c.URL)
		first.screen("start")
		eval[bool](first, `document.querySelector(".actions button").click(), true`)
		first.screen("front")
		first.upload("front", writeFile(t, "front.jpg", front(t, foremanFace(t))))
		first.screen("back")
		// The other phone: every step and submit, with a license photo of
		// someone else, so the link waits at the review offer.
		e.throughAPI(c, otherFace(t))
		e.endUser(c, "/submit", "", nil, 200)

		first.upload("back", writeFile(t, "back.jpg", back(t)))
		contains(t, first.screen("review"), lang.offer, lang.yes)
		first.look("stale-phone-review-offer-" + lang.accept[:2] + "-360x640")
		first.click(lang.yes)
		first.screen("review-sent")
		if s := e.status(c.ID); s != "manual_review" {
			t.Fatalf("%s: verification is %s, want manual_review", lang.accept, s)
		}
	}
}

// The browser's Back button mid-flow: it used to leave the page from any
// step (to the shop, the mail app, a blank tab). It now returns to the
// first screen with the camera released, Forward and Start go on from the
// step where the person was, and the done page's "Back to <site>" still
// reaches the shop past the flow's own history entry.
func TestBackButtonStaysInTheFlowInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	c := e.create(`{}`)
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><html lang="en"><title>Shop</title><main><h1>Shop</h1><a id="verify" href="%s">Verify your age</a></main>`, html.EscapeString(c.URL))
	}))
	t.Cleanup(shop.Close)
	y4m := filepath.Join(t.TempDir(), "front.y4m")
	writeY4M(t, y4m, 5, []image.Image{farFront(t, foremanFace(t))})
	phone := walkTab(t, 390, 844, "en-US", camera(y4m, true)...)
	phone.Open(shop.URL)
	eval[bool](phone, `document.getElementById("verify").click(), true`)
	phone.screen("start")
	phone.click("Start")
	phone.screen("front")
	phone.cameraOn()

	phone.Run(chromedp.NavigateBack())
	contains(t, phone.screen("start"), "Verify your identity", "Start")
	if !strings.HasPrefix(eval[string](phone, `location.href`), c.URL) || eval[bool](phone, `!!document.querySelector("video")`) {
		t.Fatalf("Back from the camera step: at %s, video %v", eval[string](phone, `location.href`), eval[bool](phone, `!!document.querySelector("video")`))
	}
	phone.look("back-button-start-en-390x844")
	phone.Run(chromedp.NavigateForward())
	phone.screen("front")
	phone.cameraOn()
	phone.click("Take photo")
	phone.screen("back")

	// Back from the second step, and Start again: the second step.
	phone.Run(chromedp.NavigateBack())
	phone.screen("start")
	phone.click("Start")
	phone.screen("back")

	// The rest through the API (another phone), then Back and Start: the
	// page submits, and its way back to the shop lands on the shop.
	e.throughAPI(c, foremanFace(t))
	phone.Run(chromedp.NavigateBack())
	phone.screen("start")
	phone.click("Start")
	site := strings.TrimPrefix(shop.URL, "http://")
	contains(t, phone.screen("done"), "Done. Go back to finish there.", "Back to "+site)
	phone.look("back-button-done-en-390x844")
	phone.clickAway("Back to " + site)
	// Polled from here: a poll in the page does not survive its leaving.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		at, _ := chromedp.Run(phone.Ctx, chromedp.Evaluate[string](`location.href + " " + !!document.getElementById("verify")`))
		if at == shop.URL+"/ true" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Back to %s: the tab is at %q, not the shop", site, at)
		}
	}

	// Spanish on a small phone: Back from the first step, Start again.
	c = e.create(`{}`)
	small := walkTab(t, 360, 640, "es-MX,es;q=0.9", camera(y4m, true)...)
	small.Open(c.URL)
	small.screen("start")
	small.click("Empezar")
	small.screen("front")
	small.cameraOn()
	small.Run(chromedp.NavigateBack())
	contains(t, small.screen("start"), "Verifica tu identidad", "Empezar")
	small.look("back-button-start-es-360x640")
	small.click("Empezar")
	small.screen("front")
	small.cameraOn()
}

// A photo refused (the barcode too far away, from the camera): the reason
// appears below the camera and pushes the shutter down; on a 360×640
// phone it went below the screen, so the person, card in hand, had to
// scroll to retake. After a refusal the reason and the shutter are both
// on screen, in English and Spanish, at 360×640 and 390×844, and a
// shutter pressed from the keyboard keeps its focus (it is only marked
// unavailable while the photo is checked: disabled, it had dropped focus
// to the page's top). Each case is a browser of its own with the barcode
// reader running on the camera (about 15 s of CPU): Spanish at 360×640,
// the longer text on the smaller screen, every run; the two English sizes
// take turns (testkit.Share).
func TestRefusalKeepsTheShutterOnScreenInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	far := filepath.Join(t.TempDir(), "far.y4m")
	writeY4M(t, far, 5, []image.Image{decode(t, farBack(t))})
	type refusalCase struct {
		accept, start, shutter, reason string
		w, h                           int
	}
	english := []refusalCase{
		{"en-US", "Start", "Take photo", "Move closer so the barcode fills most of the frame.", 360, 640},
		{"en-US", "Start", "Take photo", "Move closer so the barcode fills most of the frame.", 390, 844},
	}
	for _, c := range append([]refusalCase{
		{"es-MX,es;q=0.9", "Empezar", "Tomar foto", "Acércate para que el código de barras llene la mayor parte del marco.", 360, 640},
	}, testkit.Share(english, 2)...) {
		phone := walkTab(t, c.w, c.h, c.accept, camera(far, true)...)
		phone.Open(e.create(`{}`).URL)
		phone.screen("start")
		phone.click(c.start)
		phone.screen("front")
		phone.upload("front", writeFile(t, "front.jpg", front(t, foremanFace(t))))
		phone.screen("back")
		phone.cameraOn()
		// Pressed from the keyboard: the shutter has focus.
		shutter := fmt.Sprintf(`[...document.querySelectorAll("button")].find(b => b.textContent === %q)`, c.shutter)
		eval[bool](phone, shutter+`.focus(), true`)
		phone.click(c.shutter)
		phone.Wait(`!!document.querySelector(".alert")`)
		contains(t, phone.screen("back"), c.reason)
		if !eval[bool](phone, `document.activeElement === `+shutter) {
			t.Errorf("%s %dx%d: after a refusal focus is on %s, not the shutter", c.accept, c.w, c.h, eval[string](phone, `document.activeElement.outerHTML.slice(0, 60)`))
		}
		phone.look(fmt.Sprintf("refusal-barcode-too-small-%s-%dx%d", c.accept[:2], c.w, c.h))
		if !phone.inView(shutter) || !phone.inView(`document.querySelector(".alert")`) {
			t.Errorf("%s %dx%d: after a refusal the reason (%v) or the shutter (%v) is off the screen", c.accept, c.w, c.h,
				phone.inView(`document.querySelector(".alert")`), phone.inView(shutter))
		}
	}
}

// farBack is a photo of a license back whose barcode is too far from the
// camera to read (the card a quarter of a 1 MP frame's width): refused as
// barcode_too_small.
func farBack(t *testing.T) []byte {
	t.Helper()
	p := synth.PhotoSet(1, 8)[0]
	p.CardFrac = 0.25
	img, _, err := p.Render()
	check(t, err)
	return jpegBytes(t, img)
}

// A link whose liveness attempts are all used. The last failed attempt
// used to leave the verification started until the link expired (days):
// the page said to ask for a new link while the account holder got no
// webhook and a shopper's checkout waited. Now the last failure completes
// the verification at once (webcam_appears_live false), and the page
// reads as finished: nothing more to do here, a new link to try again.
// Opened again (a reload, the link from the e-mail, another phone) it is
// the completed link; a page that was already on "Start the video" when
// another phone used the last attempt shows the completed link too.
func TestNoLivenessAttemptsLeftSaysSoInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	frames, err := media(t).ForemanAnswer(36, 96)
	check(t, err)
	ct, body := flowtest.LivenessForm(frames)
	fail := func(c created, left int) {
		t.Helper()
		// Foreman blinks, then turns left, then right: asked in another
		// order, the attempt fails.
		e.order.Queue(liveness.TurnRight, liveness.Blink, liveness.TurnLeft)
		var ch struct {
			ID string `json:"challenge_id"`
		}
		check(t, json.Unmarshal(e.endUser(c, "/liveness", "", nil, 201), &ch))
		var ans struct {
			Passed       bool `json:"passed"`
			AttemptsLeft int  `json:"attempts_left"`
		}
		check(t, json.Unmarshal(e.endUser(c, "/liveness/"+ch.ID, ct, body, 200), &ans))
		if ans.Passed || ans.AttemptsLeft != left {
			t.Fatalf("attempt in the wrong order: passed %v, %d left, want %d", ans.Passed, ans.AttemptsLeft, left)
		}
	}
	// oneLeft is the link c with the license done and four attempts
	// failed (a new one with a webhook when c is empty).
	oneLeft := func(c created) created {
		if c.URL == "" {
			c = e.create(`{"encryption_key_mode":"none","webhook_url":"` + e.hooks.URL + `"}`)
		}
		e.endUser(c, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
		e.endUser(c, "/license/back", "image/jpeg", back(t), 200)
		for left := 4; left >= 1; left-- {
			fail(c, left)
		}
		if s := e.status(c.ID); s != "started" {
			t.Fatalf("with an attempt left the verification is %s", s)
		}
		return c
	}
	y4m := filepath.Join(t.TempDir(), "foreman.y4m")
	writeY4M(t, y4m, 15, foremanTalking(t))
	// The page waits out each step of an attempt that fails: a third of the
	// server's step time gets the refusal sooner (what the page says after
	// it does not depend on the pace).
	e.roomy.Set(0.3)

	// The page's own last attempt fails: the link is finished.
	c := oneLeft(created{})
	// The attempts fail for their order whatever the page's pace: the page
	// without its tracker paces the cues by the clock, which spares the
	// walks the tracker's CPU (walked in liveness_guide_browser_test.go).
	phone := walkTab(t, 360, 640, "es-MX,es;q=0.9", camera(y4m, true)...)
	blockTracker(phone)
	phone.Open(c.URL)
	phone.screen("live")
	e.order.Queue(liveness.TurnRight, liveness.Blink, liveness.TurnLeft)
	phone.click("Empezar el video")
	text := phone.screen("live-nomore")
	contains(t, text, "No pudimos confirmar que eras tú", "esta verificación terminó", "No tienes que hacer nada más aquí", "pide un enlace nuevo")
	if strings.Contains(text, "Intentar otra vez") || strings.Contains(text, "intentos restantes") {
		t.Errorf("the finished page still offers a try: %q", text)
	}
	phone.look("liveness-no-attempts-left-es-360x640")
	if s := e.status(c.ID); s != "completed" {
		t.Fatalf("after the last failed attempt the verification is %s, want completed", s)
	}
	// The account holder is told now, not when the link expires.
	e.hooks.Wait(t, 1, 30*time.Second)
	var result struct {
		RequestID    string         `json:"request_id"`
		Verification map[string]any `json:"verification"`
	}
	hook := e.hooks.Requests()[0]
	if err := json.Unmarshal(hook.Body, &result); err != nil || result.RequestID != c.ID ||
		result.Verification["webcam_appears_live"] != false || result.Verification["webcam_face_matches_license_photo"] != false {
		t.Fatalf("webhook %s (%v)", hook.Body, err)
	}

	// Opened again: the completed link, without the camera.
	again := walkTab(t, 360, 640, "en-US")
	again.Open(c.URL)
	contains(t, again.screen("ended-completed"), "Verification complete", "You can close this page.")
	again.look("liveness-no-attempts-left-reopened-en-360x640")

	// Another phone used the last attempt while this page showed "Start
	// the video".
	c = oneLeft(created{})
	stale := walkTab(t, 360, 640, "en-US", camera(y4m, true)...)
	stale.Open(c.URL)
	stale.screen("live")
	fail(c, 0)
	stale.click("Start the video")
	contains(t, stale.screen("ended-completed"), "Verification complete")
	stale.look("liveness-no-attempts-left-elsewhere-en-360x640")

	// Opened by a store in its own tab (the widget on a phone): the
	// finished page offers the way back, as Done does.
	site := serveOpener(t)
	c = oneLeft(e.createFromSite())
	shopper := walkTab(t, 360, 640, "en-US", camera(y4m, true)...)
	blockTracker(shopper)
	shopper.Open(site + "/?to=" + url.QueryEscape(c.URL+"#from="+url.QueryEscape(shop)))
	shopper.Wait(`!!document.getElementById("go")`)
	eval[bool](shopper, `(document.getElementById("go").click(), true)`)
	shopper.screen("live")
	e.order.Queue(liveness.TurnRight, liveness.Blink, liveness.TurnLeft)
	shopper.click("Start the video")
	finished := shopper.screen("live-nomore")
	contains(t, finished, "this verification is finished", "Go back to finish there.", "Back to shop.example.com")
	// No advice for an attempt there will not be (the failed steps' lines).
	for _, advice := range []string{"another movement came first", "we did not see it", "it came too late", "turn your head further", "Do only what is shown"} {
		if strings.Contains(finished, advice) {
			t.Errorf("the finished page gives advice: %q in %q", advice, finished)
		}
	}
	shopper.look("liveness-no-attempts-left-back-en-360x640")
	shopper.clickAway("Back to shop.example.com")
	shopper.Wait(`location.href.startsWith(` + jsString(site) + `) && !!document.getElementById("go")`)
	if s := e.status(c.ID); s != "completed" {
		t.Errorf("the store's verification is %s, want completed", s)
	}
}

// Camera access denied, then allowed as the page says, then "Try the
// camera again": the camera comes on, and the file button returns to
// "Upload a photo instead". It kept the no-camera wording, "Take or
// choose a photo", beside "Take photo": two buttons that read as the same.
func TestCameraAllowedAfterDenialInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	y4m := filepath.Join(t.TempDir(), "front.y4m")
	writeY4M(t, y4m, 5, []image.Image{farFront(t, foremanFace(t))})
	for _, c := range []struct {
		accept, start, blocked, retry, choose, shutter, upload string
	}{
		{"en-US", "Start", "Camera access is blocked", "Try the camera again", "Take or choose a photo", "Take photo", "Upload a photo instead"},
		{"es-MX,es;q=0.9", "Empezar", "El acceso a la cámara está bloqueado", "Probar la cámara otra vez", "Tomar o elegir una foto", "Tomar foto", "Subir una foto"},
	} {
		phone := walkTab(t, 360, 640, c.accept, camera(y4m, false)...)
		permit := func(s browser.PermissionSetting) {
			t.Helper()
			if _, err := chromedp.CallBrowser(phone.Ctx, browser.SetPermission, browser.SetPermissionParams{
				Permission: &browser.PermissionDescriptor{Name: "camera"}, Setting: s, Origin: e.URL,
			}); err != nil {
				t.Fatal(err)
			}
		}
		permit(browser.PermissionSettingDenied)
		phone.Open(e.create(`{}`).URL)
		phone.screen("start")
		phone.click(c.start)
		phone.WaitText(c.blocked, c.choose, c.retry)
		phone.look("camera-denied-" + c.accept[:2] + "-360x640")
		permit(browser.PermissionSettingGranted)
		phone.click(c.retry)
		phone.cameraOn()
		text := phone.screen("front")
		contains(t, text, c.shutter, c.upload)
		if strings.Contains(text, c.choose) || strings.Contains(text, c.blocked) {
			t.Errorf("%s: with the camera on the page still reads %q", c.accept, text)
		}
		phone.look("camera-allowed-after-denial-" + c.accept[:2] + "-360x640")
	}
}

// The face match's wait, held open by pausing POST /submit in the
// browser: its heading used to repeat the spinner's words ("Checking your
// photos…" twice, read twice by a screen reader) without saying what was
// being checked. It now reads "Almost done" and says the selfie is
// compared with the license photo, once; then the done page.
func TestFaceMatchWaitInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	for _, lang := range []struct{ accept, title, wait, done string }{
		{"en-US", "Almost done", "Comparing your selfie with the photo on your license. This takes a few seconds.", "Done, you can close this page."},
		{"es-MX,es;q=0.9", "Ya casi está", "Comparando tu selfi con la foto de tu licencia. Tarda unos segundos.", "Listo, puedes cerrar esta página."},
	} {
		c := e.create(`{}`)
		e.throughAPI(c, foremanFace(t))
		phone := walkTab(t, 360, 640, lang.accept)
		paused := make(chan fetch.RequestID, 1)
		check(t, chromedp.Listen(phone.Ctx, func(ev any) {
			if p, ok := ev.(*fetch.EventRequestPaused); ok {
				paused <- p.RequestID
			}
		}))
		_, err := chromedp.Call(phone.Ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/submit"}}})
		check(t, err)
		phone.Open(c.URL) // every step done: the page submits
		var id fetch.RequestID
		select {
		case id = <-paused:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the page never sent submit", lang.accept)
		}
		text := phone.screen("submitting")
		contains(t, text, lang.title, lang.wait)
		if n := strings.Count(text, lang.wait); n != 1 || eval[string](phone, `document.querySelector("h1").textContent`) != lang.title {
			t.Errorf("%s: the wait reads %q (the sentence %d times)", lang.accept, text, n)
		}
		phone.look("face-match-wait-" + lang.accept[:2] + "-360x640")
		_, err = chromedp.Call(phone.Ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		check(t, err)
		contains(t, phone.screen("done"), lang.done)
		phone.look("done-" + lang.accept[:2] + "-360x640")
	}
}
