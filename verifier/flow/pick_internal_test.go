package flow

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// TestSessionStoredBeforeTheDocumentMember: a session sealed before the
// document member (no "document") on a verification created before
// accepted_documents (no such setting) is a license link's: its kind is
// drivers_license without a pick, its steps are the license's, and the
// result it completes to names drivers_license with the license's members.
func TestSessionStoredBeforeTheDocumentMember(t *testing.T) {
	var s Session
	if err := json.Unmarshal([]byte(storedBeforeThePort), &s); err != nil {
		t.Fatal(err)
	}
	v := verifier.Verification{ID: "v1", AccountID: "a1", Options: json.RawMessage(`{"requested_fields":["last_name"],"encryption_key_mode":"none"}`)}
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := s.chosen(st.Documents()); !ok || k.Name != verifier.DriversLicense {
		t.Fatalf("kind %s (chosen %v), want drivers_license", k.Name, ok)
	}
	steps, err := (&Flow{}).steps(v, &s)
	if err != nil || !s.ready(steps) || len(steps) != 3 || steps[0] != StepLicenseFront {
		t.Fatalf("steps %v (%v), ready %v", steps, err, s.ready(steps))
	}
	if !s.documentStepPassed() {
		t.Error("the license steps passed, but the kind is not fixed")
	}
	if _, err := s.stepKind(st.Documents(), StepLicenseFront); err != nil {
		t.Errorf("license front on a license link: %v", err)
	}
	o := s.outcome(st.Documents())
	o.FaceMatch.Tier, o.Live = "definite_match", true
	p, _, err := verifier.BuildResult(v, o, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if p.DocumentType != verifier.DriversLicense || p.LicenseData["last_name"] != "DOE" || !p.Verification.LicenseAppearsReal ||
		!p.Verification.Over21 || p.Verification.LicenseExpired {
		t.Errorf("result %+v %+v", p, p.Verification)
	}
}

// TestDocumentStepsFollowTheChoice: on a link accepting several kinds a
// document step waits for the pick, then runs only for the kind picked;
// a link accepting one kind needs none, and refuses another's steps.
func TestDocumentStepsFollowTheChoice(t *testing.T) {
	several := []verifier.DocumentKind{verifier.DriversLicense, verifier.Passport}
	var s Session
	if k, ok := s.chosen(several); ok || k.Name != verifier.DriversLicense {
		t.Errorf("no pick on a link accepting several: %s chosen %v, want the first accepted, not chosen", k.Name, ok)
	}
	if _, err := s.stepKind(several, StepLicenseFront); !errors.Is(err, ErrDocumentNotChosen) {
		t.Errorf("front before the pick: %v", err)
	}
	if k, err := s.stepKind(several, StepLiveness); k != "" || err != nil {
		t.Errorf("liveness is every kind's: %q %v", k, err)
	}
	s.Document = verifier.Passport
	if _, err := s.stepKind(several, StepLicenseFront); !errors.Is(err, ErrOtherDocument) {
		t.Errorf("front after picking the passport: %v", err)
	}
	if o := s.outcome(several); o.DocumentType != verifier.Passport || o.License != nil {
		t.Errorf("outcome of a passport pick with nothing read: %+v", o)
	}
	s.Document = verifier.DriversLicense
	if k, err := s.stepKind(several, StepLicenseFront); k != verifier.DriversLicense || err != nil {
		t.Errorf("front after picking the license: %q %v", k, err)
	}
	// Accepting the passport alone: the license's steps are not the link's.
	var p Session
	if _, err := p.stepKind([]verifier.DocumentKind{verifier.Passport}, StepLicenseBack); !errors.Is(err, ErrOtherDocument) {
		t.Errorf("back on a passport link: %v", err)
	}
	if o := p.outcome([]verifier.DocumentKind{verifier.Passport}); o.DocumentType != verifier.Passport {
		t.Errorf("a passport link's document_type %q", o.DocumentType)
	}
}

// TestCheckPick: the pick names a kind the link accepts, in the one
// validation format.
func TestCheckPick(t *testing.T) {
	accepted := []verifier.DocumentKind{verifier.DriversLicense}
	for k, code := range map[verifier.DocumentKind]string{"": "required", "visa": "invalid_value", verifier.Passport: "not_accepted"} {
		var ve *verifier.ValidationError
		if err := checkPick(k, accepted); !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != "document" ||
			ve.Fields[0].Code != code || ve.Fields[0].Message == "" {
			t.Errorf("pick %q: %v, want %s on document", k, err, code)
		}
	}
	if err := checkPick(verifier.DriversLicense, accepted); err != nil {
		t.Errorf("accepted kind refused: %v", err)
	}
}
