package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// cardZone is a TD1 zone of the test's card holder: an identity card
// issued by France, born 3 February 1990, expiring on expiry, number
// number.
func cardZone(t *testing.T, number string, expiry mrz.Date) []string {
	t.Helper()
	lines, err := mrz.Encode(mrz.MRZ{Format: mrz.TD1, DocumentCode: "ID", IssuingState: "FRA", Nationality: "FRA",
		Surname: "FOREMAN", GivenNames: "TEST PERSON", DocumentNumber: number, BirthDate: mrz.Date{Year: 90, Month: 2, Day: 3},
		Sex: "F", ExpiryDate: expiry})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// cardFront is a photo of a card's front carrying face and printing the
// fields of its back's zone lines under their captions, changed by tamper
// when set, the dates day first with dots as French cards print them.
func (r *rig) cardFront(face image.Image, lines []string, tamper func(*mrz.MRZ), seed uint64) []byte {
	r.t.Helper()
	dotted := func(d license.Date) string { return fmt.Sprintf("%02d.%02d.%04d", d.Day, int(d.Month), d.Year) }
	b, err := flowtest.IDCardFrontPhoto(face, 1600, seed, lines, tamper, dotted)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// cardBack is a photo of a card's back printing lines (nil: no zone).
func (r *rig) cardBack(lines []string, seed uint64) []byte {
	r.t.Helper()
	b, err := flowtest.IDCardBackPhoto(lines, seed)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// problems are the problem codes of a refused step, on that step.
func problems(t *testing.T, step flow.Step, err error) []flow.Problem {
	t.Helper()
	var pe *flow.ProblemsError
	if !errors.As(err, &pe) || pe.Step != step {
		t.Fatalf("%s: want its problems, got %v", step, err)
	}
	return pe.Problems
}

// livenessAndSubmit passes liveness with Foreman's answer and submits,
// declining review if his rendered portrait matched inconclusively; it
// returns the submit's first answer.
func (r *rig) livenessAndSubmit(tok string) string {
	r.t.Helper()
	if ans := r.answer(tok, r.foreman()); !ans.Passed {
		r.t.Fatalf("Foreman's answer failed: %+v", ans)
	}
	ctx := context.Background()
	done, err := r.flow.Submit(ctx, tok, "203.0.113.9")
	if err != nil {
		r.t.Fatal(err)
	}
	if done.Status == flow.StatusReviewOffered {
		if _, err := r.flow.DeclineReview(ctx, tok); err != nil {
			r.t.Fatal(err)
		}
	}
	return done.Status
}

// TestIDCardFlow walks ID card links end to end on the real engines: the
// card's front rendered with Foreman's face (the card synthesis), its back
// printing a TD1 zone (mrztest), his liveness answer as the selfie. A link
// accepting the ID card alone: each refusal of either side with its
// problem worded for an ID card, the result's members from the zone,
// document_type id_card, front_barcode_match a match (the front prints
// the zone's fields under their captions), the front kept for review under
// its own name, the webhook due with the result. A link accepting the
// license and the ID card: the pick chooses the card, the front then
// fixes it, an expired card gives license_expired true, and a front
// printing another surname than the zone is a mismatch on last_name.
func TestIDCardFlow(t *testing.T) {
	parts.OnBothBackends(t, testIDCardFlow)
}

func testIDCardFlow(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	r := newRig(t, open(t))
	ctx := context.Background()
	face := r.foremanFace()
	id, tok := r.create(`{"accepted_documents":["id_card"],"encryption_key_mode":"none","include_license_photo":true,"front_barcode_match":true,
		"requested_fields":["first_names","last_name","dob","expiry_date","sex","document_number","country","nationality","address_city"],
		"webhook_url":"https://hooks.example.com/idgate"}`)
	view, err := r.flow.Session(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	var names []flow.Step
	for _, s := range view.Steps {
		names = append(names, s.Name)
	}
	if !slices.Equal(view.Documents, []verifier.DocumentKind{verifier.IDCard}) || view.Document != verifier.IDCard ||
		!slices.Equal(names, []flow.Step{flow.StepIDCardFront, flow.StepIDCardBack, flow.StepLiveness}) {
		t.Fatalf("an ID card link's session: %+v", view)
	}
	if _, err := r.flow.Front(ctx, tok, r.front(face, 1)); !errors.Is(err, flow.ErrOtherDocument) {
		t.Errorf("a license front on an ID card link: %v", err)
	}

	valid := cardZone(t, "XK4729356", mrz.Date{Year: 31, Month: 5, Day: 6})
	t.Run("refusals", func(t *testing.T) {
		broken := slices.Clone(valid)
		// The birth date's check digit (line 2, column 7) made wrong.
		d := broken[1][6]
		broken[1] = broken[1][:6] + string('0'+(d-'0'+5)%10) + broken[1][7:]
		noCard, err := flowtest.NoCardPhoto(2)
		if err != nil {
			t.Fatal(err)
		}
		notImage := []byte("GIF89a\x01\x00\x01\x00")
		// refusal is a photo a side refuses, and the problem it names.
		type refusal struct {
			name  string
			photo []byte
			want  flow.Problem
		}
		for _, c := range []refusal{
			{"not an image", notImage, flow.ProblemImageUnsupported},
			{"no card", noCard, flow.ProblemCardNotFound},
		} {
			_, err := r.flow.IDCardFront(ctx, tok, c.photo)
			if got := problems(t, flow.StepIDCardFront, err); !slices.Contains(got, c.want) {
				t.Errorf("front, %s: problems %v, want %s", c.name, got, c.want)
			}
		}
		if s := flow.StepSentence(flow.StepIDCardFront, flow.ProblemCardNotFound); !strings.Contains(s, "ID card") {
			t.Errorf("the front's card_not_found reads %q", s)
		}
		for _, c := range []refusal{
			{"not an image", notImage, flow.ProblemImageUnsupported},
			{"no card", noCard, flow.ProblemCardNotFound},
			{"no zone", r.cardBack(nil, 2), flow.ProblemMRZNotFound},
			{"a check digit fails", r.cardBack(broken, 3), flow.ProblemMRZUnreadable},
			{"ICAO's TD1 specimen number", r.cardBack(cardZone(t, "D23145890", mrz.Date{Year: 31, Month: 5, Day: 6}), 4), flow.ProblemDocumentSpecimen},
		} {
			_, err := r.flow.IDCardBack(ctx, tok, c.photo, "203.0.113.9")
			got := problems(t, flow.StepIDCardBack, err)
			if !slices.Contains(got, c.want) {
				t.Errorf("back, %s: problems %v, want %s", c.name, got, c.want)
			}
			for _, p := range got {
				if s := flow.StepSentence(flow.StepIDCardBack, p); strings.Contains(s, "passport") || strings.Contains(s, "license") {
					t.Errorf("back, %s: %s reads %q", c.name, p, s)
				}
			}
		}
		if v, err := r.flow.Session(ctx, tok); err != nil || v.Status != "pending" || v.Steps[0].Done || v.Steps[1].Done {
			t.Errorf("after refused photos: %+v, %v", v, err)
		}
	})

	fa, err := r.flow.IDCardFront(ctx, tok, r.cardFront(face, valid, nil, 1))
	if err != nil || fa != (flow.FrontAnswer{Accepted: true, Checks: flow.FrontChecks{CardFound: true, ProportionsOK: true, FacePresent: true}}) {
		t.Fatalf("front %+v, %v", fa, err)
	}
	ba, err := r.flow.IDCardBack(ctx, tok, r.cardBack(valid, 1), "203.0.113.9")
	if err != nil || ba != (flow.IDCardBackAnswer{Accepted: true, Checks: flow.IDCardBackChecks{CardFound: true, ProportionsOK: true, MRZValid: true}}) {
		t.Fatalf("back %+v, %v", ba, err)
	}
	if v, err := r.flow.Session(ctx, tok); err != nil || v.Status != "started" || !v.Steps[0].Done || !v.Steps[1].Done {
		t.Errorf("after both sides: %+v, %v", v, err)
	}
	status := r.livenessAndSubmit(tok)
	result := r.verification(id).Result
	documented(t, result)
	var res struct {
		DocumentType string         `json:"document_type"`
		Verification map[string]any `json:"verification"`
		LicenseData  map[string]any `json:"license_data"`
		LicensePhoto string         `json:"license_photo"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if res.DocumentType != "id_card" || ver["license_appears_real"] != true || ver["license_expired"] != false ||
		ver["over_18"] != true || ver["over_21"] != true || res.LicensePhoto == "" {
		t.Errorf("ID card result (submit %s): %s", status, result)
	}
	if m, _ := ver["front_barcode_match"].(map[string]any); m["result"] != "match" {
		t.Errorf("front_barcode_match %v, want match", ver["front_barcode_match"])
	}
	want := map[string]any{"first_names": "TEST PERSON", "last_name": "FOREMAN", "dob": "1990-02-03", "expiry_date": "2031-05-06",
		"sex": "F", "document_number": "XK4729356", "country": "FRA", "nationality": "FRA", "address_city": nil}
	got, _ := json.Marshal(res.LicenseData)
	if w, _ := json.Marshal(want); string(got) != string(w) {
		t.Errorf("license_data %s, want %s", got, w)
	}
	if status == flow.StatusReviewOffered {
		t.Logf("Foreman's card portrait against his selfie: %v (review declined)", ver["face_match_score"])
	} else if ver["webcam_face_matches_license_photo"] != true {
		t.Errorf("face match %v %v", ver["face_match_score"], ver["webcam_face_matches_license_photo"])
	}
	r.delivered(id)
	imgs, err := r.store.ReviewImages(ctx, r.acct, id)
	if err != nil || imgs[flow.ReviewIDCardFront] == nil || imgs[flow.ReviewLicenseFront] != nil || len(imgs) != 2 {
		t.Errorf("review images %d, %v: want the card's front under its own name and the selfie", len(imgs), err)
	}

	t.Run("a link accepting the license and the ID card, an expired card, another surname on its front", func(t *testing.T) {
		id2, tok2 := r.create(`{"accepted_documents":["drivers_license","id_card"],"encryption_key_mode":"none","front_barcode_match":true}`)
		expired := cardZone(t, "YB5281734", mrz.Date{Year: 25, Month: 1, Day: 15})
		front := r.cardFront(face, expired, func(m *mrz.MRZ) { m.Surname = "MORGENSTERN" }, 2)
		if _, err := r.flow.IDCardFront(ctx, tok2, front); !errors.Is(err, flow.ErrDocumentNotChosen) {
			t.Errorf("the card's front before the pick: %v", err)
		}
		view, err := r.flow.Pick(ctx, tok2, verifier.IDCard)
		if err != nil || view.Document != verifier.IDCard || len(view.Steps) != 3 || view.Steps[0].Name != flow.StepIDCardFront {
			t.Fatalf("after picking the ID card: %+v, %v", view, err)
		}
		if _, err := r.flow.IDCardFront(ctx, tok2, front); err != nil {
			t.Fatal(err)
		}
		if _, err := r.flow.Pick(ctx, tok2, verifier.DriversLicense); !errors.Is(err, flow.ErrDocumentFixed) {
			t.Errorf("another pick once the front passed: %v", err)
		}
		if _, err := r.flow.Front(ctx, tok2, front); !errors.Is(err, flow.ErrOtherDocument) {
			t.Errorf("a license front once the card's passed: %v", err)
		}
		if _, err := r.flow.IDCardBack(ctx, tok2, r.cardBack(expired, 5), "203.0.113.9"); err != nil {
			t.Fatalf("an expired card's back: %v", err)
		}
		r.livenessAndSubmit(tok2)
		got := string(r.verification(id2).Result)
		if !strings.Contains(got, `"document_type":"id_card"`) || !strings.Contains(got, `"license_expired":true`) ||
			!strings.Contains(got, `"license_appears_real":true`) ||
			!strings.Contains(got, `"front_barcode_match":{"result":"mismatch","fields":{"document_number":"match","last_name":"mismatch","first_name":"match","date_of_birth":"match","expiry_date":"match","issue_date":"not_compared"}}`) {
			t.Errorf("expired card's result: %s", got)
		}
	})
}
