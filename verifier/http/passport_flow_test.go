package http

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// passportZone is a TD3 zone of the test's passport holder: issued by
// Canada, born 3 February 1990, expiring on expiry, number number.
func passportZone(t testing.TB, number string, expiry mrz.Date) []string {
	t.Helper()
	lines, err := mrz.Encode(mrz.MRZ{Format: mrz.TD3, DocumentCode: "P", IssuingState: "CAN", Nationality: "CAN",
		Surname: "FOREMAN", GivenNames: "TEST PERSON", DocumentNumber: number, BirthDate: mrz.Date{Year: 90, Month: 2, Day: 3},
		Sex: "F", ExpiryDate: expiry})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// passportPhoto is a phone's 3 MP photo (JPEG) of a rendered data page
// printing lines (nil: no zone) and face as its portrait (nil: a shaded
// head, no face), the page filling 80% of the frame, turned 2°.
func passportPhoto(t testing.TB, lines []string, face image.Image, seed uint64) []byte {
	t.Helper()
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	cam := mrztest.Camera{Width: 2000, Height: 1500, PageFrac: 0.8, Angle: 2, Blur: 0.5, Light: 0.15, Noise: 2, Quality: 90}
	img, err := mrztest.PrintedShot(f, mrz.TD3, lines, face, mrztest.Print{}, cam, rand.New(rand.NewPCG(seed, 35)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// livenessAndSubmit passes liveness with Foreman's answer and submits,
// declining review if the match was inconclusive; it returns the submit's
// first answer.
func (h *flowHarness) livenessAndSubmit(tok string) string {
	h.t.Helper()
	ch := h.challenge(tok)
	h.clock.Advance(5 * time.Second)
	frames, ms := foremanAnswer(h.t)
	var ans flow.LivenessAnswer
	h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &ans)
	if !ans.Passed {
		h.t.Fatalf("Foreman's answer failed: %+v", ans)
	}
	var done flow.SubmitAnswer
	h.ok(h.post(tok, "/submit", "", nil), 200, &done)
	if done.Status == flow.StatusReviewOffered {
		var again flow.SubmitAnswer
		h.ok(h.post(tok, "/decline-review", "", nil), 200, &again)
	}
	return done.Status
}

// TestPassportFlow walks passport links end to end on the real engines,
// with rendered data pages carrying Foreman's face and his liveness
// answer: a link accepting the passport alone (the result's members from
// the zone, front_barcode_match from the visual zone against the zone,
// document_type passport, the page kept for review, the webhook
// the same bytes as GET); a link accepting both kinds, where the pick
// chooses the passport and the page then fixes it, with an expired
// passport (license_expired true); and every refusal of the data page in
// the one error format, a specimen's included.
func TestPassportFlow(t *testing.T) {
	onBothBackends(t, testPassportFlow)
}

func testPassportFlow(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open)
	face := foremanFace(t)
	v, tok := h.link(`{"accepted_documents":["passport"],"encryption_key_mode":"none","include_license_photo":true,"front_barcode_match":true,
		"requested_fields":["first_names","last_name","dob","expiry_date","sex","document_number","country","address_city"],
		"webhook_url":"` + h.rcv.URL + `"}`)
	s := h.session(tok)
	if !slices.Equal(s.Documents, []verifier.DocumentKind{verifier.Passport}) || s.Document != verifier.Passport ||
		len(s.Steps) != 2 || s.Steps[0].Name != flow.StepPassportPage || s.Steps[1].Name != flow.StepLiveness {
		t.Fatalf("a passport link's session: %+v", s)
	}
	expectError(t, h.post(tok, "/license/front", "image/jpeg", frontPhoto(t, face, 1)), 409, "CONFLICT")

	t.Run("refusals", func(t *testing.T) {
		valid := passportZone(t, "XK4729356", mrz.Date{Year: 31, Month: 5, Day: 6})
		broken := slices.Clone(valid)
		// The birth date's check digit (line 2, column 20) made wrong.
		d := broken[1][19]
		broken[1] = broken[1][:19] + string('0'+(d-'0'+5)%10) + broken[1][20:]
		cases := []struct {
			name  string
			photo []byte
			want  flow.Problem
		}{
			{"not an image", []byte("GIF89a\x01\x00\x01\x00"), flow.ProblemImageUnsupported},
			{"no page", noCardPhoto(t), flow.ProblemPageNotFound},
			{"no zone", passportPhoto(t, nil, face, 2), flow.ProblemMRZNotFound},
			{"a check digit fails", passportPhoto(t, broken, face, 3), flow.ProblemMRZUnreadable},
			{"ICAO's specimen number", passportPhoto(t, passportZone(t, "L898902C3", mrz.Date{Year: 31, Month: 5, Day: 6}), face, 4), flow.ProblemDocumentSpecimen},
		}
		for _, c := range cases {
			got := detailCodes(t, h.post(tok, "/passport/page", "image/jpeg", c.photo), "passport_page")
			if !slices.Contains(got, string(c.want)) {
				t.Errorf("%s: problems %v, want %s", c.name, got, c.want)
			}
		}
		if s := h.session(tok); s.Status != "pending" || s.Steps[0].Done {
			t.Errorf("after refused pages: %+v", s)
		}
	})

	page := passportPhoto(t, passportZone(t, "XK4729356", mrz.Date{Year: 31, Month: 5, Day: 6}), face, 1)
	var pa flow.PassportAnswer
	h.ok(h.post(tok, "/passport/page", "image/jpeg", page), 200, &pa)
	if !pa.Accepted || pa.Checks != (flow.PassportChecks{PageFound: true, ProportionsOK: true, FacePresent: true, MRZValid: true}) {
		t.Fatalf("passport page %+v", pa)
	}
	if s := h.session(tok); s.Status != "started" || !s.Steps[0].Done {
		t.Errorf("after the page: %+v", s)
	}
	status := h.livenessAndSubmit(tok)
	got := h.get(h.bearer, v.ID)
	var res struct {
		DocumentType string          `json:"document_type"`
		Verification map[string]any  `json:"verification"`
		LicenseData  map[string]any  `json:"license_data"`
		LicensePhoto string          `json:"license_photo"`
		Address      json.RawMessage `json:"address_verification"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if res.DocumentType != "passport" || ver["license_appears_real"] != true || ver["license_expired"] != false ||
		ver["over_18"] != true || ver["over_21"] != true || res.LicensePhoto == "" {
		t.Errorf("passport result (submit %s): %s", status, got.Result)
	}
	want := map[string]any{"first_names": "TEST PERSON", "last_name": "FOREMAN", "dob": "1990-02-03", "expiry_date": "2031-05-06",
		"sex": "F", "document_number": "XK4729356", "country": "CAN", "address_city": nil}
	if b, _ := json.Marshal(res.LicenseData); string(b) != string(must(json.Marshal(want))(t)) {
		t.Errorf("license_data %s, want %v", b, want)
	}
	// The page's visual inspection zone, read, agrees with its zone.
	if m, _ := ver["front_barcode_match"].(map[string]any); m == nil || m["result"] != "match" {
		t.Errorf("front_barcode_match %v, want the visual zone matching the zone", ver["front_barcode_match"])
	}
	if status == flow.StatusReviewOffered {
		t.Logf("Foreman's rendered portrait against his selfie: %v (review declined)", ver["face_match_score"])
	} else if ver["webcam_face_matches_license_photo"] != true {
		t.Errorf("face match %v %v", ver["face_match_score"], ver["webcam_face_matches_license_photo"])
	}
	if bodies := h.delivered(1); string(bodies[0]) != string(got.Result) {
		t.Errorf("webhook %s, GET %s", bodies[0], got.Result)
	}

	t.Run("a link accepting both, an expired passport", func(t *testing.T) {
		v2, tok2 := h.link(`{"accepted_documents":["drivers_license","passport"],"encryption_key_mode":"none"}`)
		if s := h.session(tok2); s.Document != "" || s.Steps[0].Name != flow.StepLicenseFront {
			t.Fatalf("before the pick: %+v", s)
		}
		expired := passportPhoto(t, passportZone(t, "YB5281734", mrz.Date{Year: 25, Month: 1, Day: 15}), face, 5)
		expectError(t, h.post(tok2, "/passport/page", "image/jpeg", expired), 409, "CONFLICT")
		var view flow.View
		h.ok(h.pickDocument(tok2, "passport"), 200, &view)
		if view.Document != verifier.Passport || len(view.Steps) != 2 || view.Steps[0].Name != flow.StepPassportPage {
			t.Fatalf("after picking the passport: %+v", view)
		}
		h.ok(h.post(tok2, "/passport/page", "image/jpeg", expired), 200, nil)
		expectError(t, h.pickDocument(tok2, "drivers_license"), 409, "CONFLICT")
		expectError(t, h.post(tok2, "/license/front", "image/jpeg", frontPhoto(t, face, 1)), 409, "CONFLICT")
		h.livenessAndSubmit(tok2)
		got := h.get(h.bearer, v2.ID)
		if !strings.Contains(string(got.Result), `"document_type":"passport"`) || !strings.Contains(string(got.Result), `"license_expired":true`) ||
			!strings.Contains(string(got.Result), `"license_appears_real":true`) {
			t.Errorf("expired passport's result: %s", got.Result)
		}
	})

	imgs, err := h.fstore.ReviewImages(context.Background(), h.acct.ID, v.ID)
	if err != nil || imgs[flow.ReviewPassportPage] == nil || imgs[flow.ReviewLicenseFront] != nil {
		t.Errorf("review images %d, %v: want the passport page under its own name", len(imgs), err)
	}
	r := h.do("GET", "/verification/review/image?id="+v.ID+"&kind=passport_page", "", "Authorization", h.bearer)
	if r.status != 200 || !bytes.Equal(r.body, page) {
		t.Errorf("review image: %d, %d bytes", r.status, len(r.body))
	}
}
