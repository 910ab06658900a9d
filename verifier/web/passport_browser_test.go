package web_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/web"
)

// dataPage is a 1600×1200 JPEG photo of a passport's data page (ICAO 9303
// TD3) rendered by verifier/mrz/mrztest, the page 80% of the frame wide
// and turned 2°, carrying zone (nil: a page without its zone) and face
// printed as its portrait.
func dataPage(t *testing.T, zone []string, face image.Image) []byte {
	t.Helper()
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	cam := mrztest.Camera{Width: 1600, Height: 1200, PageFrac: 0.8, Angle: 2, Blur: 0.5, Light: 0.1, Noise: 2, Quality: 92}
	img, err := mrztest.PrintedShot(f, mrz.TD3, zone, face, mrztest.Print{}, cam, rand.New(rand.NewPCG(35, 1)))
	check(t, err)
	var b bytes.Buffer
	check(t, jpeg.Encode(&b, img, &jpeg.Options{Quality: 92}))
	return b.Bytes()
}

// still is one picture as a test camera segment (testdata/livecamera.js).
func still(data []byte) segment {
	return segment{URLs: []string{"data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(data)}, At: []int{0}}
}

// The passport's path on a 390×844 phone, on a link that accepts the
// driver's license and the passport: the start page names both, the pick
// (reached and chosen with the keyboard), the license picked first and
// then another document chosen instead, the data page's step (the guide
// framed to the page's 125 × 88 mm, no page in view said in the page's
// words), a photo without the zone refused in words, the page on the test
// camera taken by the live guidance and accepted,
// then the selfie video (Foreman on the test camera, cues paced by the
// clock as in TestVerificationInChromium) and Done; the result is the
// passport's. The pick and the data page's step are looked at (axe, width,
// target sizes) at 390×844 and 360×640: var/screenshots/walk/passport-*.
func TestPassportInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.create(`{"accepted_documents":["drivers_license","passport"],"requested_fields":["first_names","last_name","document_number"],"encryption_key_mode":"none"}`)
	zone := mrztest.Zone(rand.New(rand.NewPCG(35, 2)), mrz.TD3)
	face := foremanFace(t)

	phone := walkTab(t, 390, 844, "en-US")
	liveCameraOn(phone)
	blockTracker(phone)
	phone.Open(c.URL)
	contains(t, phone.screen("start"), web.T("en", "start.check.either"), "license or passport number", web.T("en", "start.time.either"))
	table, err := flowtest.NoCardPhoto(2)
	check(t, err)
	phone.loadSegment("rest", still(table)) // an empty table until the page is shown
	phone.click("Start")

	// The pick: each kind a button, in the link's order; Tab from the
	// heading reaches the first, then the second, and Enter chooses.
	contains(t, phone.screen("pick"), "Which document will you use?", "Driver's license or state ID", "Passport", "A photo of the page with your photo")
	if got := eval[string](phone, `[...document.querySelectorAll("main button.pick")].map(b => b.dataset.kind).join()`); got != "drivers_license,passport" {
		t.Fatalf("the pick offers %q", got)
	}
	both := func(name string) {
		t.Helper()
		phone.look(name + "-390x844")
		phone.Run(chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		phone.look(name + "-360x640")
		phone.Run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	}
	both("passport-01-pick")
	phone.Wait(`document.activeElement === document.querySelector("main h1")`)
	phone.Run(chromedp.KeyEvent(kb.Tab))
	if got := eval[string](phone, `document.activeElement.dataset.kind || document.activeElement.outerHTML.slice(0, 60)`); got != "drivers_license" {
		t.Fatalf("Tab from the heading reached %q, not the first document", got)
	}
	phone.Run(chromedp.KeyEvent(kb.Enter))

	// The license's front, with another document offered; chosen, the
	// pick comes back and the passport is taken.
	contains(t, phone.screen("front"), "Front of your license", "Use another document")
	phone.click("Use another document")
	phone.screen("pick")
	phone.Wait(`document.activeElement === document.querySelector("main h1")`)
	phone.Run(chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
	if got := eval[string](phone, `document.activeElement.dataset.kind || ""`); got != "passport" {
		t.Fatalf("the second Tab reached %q, not the passport", got)
	}
	phone.Run(chromedp.KeyEvent(kb.Enter))

	phone.screen("passport")
	phone.cameraOn()
	// The footer's note of the photos kept follows the pick.
	contains(t, eval[string](phone, `document.querySelector("footer.foot").innerText`), web.T("en", "start.kept.passport"))
	contains(t, phone.screen("passport"), "Your passport's photo page", "the two lines of letters and <<< at the bottom", "Take photo", "Upload a photo instead",
		"Use another document", "STEP 1 OF 2")
	if r := eval[float64](phone, `(() => { const g = document.querySelector(".stage .guide").getBoundingClientRect(); return g.width / g.height; })()`); r < 1.40 || r > 1.44 {
		t.Errorf("the guide's aspect is %.3f, a TD3 page's 125/88 = 1.420", r)
	}
	phone.Wait(`(document.querySelector(".guidance") || {}).dataset?.advice === "find"`)
	contains(t, phone.screen("passport"), web.T("en", "guide.find.passport"), web.T("en", "guide.auto.passport"))
	both("passport-02-page")

	// A page whose zone is missing: the server's reason in the table's
	// words, in an alert, and the shutter still there.
	phone.upload("passport", writeFile(t, "nozone.jpg", dataPage(t, nil, face)))
	phone.Wait(`!!document.querySelector(".status .alert")`)
	contains(t, phone.screen("passport"), "Let's take that photo again", web.T("en", "problem.mrz_not_found"))
	if !phone.inView(`[...document.querySelectorAll("button")].find(b => b.textContent === "Take photo")`) {
		t.Error("after the refusal the shutter is off the screen")
	}
	phone.look("passport-03-refused-390x844")

	// The page on the camera, held still: the guide takes it by itself.
	phone.loadSegment("rest", still(dataPage(t, zone, face)))
	if seen := phone.advices("passport", 60*time.Second); len(seen) == 0 || seen[len(seen)-1] != "capture" {
		t.Errorf("the data page: advice %v, want the photo taken by the guide last", seen)
	}
	contains(t, phone.screen("live"), "Selfie video", "Retake the photo of your passport", "STEP 2 OF 2")
	if strings.Contains(phone.screen("live"), "Retake the photo of the back") {
		t.Error("the passport's selfie step offers the license's back")
	}
	phone.look("passport-04-liveness-intro-390x844")

	foremanPassesLiveness(t, e, phone)
	contains(t, phone.screen("done"), "Done, you can close this page")
	phone.look("passport-05-done-390x844")

	// The result is the passport's: its kind and the zone's data.
	v := documentResult(e, c.ID)
	number := strings.TrimRight(zone[1][:9], "<")
	if r := v.Result; v.Status != "completed" || r.DocumentType != "passport" || !r.Verification.Live || r.Verification.Match != true || r.Data["document_number"] != number {
		t.Fatalf("the verification: %+v; want completed, a passport numbered %s, live, matching", v, number)
	}
}

// A test link accepting both kinds: the test page asks which document
// the result names (the link's first by default), shows no pick of its
// own, and the result says passport when it is chosen.
func TestTestModePassportInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	c := e.create(`{"accepted_documents":["drivers_license","passport"]}`)
	phone := walkTab(t, 390, 844, "en-US")
	phone.Open(c.URL)
	contains(t, phone.screen("test"), "Document shown", "Driver's license or state ID")
	if got := eval[string](phone, `document.querySelector("#test-document").value`); got != "drivers_license" {
		t.Errorf("the test page's document is %q by default, want the link's first", got)
	}
	eval[bool](phone, `(document.querySelector("#test-document").value = "passport", true)`)
	phone.ShootHere("passport-06-test-page-390x844")
	phone.click("Finish with this outcome")
	phone.screen("done")
	var v struct {
		Status string `json:"status"`
		Result struct {
			DocumentType string `json:"document_type"`
		} `json:"result"`
	}
	e.call("GET", "/verification?id="+c.ID, "", 200, &v)
	if v.Status != "completed" || v.Result.DocumentType != "passport" {
		t.Fatalf("the test verification: %+v, want completed with document_type passport", v)
	}
}

// foremanPassesLiveness walks the selfie video from its intro: Foreman on
// the test camera, in his own order. A refusal is tried again as the page
// offers (the test camera draws on the page's thread, which a loaded
// machine can starve); a second fails the test.
func foremanPassesLiveness(t *testing.T, e *env, phone *tab) {
	t.Helper()
	phone.loadSegment("rest", foremanSegment(t, foremanSegments["rest"]))
	eval[bool](phone, `(idgateTestCamera.again.rest = 0, true)`)
	start := "Start the video"
	for try := 1; ; try++ {
		foremanDoes(e, phone, foremanOwn...)
		phone.click(start)
		end, w := answered(t, phone, walk{})
		if w.Answer.Passed {
			return
		}
		if try == 2 {
			t.Fatalf("asked in his own order he was refused twice: %q, the server said %+v", end, w.Answer)
		}
		t.Logf("attempt %d refused: %+v", try, w.Answer)
		phone.screen("live-failed")
		start = "Try again"
	}
}

// documentVerification is what a document walk's test reads back of its
// verification: the kind, liveness, the match, the document's look and
// its data.
type documentVerification struct {
	Status string `json:"status"`
	Result struct {
		DocumentType string `json:"document_type"`
		Verification struct {
			Live  bool `json:"webcam_appears_live"`
			Match any  `json:"webcam_face_matches_license_photo"`
			Real  bool `json:"license_appears_real"`
		} `json:"verification"`
		Data map[string]string `json:"license_data"`
	} `json:"result"`
}

// documentResult reads verification id back through the API.
func documentResult(e *env, id string) documentVerification {
	var v documentVerification
	e.call("GET", "/verification?id="+id, "", 200, &v)
	return v
}
