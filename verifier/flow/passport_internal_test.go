package flow

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// annaMuster is Anna Muster's document (German, born 2008-06-30, expiring
// 2034-01-02) in format with its document code, read on read.
func annaMuster(format mrz.Format, code string, read time.Time) mrz.Document {
	return mrz.NewDocument(mrz.MRZ{Format: format, DocumentCode: code, IssuingState: "D", Nationality: "D", Surname: "MUSTER",
		GivenNames: "ANNA", DocumentNumber: "C4KX72F95", BirthDate: mrz.Date{Year: 8, Month: 6, Day: 30}, Sex: "F",
		ExpiryDate: mrz.Date{Year: 34, Month: 1, Day: 2}}, read)
}

// TestPassportCapture: an accepted data page, sealed into the session and
// read back, is the passport's capture: the page's checks as the license's
// evidence (the zone's check digits as the barcode's), the portrait, the
// visual zone as read as the printed front, and the zone as the document,
// which the result reads through the port (front_barcode_match: the
// visual zone against the zone); a finished session drops it.
func TestPassportCapture(t *testing.T) {
	read := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	doc := annaMuster(mrz.TD3, "P", read)
	// The visual zone as read: the zone's values but another birth date.
	read8 := func(s string) license.Read { return license.Read{Text: s, Conf: 90} }
	viz := license.Printed{DocumentNumber: read8("C4KX72F95"), LastName: read8("MUSTER"), FirstName: read8("ANNA"),
		DOB: read8("30 JUN 2007"), ExpiryDate: read8("02 JAN 2034")}
	s := Session{Document: verifier.Passport, Passport: &PassportDone{PageFound: true, ProportionsOK: true, FacePresent: true,
		Headshot: []byte{0xff, 0xd8, 0xff}, Portrait: []float32{0.5}, Document: &doc, Printed: &viz}}
	raw, back := sealedAndBack(t, s)
	if !back.Done(StepPassportPage) || back.Done(StepLicenseFront) || !back.documentStepPassed() {
		t.Fatalf("steps done after a round trip: %s", raw)
	}
	c := back.capture()
	want := verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true}
	if c.Evidence != want || len(c.Portrait) != 1 || len(c.Headshot) != 3 || c.Printed == nil || c.Printed.DOB.Text != "30 JUN 2007" {
		t.Fatalf("capture %+v", c)
	}
	checks := c.Document.Check(read)
	if checks.Age != 18 || !checks.Over18 || checks.Over21 || checks.Expired {
		t.Errorf("checks %+v", checks)
	}
	f, err := c.Document.Fields([]string{"last_name", "dob", "country"})
	if err != nil || f["last_name"] != "MUSTER" || f["dob"] != "2008-06-30" || f["country"] != "DEU" {
		t.Errorf("fields %v, %v", f, err)
	}
	o := back.outcome([]verifier.DocumentKind{verifier.DriversLicense, verifier.Passport})
	if o.DocumentType != verifier.Passport || o.License == nil || !o.Document.AppearsReal() {
		t.Errorf("outcome %+v", o)
	}
	// front_barcode_match is the visual zone against the machine-readable
	// zone: the birth date it prints is not the zone's.
	v := verifier.Verification{ID: "v1", AccountID: "a1", Options: json.RawMessage(`{"front_barcode_match":true,
		"accepted_documents":["drivers_license","passport"],"encryption_key_mode":"none"}`)}
	o.FaceMatch.Tier, o.Live = "definite_match", true
	p, _, err := verifier.BuildResult(v, o, read)
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Verification.FrontBarcodeMatch; m == nil || m.Result != license.FieldMismatch || m.Fields.DOB != license.FieldMismatch ||
		m.Fields.LastName != license.FieldMatch || m.Fields.DocumentNumber != license.FieldMatch || m.Fields.ExpiryDate != license.FieldMatch {
		t.Errorf("front_barcode_match %+v", m)
	}
	back.finish(ActionSubmit, "completed")
	if back.Passport != nil || back.Document != verifier.Passport {
		t.Errorf("finished session keeps %+v (the kind is no personal data)", back)
	}
	// A zone read but out of its place on the page fails the zone's
	// physical check, as on the ID card's back: license_appears_real is
	// false; a session stored before the place was judged keeps its
	// evidence (the member is absent).
	out := *s.Passport
	out.ZoneOutOfPlace = true
	if c := (&Session{Document: verifier.Passport, Passport: &out}).capture(); c.Document == nil || c.Evidence.BarcodeValid || c.Evidence.AppearsReal() {
		t.Errorf("a zone out of place captured %+v", c.Evidence)
	}
	if bytes.Contains(raw, []byte("zone_out_of_place")) {
		t.Errorf("a zone in place is stored as out of place: %s", raw)
	}
	// A page not read has no document: no check digits passed.
	if c := (&Session{Document: verifier.Passport, Passport: &PassportDone{PageFound: true}}).capture(); c.Document != nil || c.Evidence.BarcodeValid {
		t.Errorf("page without its zone captured %+v", c)
	}
}
