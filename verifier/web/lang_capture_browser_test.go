package web_test

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/verifier/web"
)

// The screens TestLanguagesAt360InChromium cannot reach without a camera
// or an outcome, and every screen at computer size, in every language
// (walkedLangs), for
// a requester with a name and a logo: on a 360×640 phone with a camera, the
// license front while the camera runs and its guidance speaks, the selfie
// step while capturing (the oval, the cue or guidance line), the test
// page's outcome picker and the review offer; on a 1280×800 computer, the
// start page with its QR handoff, the front's upload, the selfie step, the
// phone step, Done and an ended link's page. Each is measured as fitsIn
// does (no overflow or clipping, lang and dir, axe in axeLangs).
// Screenshots: var/screenshots/flow/lang-*-{360x640,1280x800}.png.
func TestLanguagesCapturingInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	// One camera for both steps: a face, so the selfie step tracks it and
	// the front's card guide says no card is in view.
	y4m := filepath.Join(t.TempDir(), "face.y4m")
	writeY4M(t, y4m, 5, []image.Image{foremanFace(t)})
	phone := newTab(t, true, camera(y4m, true)...)
	phone.Run(chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	desk := newTab(t, false)

	e.call("PATCH", "/me", `{"branding":{"display_name":"Acme Wines","support_contact":"help@acme.example",
		"privacy_policy_url":"https://acme.example/privacy"}}`, 200, nil)
	e.putLogo(brandLogo(t))

	// Links at each screen: opened again in each language (?lang= on the
	// computer, the browser's language on the phone) where nothing is
	// used up; one per language where something is (a challenge asked
	// for, an outcome picked).
	start0, deskStart, deskLive, ended := e.create(`{}`), e.create(`{}`), e.create(`{}`), e.create(`{}`)
	deskPhone := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	e.endUser(deskLive, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
	e.endUser(deskLive, "/license/back", "image/jpeg", back(t), 200)
	e.throughAPI(deskPhone, foremanFace(t))
	e.call("POST", "/verification/cancel?id="+ended.ID, "", 200, nil)
	type links struct{ atLive, review, done created }
	per := map[string]links{}
	for _, lang := range walkedLangs() {
		l := links{atLive: e.create(`{}`)}
		e.endUser(l.atLive, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
		e.endUser(l.atLive, "/license/back", "image/jpeg", back(t), 200)
		per[lang] = l
	}
	e.signInTest()
	for _, lang := range walkedLangs() {
		l := per[lang]
		l.review, l.done = e.create(`{}`), e.create(`{}`)
		per[lang] = l
	}
	clickFirst := func(tb *tab) { eval[bool](tb, `(document.querySelector("main .actions button").click(), true)`) }

	for _, lang := range walkedLangs() {
		l := per[lang]
		phone.language(lang)

		phone.Open(start0.URL)
		phone.screen("start")
		clickFirst(phone)
		phone.screen("front")
		phone.cameraOn()
		phone.Wait(`!!document.querySelector(".guidance[data-advice]")`)
		fitsIn(t, phone, lang, "front-camera", "360x640")

		phone.Open(l.atLive.URL)
		phone.screen("live")
		clickFirst(phone)
		phone.screen("live-capture")
		// The camera is on and the page has said something of its own:
		// guidance or the first cue, no longer "starting the camera".
		phone.Wait(`(() => { const v = document.querySelector(".stage video"), s = document.querySelector(".say");
			return !!v && v.videoWidth > 0 && !!s && s.textContent !== "" && s.textContent !== ` + jsString(web.T(lang, "camera.starting")) + `; })()`)
		fitsIn(t, phone, lang, "live-capture", "360x640")

		phone.Open(l.review.URL)
		phone.screen("test")
		fitsIn(t, phone, lang, "test", "360x640")
		eval[bool](phone, `(document.querySelector('input[name=outcome][value=inconclusive]').click(), true)`)
		phone.click(web.T(lang, "test.submit"))
		phone.screen("review")
		fitsIn(t, phone, lang, "review", "360x640")

		desk.Open(deskStart.URL + "?lang=" + lang)
		desk.screen("start")
		desk.Wait(`document.querySelector("img.qr") && document.querySelector("img.qr").complete`)
		fitsIn(t, desk, lang, "start", "1280x800")
		clickFirst(desk) // on a computer the first button continues here
		desk.screen("front")
		fitsIn(t, desk, lang, "front", "1280x800")
		for _, at := range []struct {
			link   created
			screen string
		}{{deskLive, "live"}, {deskPhone, "phone"}, {ended, "ended-canceled"}} {
			desk.Open(at.link.URL + "?lang=" + lang)
			desk.screen(at.screen)
			fitsIn(t, desk, lang, at.screen, "1280x800")
			// A phone number reads left to right in every language (in
			// Arabic a leading "+" would otherwise move to the end).
			if at.screen == "phone" && eval[string](desk, `getComputedStyle(document.getElementById("phone-number")).direction`) != "ltr" {
				t.Errorf("%s: the phone number field is not left to right", lang)
			}
		}
		desk.Open(l.done.URL + "?lang=" + lang)
		desk.screen("test")
		clickFirst(desk)
		desk.screen("done")
		fitsIn(t, desk, lang, "done", "1280x800")
	}
}
