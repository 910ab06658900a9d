package web_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/web"
)

// The ID card's path on a 390×844 phone, on a link that accepts the
// driver's license and the ID card: the start page names no one document
// (the two kinds listed), the pick chooses the card, its front step (the
// license front's card guide, its advice in the ID card's words while no
// card is in view) takes the card's front by itself once it is held still
// on the test camera; the back's step (the same guide, framed with the
// zone's band) takes the front still shown by itself and the server
// refuses it in words; the guide then holds back while that card stays,
// and takes the card's back by itself once it is turned over; then the
// selfie video (Foreman) and Done; the result is the card's. Each step is looked at (axe, width, target sizes) at 390×844 and
// 360×640: var/screenshots/walk/idcard-*.
func TestIDCardInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.create(`{"accepted_documents":["drivers_license","id_card"],"requested_fields":["first_names","last_name","document_number"],"encryption_key_mode":"none"}`)
	zone := mrztest.Zone(rand.New(rand.NewPCG(35, 3)), mrz.TD1)
	face := foremanFace(t)
	table, err := flowtest.NoCardPhoto(2)
	check(t, err)

	phone := walkTab(t, 390, 844, "en-US")
	liveCameraOn(phone)
	blockTracker(phone)
	phone.Open(c.URL)
	contains(t, phone.screen("start"), "One of these documents, as you choose: Driver's license or state ID · National ID or passport card", "document number",
		web.T("en", "start.time.any"))
	phone.loadSegment("rest", still(table)) // an empty table until the card is shown
	phone.click("Start")

	both := func(name string) {
		t.Helper()
		phone.look(name + "-390x844")
		phone.Run(chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		phone.look(name + "-360x640")
		phone.Run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	}
	contains(t, phone.screen("pick"), "National ID or passport card", web.T("en", "pick.id_card.hint"))
	both("idcard-01-pick")
	eval[bool](phone, `(document.querySelector("main button.pick[data-kind=id_card]").click(), true)`)

	// The front: the card guide, saying in the card's words that none is
	// in view; the footer's note of the photos kept follows the pick.
	contains(t, phone.screen("idfront"), "Front of your ID card", "with your photo", "Use another document", "STEP 1 OF 3")
	phone.cameraOn()
	phone.Wait(`(document.querySelector(".guidance") || {}).dataset?.advice === "find"`)
	contains(t, phone.screen("idfront"), web.T("en", "guide.find.idcard"))
	contains(t, eval[string](phone, `document.querySelector("footer.foot").innerText`), web.T("en", "start.kept.idcard"))
	both("idcard-02-front")
	// The card on the table, held still: the guide takes it by itself.
	phone.loadSegment("rest", still(front(t, face)))
	seen := phone.advices("idfront", 60*time.Second)
	if len(seen) == 0 || seen[len(seen)-1] != "capture" {
		t.Errorf("front: advice %v, want the photo taken by the guide last", seen)
	}

	phone.screen("idback")
	phone.cameraOn()
	contains(t, phone.screen("idback"), "Back of your ID card", "three lines of letters and <<<", "Take photo", "Upload a photo instead",
		"Retake the front photo", "STEP 2 OF 3")
	if r := eval[float64](phone, `(() => { const g = document.querySelector(".stage .guide").getBoundingClientRect(); return g.width / g.height; })()`); r < 1.55 || r > 1.61 {
		t.Errorf("the guide's aspect is %.3f, an ID-1 card's 85.6/54 = 1.585", r)
	}

	// The camera still shows the front, held still: the back's guide
	// judges the card, not the zone, so it takes it by itself, and the
	// server refuses it in the card's words, the shutter in view.
	phone.Wait(`!!document.querySelector(".status .alert")`)
	contains(t, phone.screen("idback"), "Let's take that photo again", web.T("en", "problem.idback.mrz_not_found"))
	if !phone.inView(`[...document.querySelectorAll("button")].find(b => b.textContent === "Take photo")`) {
		t.Error("after the refusal the shutter is off the screen")
	}
	if said := eval[string](phone, `(document.querySelector(".guidance") || {}).textContent || ""`); said != "" {
		t.Errorf("beside the refusal the guide still says %q", said)
	}
	both("idcard-03-back-refused")
	// The guide started again holds back while the refused card stays
	// where it was: ten frames judged, none taken (autocapture.ts, Refused).
	phone.Wait(`(() => { const w = document.querySelector(".guidance"); return !!w && w.dataset.advice === "refused" && !!(window.heldBack = w); })()`)
	from := eval[int](phone, `+window.heldBack.dataset.judged`)
	phone.Wait(fmt.Sprintf(`!window.heldBack.isConnected || +window.heldBack.dataset.judged >= %d`, from+10))
	if held := eval[string](phone, `window.heldBack.isConnected ? window.heldBack.dataset.advice : "a photo taken"`); held != "refused" {
		t.Errorf("the refused front, left where it was: %s after %d frames, want the guide holding back", held, 10)
	}

	// The back turned to the camera (a new look where the front was) and
	// held still: taken by itself.
	back, err := flowtest.IDCardBackPhoto(zone, 1)
	check(t, err)
	phone.loadSegment("rest", still(back))
	seen = phone.advices("idback", 60*time.Second)
	if len(seen) == 0 || seen[len(seen)-1] != "capture" {
		t.Errorf("back: advice %v, want the photo taken by the guide last", seen)
	}
	contains(t, phone.screen("live"), "Selfie video", "Retake the photo of the back", "STEP 3 OF 3")
	phone.look("idcard-05-liveness-intro-390x844")

	foremanPassesLiveness(t, e, phone)
	contains(t, phone.screen("done"), "Done, you can close this page")

	// The result is the card's: its kind and the zone's number.
	v := documentResult(e, c.ID)
	number := strings.TrimRight(zone[0][5:14], "<")
	if r := v.Result; v.Status != "completed" || r.DocumentType != "id_card" || !r.Verification.Live || r.Verification.Match != true ||
		!r.Verification.Real || r.Data["document_number"] != number {
		t.Fatalf("the verification: %+v; want completed, an ID card numbered %s, real, live, matching", v, number)
	}
}

// A test link (docs/test-mode.md) accepting the license and the ID card,
// walked at 390×844: the test page offers both documents (the link's
// first chosen), the tester chooses the ID card and the under-21 outcome
// and finishes; the result names id_card and reads the fixture's TD1
// card (flow.FixtureIDCard): its number, names, nationality, dates and
// sex, no address, its printed front agreeing with its zone. A second link accepting only the ID card shows no
// choice of document and still names id_card. Screenshots:
// var/screenshots/walk/idcard-test-*.
func TestTestModeIDCardInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	fields := `"requested_fields":["first_names","last_name","document_number","dob","expiry_date","sex","nationality","country","address_city"]`
	c := e.create(`{"accepted_documents":["drivers_license","id_card"],"front_barcode_match":true,"encryption_key_mode":"none",` + fields + `}`)
	phone := walkTab(t, 390, 844, "en-US")
	phone.Open(c.URL)
	page := phone.screen("test")
	contains(t, page, "Test mode", web.T("en", "test.document"), web.T("en", "pick.id_card"),
		web.T("en", "test.o.document_expired"), web.T("en", "test.o.document_not_genuine"))
	if strings.Contains(page, web.T("en", "test.o.license_expired")) {
		t.Errorf("a link accepting the ID card too names a license in its outcomes:\n%s", page)
	}
	if got := eval[string](phone, `[...document.querySelectorAll("#test-document option")].map(o => o.value).join()`); got != "drivers_license,id_card" {
		t.Fatalf("the test page's documents are %q", got)
	}
	eval[bool](phone, `(document.querySelector("#test-document").value = "id_card", true)`)
	eval[bool](phone, `(document.querySelector("input[name=outcome][value=under_21]").click(), true)`)
	phone.look("idcard-test-01-page-390x844")
	phone.click("Finish with this outcome")
	contains(t, phone.screen("done"), "Test mode", "Done, you can close this page")
	phone.look("idcard-test-02-done-390x844")

	var raw json.RawMessage
	e.call("GET", "/verification?id="+c.ID, "", 200, &raw)
	var v struct {
		Status string `json:"status"`
		Result struct {
			Livemode     *bool          `json:"livemode"`
			DocumentType string         `json:"document_type"`
			Verification map[string]any `json:"verification"`
			Data         map[string]any `json:"license_data"`
		} `json:"result"`
	}
	check(t, json.Unmarshal(raw, &v))
	// The fixture person is 35 today; under_21 makes them 19 (dates are
	// the fixture's, read on the server's day, which a walk straddling
	// midnight UTC could move by one).
	today := license.DateOf(time.Now().UTC())
	want := map[string]any{"first_names": "ALEX JORDAN", "last_name": "SAMPLE", "document_number": "C00000049",
		"dob": today.AddYears(-19).String(), "expiry_date": today.AddYears(4).String(), "sex": "X", "nationality": "USA",
		"country": "USA", "address_city": nil}
	r := v.Result
	front, _ := r.Verification["front_barcode_match"].(map[string]any)
	if v.Status != "completed" || r.Livemode == nil || *r.Livemode || r.DocumentType != "id_card" ||
		r.Verification["over_18"] != true || r.Verification["over_21"] != false || r.Verification["license_expired"] != false ||
		front["result"] != "match" || !reflect.DeepEqual(r.Data, want) {
		t.Fatalf("the test ID card's verification:\n%s\nwant completed, test, id_card, over 18 not 21, license_data %v", raw, want)
	}

	// A link taking only the ID card: nothing to choose.
	only := e.create(`{"accepted_documents":["id_card"],"encryption_key_mode":"none",` + fields + `}`)
	phone.Open(only.URL)
	phone.screen("test")
	if eval[bool](phone, `!!document.querySelector("#test-document")`) {
		t.Error("a link taking one kind offers a choice of document")
	}
	phone.look("idcard-test-03-only-390x844")
	phone.click("Finish with this outcome")
	phone.screen("done")
	if got := documentResult(e, only.ID); got.Status != "completed" || got.Result.DocumentType != "id_card" || got.Result.Data["document_number"] != "C00000049" {
		t.Fatalf("the ID-card-only test link: %+v", got)
	}
}
