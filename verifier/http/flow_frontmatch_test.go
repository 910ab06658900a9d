package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestFlowFrontBarcodeMatch: front_barcode_match through HTTP on the real
// engines (card, portrait, Tesseract, PDF417). The create is accepted and
// full, the consent view says the front is read, a printed front that
// agrees with its barcode matches, one printing another birth date is a
// mismatch that changes no other verdict; under a custom key the outcomes
// are in clear and no value read is anywhere in the result.
func TestFlowFrontBarcodeMatch(t *testing.T) {
	onBothBackends(t, testFlowFrontBarcodeMatch)
}

func testFlowFrontBarcodeMatch(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open)
	_, lic := backPhoto(t, 5) // the back h.steps sends
	face := foremanFace(t)
	pem := rsaPEM(t, 2048)
	for _, c := range []struct {
		name    string
		printed license.License
		want    license.FieldOutcome
		dob     license.FieldOutcome
	}{
		{"genuine", lic, license.FieldMatch, license.FieldMatch},
		{"another birth date", cardtest.Altered(lic, cardtest.AlterDOB), license.FieldMismatch, license.FieldMismatch},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, tok := h.link(fmt.Sprintf(`{"front_barcode_match":true,"requested_fields":["last_name"],
				"encryption_key_mode":"custom","encryption_key":%q}`, pem))
			if v.Type != verifier.TypeFull {
				t.Errorf("type %s, want full", v.Type)
			}
			if s := h.session(tok); !s.FrontBarcodeMatch {
				t.Errorf("the consent view does not say the front is read: %+v", s)
			}
			h.steps(tok, must(flowtest.PrintedFrontPhoto(face, 1600, 1, c.printed))(t))
			var done flow.SubmitAnswer
			h.ok(h.post(tok, "/submit", "", nil), 200, &done)
			if done.Status != "completed" {
				t.Fatalf("submit answered %s", done.Status)
			}
			got := h.get(h.bearer, v.ID)
			var res struct {
				Verification struct {
					LicenseAppearsReal bool                `json:"license_appears_real"`
					FaceMatches        any                 `json:"webcam_face_matches_license_photo"`
					FrontBarcodeMatch  *license.FrontMatch `json:"front_barcode_match"`
				} `json:"verification"`
			}
			if err := json.Unmarshal(got.Result, &res); err != nil {
				t.Fatal(err)
			}
			ver := res.Verification
			if m := ver.FrontBarcodeMatch; m == nil || m.Result != c.want || m.Fields.DOB != c.dob {
				t.Fatalf("front_barcode_match %+v, want %s with date_of_birth %s: %s", m, c.want, c.dob, got.Result)
			}
			if !ver.LicenseAppearsReal || ver.FaceMatches != true {
				t.Errorf("the front check changed another verdict: %s", got.Result)
			}
			for _, pii := range []string{lic.LastName, lic.FirstNames, lic.DocumentNumber, c.printed.DOB.String(),
				fmt.Sprintf("%02d/%02d/%04d", int(c.printed.DOB.Month), c.printed.DOB.Day, c.printed.DOB.Year)} {
				if bytes.Contains(got.Result, []byte(pii)) {
					t.Errorf("%q in the result under a custom key", pii)
				}
			}
		})
	}
}
