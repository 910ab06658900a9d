package http

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// pickDocument posts the end user's pick of document to the link.
func (h *flowHarness) pickDocument(tok, kind string) response {
	h.t.Helper()
	return h.post(tok, "/document", "application/json", []byte(`{"document":"`+kind+`"}`))
}

// resultDocumentType is document_type in a finished verification's result.
func resultDocumentType(t *testing.T, v verificationResponse) string {
	t.Helper()
	var r struct {
		DocumentType *string `json:"document_type"`
	}
	if err := json.Unmarshal(v.Result, &r); err != nil || r.DocumentType == nil {
		t.Fatalf("result without document_type (%v): %s", err, v.Result)
	}
	return *r.DocumentType
}

// TestDocumentPickOnALicenseLink: a link created without accepted_documents
// is a license link as before — its session names drivers_license as the
// document without a pick, the license's steps, and the result (GET and
// the webhook, the same bytes) gains document_type drivers_license and
// nothing else new. Picking its kind again is harmless; anything else is
// refused in the one error format.
func TestDocumentPickOnALicenseLink(t *testing.T) {
	onBothBackends(t, testDocumentPickOnALicenseLink)
}

func testDocumentPickOnALicenseLink(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open)
	v, tok := h.link(`{"encryption_key_mode":"none","webhook_url":"` + h.rcv.URL + `"}`)
	s := h.session(tok)
	if !slices.Equal(s.Documents, []verifier.DocumentKind{verifier.DriversLicense}) || s.Document != verifier.DriversLicense ||
		len(s.Steps) != 3 || s.Steps[0].Name != flow.StepLicenseFront || s.Steps[1].Name != flow.StepLicenseBack {
		t.Fatalf("a license link's session: %+v", s)
	}

	var picked flow.View
	h.ok(h.pickDocument(tok, "drivers_license"), 200, &picked)
	if picked.Document != verifier.DriversLicense || picked.Status != "pending" || len(picked.Steps) != 3 {
		t.Errorf("picking the link's only kind: %+v", picked)
	}
	refusals := []struct{ body, code string }{
		{`{"document":"passport"}`, "not_accepted"},
		{`{"document":"visa"}`, "invalid_value"},
		{`{}`, "required"},
		{`{"document":""}`, "required"},
	}
	for _, r := range refusals {
		if got := detailCodes(t, h.post(tok, "/document", "application/json", []byte(r.body)), "document"); !slices.Equal(got, []string{r.code}) {
			t.Errorf("%s: %v, want %s", r.body, got, r.code)
		}
	}
	expectError(t, h.post(tok, "/document", "application/json", []byte(`{"document":"passport","x":1}`)), 422, "VALIDATION_FAILED")
	expectError(t, h.post(tok, "/document", "application/json", []byte(`{"document":`)), 400, "MALFORMED_JSON")
	expectError(t, h.post(tok, "/document", "text/plain", []byte(`{"document":"drivers_license"}`)), 415, "UNSUPPORTED_MEDIA_TYPE")
	for _, tk := range []string{"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "short"} {
		expectError(t, h.pickDocument(tk, "drivers_license"), 404, "NOT_FOUND")
	}
	if got := h.get(h.bearer, v.ID); got.Status != "pending" {
		t.Errorf("picks started the verification: %s", got.Status)
	}

	h.steps(tok, frontPhoto(t, foremanFace(t), 1))
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	got := h.get(h.bearer, v.ID)
	if dt := resultDocumentType(t, got); dt != "drivers_license" {
		t.Errorf("document_type %q, want drivers_license", dt)
	}
	if bodies := h.delivered(1); string(bodies[0]) != string(got.Result) {
		t.Errorf("webhook %s, GET %s", bodies[0], got.Result)
	}
	expectError(t, h.pickDocument(tok, "drivers_license"), 410, "GONE")
}

// acceptDocuments sets a created verification's accepted_documents in the
// store, for a link accepting kinds that creation does not offer yet.
func (h *flowHarness) acceptDocuments(id string, kinds ...verifier.DocumentKind) {
	h.t.Helper()
	if _, err := h.store.UpdateVerification(context.Background(), h.acct.ID, id, func(v *verifier.Verification) error {
		st, err := verifier.ParseSettings(v.Options)
		if err != nil {
			return err
		}
		st.AcceptedDocuments = kinds
		v.Options, err = json.Marshal(st)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
}

// TestDocumentPickOnALinkAcceptingSeveral: no document is chosen until the
// end user picks; a document step waits for the pick and runs only for the
// kind picked; the pick may change until a document step passes, which
// fixes it; the result names the kind.
func TestDocumentPickOnALinkAcceptingSeveral(t *testing.T) {
	onBothBackends(t, testDocumentPickOnALinkAcceptingSeveral)
}

func testDocumentPickOnALinkAcceptingSeveral(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open)
	v, tok := h.link(`{"encryption_key_mode":"none"}`)
	h.acceptDocuments(v.ID, verifier.DriversLicense, verifier.Passport)
	s := h.session(tok)
	if !slices.Equal(s.Documents, []verifier.DocumentKind{verifier.DriversLicense, verifier.Passport}) || s.Document != "" ||
		len(s.Steps) != 3 || s.Steps[0].Name != flow.StepLicenseFront {
		t.Fatalf("before the pick: %+v", s)
	}
	front := frontPhoto(t, foremanFace(t), 1)
	e := expectError(t, h.post(tok, "/license/front", "image/jpeg", front), 409, "CONFLICT")
	if e.Message != "this link accepts several documents: choose one first (POST /v/{token}/document)" {
		t.Errorf("front before the pick: %q", e.Message)
	}

	var view flow.View
	h.ok(h.pickDocument(tok, "passport"), 200, &view)
	if view.Document != verifier.Passport || h.session(tok).Document != verifier.Passport {
		t.Errorf("after picking the passport: %+v", view)
	}
	expectError(t, h.post(tok, "/license/front", "image/jpeg", front), 409, "CONFLICT")
	h.ok(h.pickDocument(tok, "drivers_license"), 200, &view) // no document step passed yet
	if view.Document != verifier.DriversLicense || view.Steps[0].Name != flow.StepLicenseFront {
		t.Errorf("after picking the license: %+v", view)
	}
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
	e = expectError(t, h.pickDocument(tok, "passport"), 409, "CONFLICT")
	if e.Message != "the document cannot change on this link: a photo of the one chosen was already accepted" {
		t.Errorf("pick after the front: %q", e.Message)
	}
	h.ok(h.pickDocument(tok, "drivers_license"), 200, &view) // the same again: a retry
	if view.Status != "started" || !view.Steps[0].Done {
		t.Errorf("after the front: %+v", view)
	}
	if got := detailCodes(t, h.pickDocument(tok, "id_card"), "document"); !slices.Equal(got, []string{"not_accepted"}) {
		t.Errorf("a kind the link does not accept: %v", got)
	}

	back, _ := backPhoto(t, 5)
	h.ok(h.post(tok, "/license/back", "image/jpeg", back), 200, nil)
	ch := h.challenge(tok)
	h.clock.Advance(5e9)
	frames, ms := foremanAnswer(t)
	h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, nil)
	h.ok(h.post(tok, "/submit", "", nil), 200, nil)
	if dt := resultDocumentType(t, h.get(h.bearer, v.ID)); dt != "drivers_license" {
		t.Errorf("document_type %q, want drivers_license", dt)
	}
}
