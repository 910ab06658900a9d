package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/qr/qrtest"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/web/npmbundle"
)

// camera feeds Chromium's fake camera from a y4m file, granting access
// without a prompt unless denied.
func camera(file string, granted bool) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-fake-ui-for-media-stream", granted),
		chromedp.Flag("use-file-for-fake-video-capture", file),
	}
}

// shootPhones takes plain screenshots of the page at 360×640 and 390×844
// (name-360x640, name-390x844), then puts the tab back at w×h.
func (tb *tab) shootPhones(name string, w, h int64) {
	tb.T.Helper()
	phone := func(w, h int64) {
		tb.Run(chromedp.EmulateViewport(w, h, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	}
	for _, size := range [][2]int64{{360, 640}, {390, 844}} {
		phone(size[0], size[1])
		tb.Screenshot(fmt.Sprintf("%s-%dx%d", name, size[0], size[1]))
	}
	phone(w, h)
}

// click presses the button (or button-styled label) reading label.
func (tb *tab) click(label string) {
	tb.T.Helper()
	tb.press(label, "b.click()")
}

// clickAway presses a button that leaves the page ("Back to {site}"). The
// click runs after the evaluation has answered: a navigation started
// within it fails the evaluation ("Inspected target navigated or
// closed", seen at load).
func (tb *tab) clickAway(label string) {
	tb.T.Helper()
	tb.press(label, "setTimeout(() => b.click(), 0)")
}

func (tb *tab) press(label, do string) {
	tb.T.Helper()
	ok := eval[bool](tb, fmt.Sprintf(`(() => { const b = [...document.querySelectorAll("button, label.button")].find(b => b.textContent.trim() === %q && !b.hidden && !b.disabled);
		if (!b) return false; %s; return true; })()`, label, do))
	if !ok {
		tb.T.Fatalf("no button %q on screen %q", label, eval[string](tb, `document.querySelector("main").dataset.screen`))
	}
}

// upload chooses file in the license step's file input.
func (tb *tab) upload(side, file string) {
	tb.T.Helper()
	tb.Run(chromedp.SetUploadFiles("#file-"+side, []string{file}))
}

// cameraOn waits until the license step shows the live camera.
func (tb *tab) cameraOn() {
	tb.T.Helper()
	tb.Wait(`(() => { const v = document.querySelector(".stage video"); return !!v && v.videoWidth > 0 && !v.closest(".stage").hidden; })()`)
}

// A whole verification on a phone, page by page, to completed: the
// license through the file input, a failed liveness challenge and its
// retry on the fake camera (Foreman), while a computer that opened the
// same link shows its QR code and then "Completed on your phone".
func TestVerificationInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.create(`{"message":"Hi! We check the age of every buyer of wine before we ship.","requested_fields":["first_names","last_name","dob"],` +
		`"encryption_key_mode":"none","webhook_url":"` + e.hooks.URL + `"}`)

	desk := newTab(t, false)
	desk.Open(c.URL)
	text := desk.screen("start")
	contains(t, text, "Continue on your phone", "Hi! We check the age", "first name, last name, date of birth", "Continue on this computer",
		"A phone can't open this code") // the link is on 127.0.0.1
	desk.Wait(`document.querySelector("img.qr").complete && document.querySelector("img.qr").naturalWidth > 0`)
	shot, err := chromedp.Run(desk.Ctx, chromedp.Screenshot("img.qr"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := qrtest.Read(img); err != nil || got != c.URL {
		t.Fatalf("the QR code reads %q (%v), want the link %q", got, err, c.URL)
	}
	desk.Shoot("01-start-desktop-handoff")

	// This walk is the page without its face tracker, its cues paced by
	// the clock, as a phone that cannot load it gets (the tracker is
	// walked in liveness_guide_browser_test.go). On its test camera
	// Foreman does his gestures while the cues are up (foremanDoes):
	// Chromium's fake camera played his clip on a clock of its own, which
	// on a loaded machine (load 10–12) drifted against the page's, so his
	// blink fell in a turn's cue and the retry was refused.
	phone := newTab(t, true)
	liveCameraOn(phone)
	blockTracker(phone)
	phone.Open(c.URL)
	text = phone.screen("start")
	phone.loadSegment("rest", foremanSegment(t, foremanSegments["rest"]))
	eval[bool](phone, `(idgateTestCamera.again.rest = 0, true)`) // he keeps talking
	contains(t, text, "Verify your identity", "Hi! We check the age", "first name, last name, date of birth", "Start")
	// What is kept is said in every page's footer, outside <main>.
	contains(t, eval[string](phone, `document.querySelector("footer.foot").innerText`), "kept, locked, in case a person must review")
	if strings.Contains(text, "Continue on your phone") {
		t.Error("the phone is offered to continue on a phone")
	}
	phone.Shoot("02-start")
	// At 320 px with text at 200 % nothing is cut off sideways.
	phone.Run(chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	eval[bool](phone, `document.documentElement.style.fontSize = "200%", true`)
	phone.Screenshot("02-start-320px-text-200pct")
	if w := eval[int](phone, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
		t.Errorf("at 320 px and 200 %% text the start page is %d px too wide", w)
	}
	eval[bool](phone, `document.documentElement.style.fontSize = "", true`)
	phone.Size(true)
	phone.click("Start")

	phone.screen("front")
	phone.cameraOn()
	phone.Shoot("03-front-camera")
	// Turned sideways, the camera and the shutter still fit the screen.
	phone.Run(chromedp.EmulateViewport(844, 390, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape))
	phone.Screenshot("03-front-camera-landscape")
	if !eval[bool](phone, `(() => { const b = [...document.querySelectorAll("button")].find(b => b.textContent === "Take photo").getBoundingClientRect(); return b.bottom <= innerHeight; })()`) {
		t.Error("in landscape the shutter is below the screen")
	}
	phone.Size(true)
	frontJPG := writeFile(t, "front.jpg", front(t, foremanFace(t)))
	phone.upload("front", frontJPG)
	contains(t, phone.screen("back"), "Retake the front photo")
	// The accepted front may be photographed again until submit: back to
	// the front's step, and on to the back once it is taken.
	phone.click("Retake the front photo")
	phone.screen("front")
	phone.upload("front", frontJPG)
	phone.screen("back")
	phone.cameraOn()
	phone.Shoot("04-back-camera")
	backJPG := writeFile(t, "back.jpg", back(t))
	phone.upload("back", backJPG)
	// And the accepted back, from the selfie step's first screen.
	phone.screen("live")
	phone.click("Retake the photo of the back")
	phone.screen("back")
	phone.upload("back", backJPG)
	contains(t, phone.screen("live"), "Selfie video", "needs your camera", "Retake the photo of the back")
	phone.Shoot("05-liveness-intro")
	desk.Wait(`document.body.innerText.includes("2 of 3 steps done")`)

	// A challenge in an order Foreman does not follow fails, and says
	// which step went wrong; the retry, in his order, passes.
	foremanDoes(e, phone, liveness.TurnRight, liveness.Blink, liveness.TurnLeft)
	phone.click("Start the video")
	phone.screen("live-capture")
	phone.Wait(`document.querySelector(".cue").className.includes("turn_right")`)
	if eval[bool](phone, `document.querySelector(".stage").dataset.tracker === "on"`) {
		t.Fatal("the tracker runs in a page without WebAssembly")
	}
	phone.Shoot("06-liveness-capture")
	if end, w := answered(t, phone, walk{}); w.Answer.Passed || len(w.Answer.Steps) == 0 || w.Answer.Steps[0].Reason != "wrong_step" {
		t.Fatalf("asked to turn right first, he blinked and turned left: %q, the server said %+v", end, w.Answer)
	}
	text = phone.screen("live-failed")
	contains(t, text, "That did not work", "You turned your head to your left first", "4 attempts left", "Try again")
	phone.Shoot("07-liveness-failed")
	foremanDoes(e, phone, foremanOwn...)
	phone.click("Try again")
	end, w := answered(t, phone, walk{})
	played := eval[string](phone, `JSON.stringify({log: idgateTestCamera.log, again: idgateTestCamera.repeats, stall: idgateTestCamera.stall})`)
	if !w.Answer.Passed {
		t.Fatalf("asked in his own order he was refused: %q, the server said %+v; the camera played %s; frames sent at %v ms", end, w.Answer, played, w.Sent)
	}
	t.Logf("the retry passed: steps %+v; the camera played %s; %d frames sent", w.Answer.Steps, played, len(w.Sent))
	contains(t, phone.screen("done"), "Done, you can close this page", "Your result has gone to", "They will tell you what comes next")
	phone.Shoot("08-done")
	if s := e.status(c.ID); s != "completed" {
		t.Fatalf("verification is %s, want completed", s)
	}
	// The account holder gets the signed result.
	e.hooks.Wait(t, 1, 30*time.Second)
	hook := e.hooks.Requests()[0]
	var result struct {
		RequestID    string `json:"request_id"`
		Verification struct {
			Live  bool `json:"webcam_appears_live"`
			Match any  `json:"webcam_face_matches_license_photo"`
		} `json:"verification"`
	}
	if err := json.Unmarshal(hook.Body, &result); err != nil || result.RequestID != c.ID || !result.Verification.Live ||
		result.Verification.Match != true || hook.Header.Get("Idgate-Signature") == "" {
		t.Fatalf("webhook %v %s (%v)", hook.Header, hook.Body, err)
	}
	for _, never := range []string{"score", "match", "Kansas", "KS"} {
		if strings.Contains(eval[string](phone, `document.body.innerText`), never) {
			t.Errorf("the result page shows %q", never)
		}
	}

	contains(t, desk.screen("handoff-done"), "Completed on your phone")
	desk.Shoot("09-desktop-completed-on-phone")
}

// foremanDoes queues a challenge asked in order on e and has Foreman do
// his own gestures on tb's test camera one per cue, at his own pace: the
// i-th of foremanOwn while the i-th cue is up, whatever it asks (asked
// in his order, he follows the cues). The page without its tracker
// cannot tell him it saw a gesture, so while its cue is still up he does
// it again half a second after it ended, as a person unsure of being seen
// does (the server ignores a step done again). Once each would do where
// the page keeps up, but his gestures are quick (eyes shut for 70 ms, a
// turn past the server's angle for 230 ms), and a page starved on a
// loaded machine missed a turn once in 8 walks at load 29.
func foremanDoes(e *env, tb *tab, order ...liveness.Step) {
	tb.T.Helper()
	e.order.Queue(order...)
	eval[bool](tb, `(Object.assign(idgateTestCamera, {log: [], repeats: 0, stall: 0, sent: null, frames: null, answer: null, again: {rest: 0}}), true)`)
	for i, asked := range order {
		tb.loadSegment(string(asked), foremanSegment(e.t, foremanSegments[string(foremanOwn[i])]))
		eval[bool](tb, fmt.Sprintf(`(idgateTestCamera.again[%q] = 500, true)`, asked))
	}
}

// A license that does not match the selfie: the page offers a manual
// review, and both answers work.
func TestReviewOfferInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	phone := newTab(t, true)
	for i, choice := range []struct{ button, screen, status string }{
		{"Send for review", "review-sent", "manual_review"},
		{"No, finish without review", "done", "completed"},
	} {
		c := e.create(`{}`)
		e.throughAPI(c, otherFace(t))
		phone.Open(c.URL) // all steps done: the page submits
		contains(t, phone.screen("review"), "We could not confirm that the photos match", "Send for review", "No, finish without review")
		if i == 0 {
			phone.Shoot("10-review-offer")
		}
		phone.click(choice.button)
		phone.screen(choice.screen)
		if i == 0 {
			phone.Shoot("11-review-sent")
		}
		if s := e.status(c.ID); s != choice.status {
			t.Fatalf("%s: verification is %s, want %s", choice.button, s, choice.status)
		}
		// Opened again, the link says how it ended.
		phone.Open(c.URL)
		phone.screen(map[string]string{"manual_review": "ended-review", "completed": "ended-completed"}[choice.status])
	}
}

// The license steps through the camera: a y4m of a card front too far
// away for the page's guide to take it by itself (the shutter takes it,
// the server accepts it), and a second phone (the fake camera is per
// browser) with one of the back, whose barcode reads on the device, so
// the page sends it without the shutter.
func TestLicenseCameraInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	c := e.create(`{}`)
	frontY4M := filepath.Join(t.TempDir(), "front.y4m")
	writeY4M(t, frontY4M, 5, []image.Image{farFront(t, foremanFace(t))})
	phone := newTab(t, true, camera(frontY4M, true)...)
	phone.Open(c.URL)
	phone.screen("start")
	phone.click("Start")
	phone.screen("front")
	phone.cameraOn()
	phone.Shoot("12-front-card-in-view")
	phone.click("Take photo")
	phone.screen("back")

	backY4M := filepath.Join(t.TempDir(), "back.y4m")
	writeY4M(t, backY4M, 5, []image.Image{decode(t, back(t))})
	other := newTab(t, true, camera(backY4M, true)...)
	other.Open(c.URL)
	other.screen("back")
	if _, err := npmbundle.BarcodeReader(); err != nil { // built without make npm: today's shutter
		other.cameraOn()
		other.click("Take photo")
	}
	other.screen("live")
}

// Camera access denied: the license steps say how to allow it and take
// photos through the file input; liveness says it needs the camera.
func TestCameraDeniedInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	c := e.create(`{}`)
	y4m := filepath.Join(t.TempDir(), "foreman.y4m")
	writeY4M(t, y4m, 15, foremanTalking(t))
	phone := newTab(t, true, camera(y4m, false)...)
	if _, err := chromedp.CallBrowser(phone.Ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "camera"}, Setting: browser.PermissionSettingDenied, Origin: e.URL,
	}); err != nil {
		t.Fatal(err)
	}
	phone.Open(c.URL)
	phone.screen("start")
	phone.click("Start")
	phone.screen("front")
	phone.Wait(`document.body.innerText.includes("Camera access is blocked")`)
	contains(t, phone.screen("front"), "Camera → Allow", "Take or choose a photo", "Try the camera again")
	phone.Shoot("13-front-camera-denied")
	// A photo without the card: the server's reason, in the table's words.
	noCard, err := flowtest.NoCardPhoto(3)
	check(t, err)
	phone.upload("front", writeFile(t, "table.jpg", noCard))
	phone.Wait(`document.body.innerText.includes("take that photo again")`)
	contains(t, phone.screen("front"), "We could not find your license in the photo")
	phone.Shoot("13-front-retake")
	// A 48 MP photo is over the server's 40 MP bound (sent as it is, it is
	// refused); the page downscales it before upload, so it is accepted.
	big := jpegBytes(t, huge(decode(t, front(t, foremanFace(t)))))
	if body := e.endUser(e.create(`{}`), "/license/front", "image/jpeg", big, 422); !strings.Contains(string(body), "image_too_large") {
		t.Fatalf("a 48 MP photo sent as it is: %s", body)
	}
	phone.upload("front", writeFile(t, "front.jpg", big))
	phone.screen("back")
	phone.upload("back", writeFile(t, "back.jpg", back(t)))
	phone.screen("live")
	phone.click("Start the video")
	onPhone := phone.screen("live-nocamera")
	contains(t, onPhone, "Camera access is blocked", "needs your camera", "STEP 3 OF 3")
	if strings.Contains(onPhone, "Continue on your phone") {
		t.Errorf("a phone is offered to continue on a phone: %q", onPhone)
	}
	phone.Shoot("14-liveness-needs-camera")

	// A computer without a camera is offered the phone instead of a dead
	// end (the QR code of the same link, as the start page offers it).
	desk := newTab(t, false)
	desk.Open(e.create(`{}`).URL)
	desk.screen("start")
	desk.click("Continue on this computer")
	desk.screen("front")
	desk.upload("front", writeFile(t, "front-desk.jpg", front(t, foremanFace(t))))
	desk.screen("back")
	desk.upload("back", writeFile(t, "back-desk.jpg", back(t)))
	desk.screen("live")
	desk.click("Start the video")
	contains(t, desk.screen("live-nocamera"), "needs your camera", "Try the camera again", "Continue on your phone",
		"Point your phone's camera at this code")
	desk.Wait(`document.querySelector("img.qr").complete && document.querySelector("img.qr").naturalWidth > 0`)
	desk.look("14-liveness-no-camera-desktop")

	// Inside another app's browser the page says to open it in a real one.
	inApp := newTab(t, true, camera(y4m, false)...)
	if _, err := chromedp.Call(inApp.Ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: chromium.PhoneUA + " Instagram 309.0.0.40.113"}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.CallBrowser(inApp.Ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "camera"}, Setting: browser.PermissionSettingDenied, Origin: e.URL,
	}); err != nil {
		t.Fatal(err)
	}
	inApp.Open(e.create(`{}`).URL)
	inApp.screen("start")
	inApp.click("Start")
	inApp.Wait(`document.body.innerText.includes("This app cannot use the camera")`)
	contains(t, inApp.screen("front"), "Open in browser", "Take or choose a photo")
}
