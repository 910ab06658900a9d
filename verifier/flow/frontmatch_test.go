package flow_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// front_barcode_match on the real engines (card, portrait, Tesseract,
// PDF417): a link asking for it is full and its view says the front is
// read; a printed front that agrees with its barcode matches, one printing
// another birth date is a mismatch that changes no other verdict; under a
// custom key the outcomes are in clear and no value read is anywhere in
// the result.
func TestFrontBarcodeMatch(t *testing.T) {
	parts.OnBothBackends(t, testFrontBarcodeMatch)
}

func testFrontBarcodeMatch(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	r := newRig(t, open(t))
	ctx := context.Background()
	_, lic, err := flowtest.BackPhoto(5, 0, 0) // the back licenseSteps sends
	if err != nil {
		t.Fatal(err)
	}
	face := r.foremanFace()
	key := publicKeyPEM(t)
	for _, c := range []struct {
		name    string
		printed license.License
		want    license.FieldOutcome
		dob     license.FieldOutcome
	}{
		{"genuine", lic, license.FieldMatch, license.FieldMatch},
		{"another birth date", cardtest.Altered(lic, cardtest.AlterDOB), license.FieldMismatch, license.FieldMismatch},
	} {
		id, tok := r.create(fmt.Sprintf(`{"front_barcode_match":true,"requested_fields":["last_name"],
			"encryption_key_mode":"custom","encryption_key":%q}`, key))
		if v := r.verification(id); v.Type != verifier.TypeFull {
			t.Errorf("%s: type %s, want full", c.name, v.Type)
		}
		if s, err := r.flow.Session(ctx, tok); err != nil || !s.FrontBarcodeMatch {
			t.Errorf("%s: the consent view does not say the front is read: %+v, %v", c.name, s, err)
		}
		front, err := flowtest.PrintedFrontPhoto(face, 1600, 1, c.printed)
		if err != nil {
			t.Fatal(err)
		}
		r.licenseSteps(tok, front)
		if ans := r.answer(tok, r.foreman()); !ans.Passed {
			t.Fatalf("%s: Foreman's answer failed: %+v", c.name, ans)
		}
		if done, err := r.flow.Submit(ctx, tok, "203.0.113.9"); err != nil || done.Status != string(verifier.StatusCompleted) {
			t.Fatalf("%s: submit answered %+v, %v", c.name, done, err)
		}
		result := r.verification(id).Result
		var res struct {
			Verification struct {
				LicenseAppearsReal bool                `json:"license_appears_real"`
				FaceMatches        any                 `json:"webcam_face_matches_license_photo"`
				FrontBarcodeMatch  *license.FrontMatch `json:"front_barcode_match"`
			} `json:"verification"`
		}
		if err := json.Unmarshal(result, &res); err != nil {
			t.Fatal(err)
		}
		ver := res.Verification
		if m := ver.FrontBarcodeMatch; m == nil || m.Result != c.want || m.Fields.DOB != c.dob {
			t.Fatalf("%s: front_barcode_match %+v, want %s with date_of_birth %s: %s", c.name, m, c.want, c.dob, result)
		}
		documented(t, result)
		if !ver.LicenseAppearsReal || ver.FaceMatches != true {
			t.Errorf("%s: the front check changed another verdict: %s", c.name, result)
		}
		for _, pii := range []string{lic.LastName, lic.FirstNames, lic.DocumentNumber, c.printed.DOB.String(),
			fmt.Sprintf("%02d/%02d/%04d", int(c.printed.DOB.Month), c.printed.DOB.Day, c.printed.DOB.Year)} {
			if testkit.HoldsPlain(result, pii) {
				t.Errorf("%s: %q in the result under a custom key", c.name, pii)
			}
		}
	}
}

// publicKeyPEM is a fresh RSA-2048 public key in PEM, an account's custom
// encryption key.
func publicKeyPEM(t *testing.T) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
