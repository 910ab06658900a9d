package web_test

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/verifier/web"
)

// The screens TestLanguagesAt360InChromium cannot reach without a camera
// or an outcome, in every language: on a 360×640 phone with a camera, the
// license front while the camera runs and its guidance speaks, the selfie
// step while capturing (the oval, the cue or guidance line), the test
// page's outcome picker and the review offer; on a 1280×800 computer, the
// start page with its QR handoff and the front's upload. Each is measured
// as fitsIn does (no overflow or clipping, lang and dir, axe on the
// screenshot). Screenshots: var/screenshots/flow/lang-*-{360x640,1280x800}.png.
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

	type links struct{ fresh, atLive, desk created }
	per := map[string]links{}
	for _, lang := range web.Langs() {
		l := links{fresh: e.create(`{}`), atLive: e.create(`{}`), desk: e.create(`{}`)}
		e.endUser(l.atLive, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
		e.endUser(l.atLive, "/license/back", "image/jpeg", back(t), 200)
		per[lang] = l
	}
	e.signInTest()
	review := map[string]created{}
	for _, lang := range web.Langs() {
		review[lang] = e.create(`{}`)
	}
	clickFirst := func(tb *tab) { eval[bool](tb, `(document.querySelector("main .actions button").click(), true)`) }

	for _, lang := range web.Langs() {
		l := per[lang]
		phone.language(lang)

		phone.Open(l.fresh.URL)
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

		phone.Open(review[lang].URL)
		phone.screen("test")
		fitsIn(t, phone, lang, "test", "360x640")
		eval[bool](phone, `(document.querySelector('input[name=outcome][value=inconclusive]').click(), true)`)
		phone.click(web.T(lang, "test.submit"))
		phone.screen("review")
		fitsIn(t, phone, lang, "review", "360x640")

		desk.Open(l.desk.URL + "?lang=" + lang)
		desk.screen("start")
		desk.Wait(`document.querySelector("img.qr") && document.querySelector("img.qr").complete`)
		fitsIn(t, desk, lang, "start", "1280x800")
		clickFirst(desk) // on a computer the first button continues here
		desk.screen("front")
		fitsIn(t, desk, lang, "front", "1280x800")
	}
}
