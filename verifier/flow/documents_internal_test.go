package flow

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/license"
)

// storedBeforeThePort is a session's plaintext as sessions were sealed
// before the document port (trimmed to the members read here): sessions
// already stored in SQLite or PostgreSQL look like this and must still
// complete.
const storedBeforeThePort = `{"verification_id":"v1","account_id":"a1","phase":"collecting",
	"front":{"card_found":true,"proportions_ok":true,"face_present":true,"headshot":"/9j/","portrait":[0.25,-0.5],
		"printed":{"document_number":{"text":"D1234567","conf":93}}},
	"back":{"license":{"document_type":"DL","first_names":"JANE","last_name":"DOE","dob":"1990-02-03",
		"expiry_date":"2030-02-03","address":{"line1":"1 MAIN ST","city":"SPRINGFIELD","jurisdiction":"IL","postal_code":"62701"},
		"document_number":"D1234567","country":"USA"}},
	"live":{"selfie":[0.125]},"liveness_attempts":1,"back_ip":"203.0.113.9","updated_at":"2026-11-01T10:00:00Z"}`

// TestSessionStoredBeforeThePortCompletes: a session sealed before the
// document port decodes into the license's capture, member for member,
// and gives the result the same document as then.
func TestSessionStoredBeforeThePortCompletes(t *testing.T) {
	var s Session
	if err := json.Unmarshal([]byte(storedBeforeThePort), &s); err != nil {
		t.Fatal(err)
	}
	if !s.ready(Steps) {
		t.Fatal("the stored session is not ready to submit")
	}
	c := s.capture()
	l, ok := c.Document.(license.License)
	if !ok || l.LastName != "DOE" || l.DOB != (license.Date{Year: 1990, Month: 2, Day: 3}) || l.Address.PostalCode != "62701" {
		t.Fatalf("document %#v", c.Document)
	}
	want := verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true}
	if c.Evidence != want || !slices.Equal(c.Portrait, []float32{0.25, -0.5}) || len(c.Headshot) != 3 ||
		c.Printed == nil || c.Printed.DocumentNumber.Text != "D1234567" {
		t.Fatalf("capture %+v", c)
	}
	if h := c.Document.Holder(); h.FirstNames != "JANE" || h.Address.City != "SPRINGFIELD" || h.Country != "USA" {
		t.Errorf("holder %+v", h)
	}
	checks := c.Document.Check(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	if checks.Age != 36 || !checks.Over21 || checks.Expired {
		t.Errorf("checks %+v", checks)
	}
	if m := c.Document.MatchFront(*c.Printed); m.Fields.DocumentNumber != license.FieldMatch {
		t.Errorf("front against barcode %+v", m)
	}
}

// TestCaptureOfStepsNotDone: a step not passed contributes nothing, so a
// session whose liveness ran out before the back has no document and the
// front's evidence alone (exhausted.go).
func TestCaptureOfStepsNotDone(t *testing.T) {
	if c := (&Session{}).capture(); c.Document != nil || c.Evidence != (verifier.DocumentEvidence{}) || c.Portrait != nil {
		t.Errorf("empty session captured %+v", c)
	}
	s := Session{Front: &FrontDone{CardFound: true, ProportionsOK: true, FacePresent: true, Portrait: []float32{1}}}
	if c := s.capture(); c.Document != nil || c.Evidence.BarcodeValid || !c.Evidence.CardFound || c.Portrait == nil {
		t.Errorf("front only captured %+v", c)
	}
}
