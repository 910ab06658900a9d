package http

import (
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/mrz"
)

// TestIDCardRoutes: what HTTP adds to the ID card's two steps (their
// behaviour is verifier/flow's TestIDCardFlow): POST /v/{token}/id_card/front
// and /id_card/back take the photo as the body and answer 200 with their
// checks, each answer as the OpenAPI document describes it (the harness
// checks every response against it); a photo the engines refuse is 422 in
// the one error format, its details on the step's field in the ID card's
// words; a side of another document's link is 409, an unknown link 404,
// and the review image endpoint serves the front under its own kind.
func TestIDCardRoutes(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	face := foremanFace(t)
	v, tok := h.link(`{"accepted_documents":["id_card"],"encryption_key_mode":"none"}`)

	gif := []byte("GIF89a\x01\x00\x01\x00")
	for _, side := range []struct {
		path string
		step flow.Step
	}{{"/id_card/front", flow.StepIDCardFront}, {"/id_card/back", flow.StepIDCardBack}} {
		e := expectError(t, h.post(tok, side.path, "image/jpeg", gif), 422, "VALIDATION_FAILED")
		want := flow.StepSentence(side.step, flow.ProblemImageUnsupported)
		if len(e.Details) != 1 || e.Details[0].Field != string(side.step) || e.Details[0].Code != "image_unsupported" || e.Details[0].Message != want {
			t.Errorf("%s: details %+v", side.path, e.Details)
		}
		expectError(t, h.post("unknown-token", side.path, "image/jpeg", gif), 404, "NOT_FOUND")
	}
	noZone, err := flowtest.IDCardBackPhoto(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	e := expectError(t, h.post(tok, "/id_card/back", "image/jpeg", noZone), 422, "VALIDATION_FAILED")
	if len(e.Details) == 0 || e.Details[0].Field != "id_card_back" || e.Details[0].Code != "mrz_not_found" ||
		e.Details[0].Message != flow.StepSentence(flow.StepIDCardBack, flow.ProblemMRZNotFound) {
		t.Errorf("a back without its zone: %+v", e.Details)
	}

	front := frontPhoto(t, face, 1)
	var fa flow.FrontAnswer
	h.ok(h.post(tok, "/id_card/front", "application/octet-stream", front), 200, &fa)
	if fa != (flow.FrontAnswer{Accepted: true, Checks: flow.FrontChecks{CardFound: true, ProportionsOK: true, FacePresent: true}}) {
		t.Errorf("front %+v", fa)
	}
	zone, err := mrz.Encode(mrz.MRZ{Format: mrz.TD1, DocumentCode: "I", IssuingState: "CAN", Nationality: "CAN", Surname: "FOREMAN",
		GivenNames: "TEST", DocumentNumber: "XK4729356", BirthDate: mrz.Date{Year: 90, Month: 2, Day: 3}, Sex: "F",
		ExpiryDate: mrz.Date{Year: 31, Month: 5, Day: 6}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := flowtest.IDCardBackPhoto(zone, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ba flow.IDCardBackAnswer
	h.ok(h.post(tok, "/id_card/back", "image/jpeg", back), 200, &ba)
	if ba != (flow.IDCardBackAnswer{Accepted: true, Checks: flow.IDCardBackChecks{CardFound: true, ProportionsOK: true, MRZValid: true}}) {
		t.Errorf("back %+v", ba)
	}
	if s := h.session(tok); s.Status != "started" || !s.Steps[0].Done || !s.Steps[1].Done || s.Steps[2].Name != flow.StepLiveness {
		t.Errorf("after both sides: %+v", s)
	}
	r := h.do("GET", "/verification/review/image?id="+v.ID+"&kind=id_card_front", "", "Authorization", h.bearer)
	if r.status != 200 || !slices.Equal(r.body, front) {
		t.Errorf("review image: %d, %d bytes", r.status, len(r.body))
	}

	// The license's link: neither side is its document's.
	_, lic := h.link(`{"encryption_key_mode":"none"}`)
	expectError(t, h.post(lic, "/id_card/front", "image/jpeg", front), 409, "CONFLICT")
	expectError(t, h.post(lic, "/id_card/back", "image/jpeg", back), 409, "CONFLICT")
}
