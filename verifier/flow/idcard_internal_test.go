package flow

import (
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/mrz"
)

// TestIDCardCapture: an ID card's two sides, sealed into the session and
// read back, are its capture: the card found and of ID-1's proportions
// only when both sides were, the front's face and portrait, the back's
// zone as the document (its check digits and its place on the card as the
// barcode's evidence), which the result reads through the port; a
// finished session drops both sides and keeps the kind.
func TestIDCardCapture(t *testing.T) {
	read := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	doc := annaMuster(mrz.TD1, "I", read)
	front := &FrontDone{CardFound: true, ProportionsOK: true, FacePresent: true, Headshot: []byte{0xff, 0xd8, 0xff}, Portrait: []float32{0.5}}
	s := Session{Document: verifier.IDCard, IDCardFront: front,
		IDCardBack: &IDCardBackDone{CardFound: true, ProportionsOK: true, ZoneInPlace: true, Document: &doc}}
	raw, back := sealedAndBack(t, s)
	if !back.Done(StepIDCardFront) || !back.Done(StepIDCardBack) || back.Done(StepLicenseFront) || !back.documentStepPassed() {
		t.Fatalf("steps done after a round trip: %s", raw)
	}
	c := back.capture()
	want := verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true}
	if c.Evidence != want || len(c.Portrait) != 1 || len(c.Headshot) != 3 || c.Printed != nil {
		t.Fatalf("capture %+v", c)
	}
	f, err := c.Document.Fields([]string{"last_name", "dob", "country", "document_number"})
	if err != nil || f["last_name"] != "MUSTER" || f["dob"] != "2008-06-30" || f["country"] != "DEU" || f["document_number"] != "C4KX72F95" {
		t.Errorf("fields %v, %v", f, err)
	}
	o := back.outcome([]verifier.DocumentKind{verifier.DriversLicense, verifier.IDCard})
	if o.DocumentType != verifier.IDCard || o.License == nil || !o.Document.AppearsReal() {
		t.Errorf("outcome %+v", o)
	}
	back.finish(ActionSubmit, "completed")
	if back.IDCardFront != nil || back.IDCardBack != nil || back.Document != verifier.IDCard {
		t.Errorf("finished session keeps %+v (the kind is no personal data)", back)
	}

	// Each side's evidence counts only with the other's: a back whose
	// card's edges were not all found, a zone out of its place, a front
	// alone.
	cases := []struct {
		name string
		s    Session
		want verifier.DocumentEvidence
	}{
		{"the back's card not of ID-1's proportions", Session{IDCardFront: front, IDCardBack: &IDCardBackDone{CardFound: true, ZoneInPlace: true, Document: &doc}},
			verifier.DocumentEvidence{CardFound: true, FacePresent: true, BarcodeValid: true}},
		{"the zone out of its place", Session{IDCardFront: front, IDCardBack: &IDCardBackDone{CardFound: true, ProportionsOK: true, Document: &doc}},
			verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true}},
		{"the front alone", Session{IDCardFront: front}, verifier.DocumentEvidence{FacePresent: true}},
	}
	for _, k := range cases {
		k.s.Document = verifier.IDCard
		if got := k.s.capture().Evidence; got != k.want {
			t.Errorf("%s: evidence %+v, want %+v", k.name, got, k.want)
		}
	}
	if c := (&Session{Document: verifier.IDCard, IDCardFront: front}).capture(); c.Document != nil {
		t.Errorf("a front alone captured a document: %+v", c)
	}
}
