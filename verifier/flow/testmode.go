package flow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"time"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// Test mode (docs/test-mode.md): behind a test verification's link the tester picks
// the outcome instead of scanning a license and a face. The service builds
// the outcome from a fixture identity (FixtureIdentity) and completes through
// verifier.Complete like a real link: requested_fields, the cropped photo
// and the encryption mode apply as in live mode, the result is stored, and
// the webhook is sent with the same retries, signing and webhook_status.
// Nothing here runs for a live verification.

// TestOutcome names what a tester picks.
type TestOutcome string

// The outcomes (docs/test-mode.md lists what each one produces).
const (
	TestVerified          TestOutcome = "verified"
	TestLicenseExpired    TestOutcome = "license_expired"
	TestUnder18           TestOutcome = "under_18"
	TestUnder21           TestOutcome = "under_21"
	TestLicenseNotGenuine TestOutcome = "license_not_genuine"
	TestLivenessFailed    TestOutcome = "liveness_failed"
	TestLikelyMatch       TestOutcome = "likely_match"
	TestPossibleMatch     TestOutcome = "possible_match"
	TestNoMatch           TestOutcome = "no_match"
	// TestInconclusive offers manual review like a real inconclusive match:
	// the link waits in review_offered for POST /review or /decline-review.
	TestInconclusive TestOutcome = "inconclusive"
	// TestManualReview is TestInconclusive with review requested at once.
	TestManualReview TestOutcome = "manual_review"
)

// TestOutcomes lists every outcome in the order the test page shows them.
var TestOutcomes = []TestOutcome{TestVerified, TestLicenseExpired, TestUnder18, TestUnder21, TestLicenseNotGenuine,
	TestLivenessFailed, TestLikelyMatch, TestPossibleMatch, TestNoMatch, TestInconclusive, TestManualReview}

// Indicator says how an optional check of a test verification comes out:
// present (passed), negative (ran, did not pass) or absent (could not run:
// the member is left out, as for live checks).
type Indicator string

// The indicator choices.
const (
	IndicatorPresent  Indicator = "present"
	IndicatorNegative Indicator = "negative"
	IndicatorAbsent   Indicator = "absent"
)

// TestPick is what the tester chose: an outcome and, for the optional
// checks the verification requested, how each indicator comes out (empty:
// present). It holds no personal data and stays in the session.
type TestPick struct {
	Outcome TestOutcome `json:"outcome"`
	Phone   Indicator   `json:"phone,omitempty"`
	Address Indicator   `json:"address,omitempty"`
	// Location is location_consistency.
	Location Indicator `json:"location,omitempty"`
	// Document is the kind the result names (document_type), one the
	// link accepts; empty is the kind chosen on the link (its pick or
	// its only kind; the first accepted while none is picked).
	Document verifier.DocumentKind `json:"document,omitempty"`
}

// ErrNotTestLink: test/complete on a live verification's link (404: the
// live link is not a test resource, and its flow is left untouched).
var ErrNotTestLink = errors.New("not a test verification's link")

// ActionTestComplete finishes a test link from the tester's pick.
const ActionTestComplete Action = "test_complete"

// check validates p.
func (p TestPick) check() error {
	var d []problem.Detail
	known := false
	names := make([]string, len(TestOutcomes))
	for i, o := range TestOutcomes {
		known = known || o == p.Outcome
		names[i] = string(o)
	}
	switch {
	case p.Outcome == "":
		d = append(d, problem.Detail{Field: "outcome", Code: "required",
			Message: "give the outcome to finish with: one of " + strings.Join(names, ", ")})
	case !known:
		d = append(d, problem.Detail{Field: "outcome", Code: "unknown_outcome",
			Message: "must be one of " + strings.Join(names, ", ")})
	}
	for _, ind := range []struct {
		field string
		v     Indicator
	}{{"phone", p.Phone}, {"address", p.Address}, {"location", p.Location}} {
		switch ind.v {
		case "", IndicatorPresent, IndicatorNegative, IndicatorAbsent:
		default:
			d = append(d, problem.Detail{Field: ind.field, Code: "unknown_indicator", Message: "must be present, negative or absent"})
		}
	}
	if len(d) > 0 {
		return &verifier.ValidationError{Fields: d}
	}
	return nil
}

// TestComplete is POST /v/{token}/test/complete: the tester's pick ends
// the test link as the real steps would. inconclusive answers
// review_offered (then /review or /decline-review finish it); every other
// outcome completes (manual_review: in review). A live link is
// ErrNotTestLink and unchanged; a retried call answers what the first did.
func (f *Flow) TestComplete(ctx context.Context, token string, p TestPick) (SubmitAnswer, error) {
	v, s, done, err := f.finishing(ctx, token, ActionTestComplete)
	if v.ID != "" && v.Mode != verifier.ModeTest {
		return SubmitAnswer{}, ErrNotTestLink
	}
	if err != nil {
		return SubmitAnswer{}, err
	}
	// The body is checked before a retry is answered: a retry answers as
	// the first did, but a malformed pick is a 422 on any link.
	if err := p.check(); err != nil {
		return SubmitAnswer{}, err
	}
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("test complete: %w", err)
	}
	if p.Document == "" {
		k, _ := s.chosen(st.Documents())
		p.Document = k.Name
	} else if err := checkPick(p.Document, st.Documents()); err != nil {
		return SubmitAnswer{}, err
	}
	if done != nil {
		return *done, nil
	}
	if s.Phase != PhaseCollecting {
		return SubmitAnswer{}, fmt.Errorf("test complete: %w: manual review is offered; request it or decline it", ErrOutOfOrder)
	}
	if err := f.markStarted(ctx, v); err != nil {
		return SubmitAnswer{}, err
	}
	if p.Outcome == TestInconclusive {
		if _, err := f.update(ctx, v, func(cur *Session) error {
			if cur.Phase != PhaseCollecting {
				return fmt.Errorf("test complete: %w: the session changed meanwhile", ErrOutOfOrder)
			}
			pick, m := p, testMatch(p.Outcome)
			cur.Test, cur.Match, cur.Phase = &pick, &m, PhaseReviewOffered
			return nil
		}); err != nil {
			return SubmitAnswer{}, err
		}
		return SubmitAnswer{Status: StatusReviewOffered}, nil
	}
	return f.finishTest(ctx, v, p, s.Phone, ActionTestComplete, p.Outcome == TestManualReview)
}

// finishTest completes a test link from pick through verifier.Complete and
// finishes its session. A phone step the tester walked on the link (with
// phone.TestCode or wrong codes) is the result's phone_verification unless
// the pick names the phone indicator.
func (f *Flow) finishTest(ctx context.Context, v verifier.Verification, p TestPick, walked *PhoneState, a Action, review bool) (SubmitAnswer, error) {
	now := f.now()
	o := OutcomeOfPick(p, review, now)
	if r := phoneResult(walked); r != nil && p.Phone == "" {
		o.Phone = r
	}
	done, err := verifier.Complete(ctx, f.Verifications, now, v.AccountID, v.ID, o)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", a, err)
	}
	if _, err := f.update(ctx, v, func(cur *Session) error {
		pick := p
		cur.Test = &pick
		cur.finish(a, string(done.Status))
		return nil
	}); err != nil {
		return SubmitAnswer{}, err
	}
	return SubmitAnswer{Status: string(done.Status)}, nil
}

// OutcomeOfPick is the outcome a pick produces at now, from the fixture
// identity: what verifier.Complete receives for a test link.
func OutcomeOfPick(p TestPick, review bool, now time.Time) verifier.Outcome {
	today := license.DateOf(now.UTC())
	l := FixtureIdentity(today)
	o := verifier.Outcome{
		DocumentType:    p.Document,
		Document:        verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true},
		FaceMatch:       testMatch(p.Outcome),
		ReviewRequested: review,
		Live:            p.Outcome != TestLivenessFailed,
		LicensePhoto:    testHeadshot,
	}
	switch p.Outcome {
	case TestLicenseExpired:
		l.ExpiryDate = dateBefore(today, 30)
	case TestUnder18:
		l.DOB = today.AddYears(-16)
	case TestUnder21:
		l.DOB = today.AddYears(-19)
	case TestLicenseNotGenuine:
		// A card of the wrong proportions: the evidence a fake fails on.
		o.Document.ProportionsOK = false
	}
	l.Under18Until = l.DOB.AddYears(18)
	l.Under19Until = l.DOB.AddYears(19)
	l.Under21Until = l.DOB.AddYears(21)
	o.License, o.FrontPrinted = l, testFront(l)
	switch p.Document {
	case verifier.Passport:
		// The same person's passport, read today, its visual zone read
		// as a live data page's is (front_barcode_match: the visual zone
		// against the zone, a match).
		doc := FixturePassport(l, today)
		o.License, o.FrontPrinted = doc, testFront(doc.License())
	case verifier.IDCard:
		// The same person's ID card, read today, its printed front read
		// as a live card's is (front_barcode_match: the front against the
		// back's zone, a match).
		doc := FixtureIDCard(l, today)
		o.License, o.FrontPrinted = doc, testFront(doc.License())
	}
	switch p.Phone {
	case "", IndicatorPresent, IndicatorNegative:
		ph := TestPhone
		ph.Verified = p.Phone != IndicatorNegative
		o.Phone = &ph
	}
	yes, no := true, false
	switch p.Address {
	case "", IndicatorPresent: // deliverable, the full name on record there
		o.Address = &verifier.AddressVerification{Deliverable: true, NameAtAddress: &yes, LastNameAtAddress: &no}
	case IndicatorNegative: // not deliverable, nobody of that name there
		o.Address = &verifier.AddressVerification{Deliverable: false, NameAtAddress: &no, LastNameAtAddress: &no}
	}
	// The connection: found in the IP data, no proxy (the location
	// indicator needs a located IP).
	o.IP = &verifier.IPIntel{Found: true}
	switch p.Location {
	case "", IndicatorPresent:
		o.Location = testLocation(ipintel.Consistent)
	case IndicatorNegative:
		o.Location = testLocation(ipintel.Inconsistent)
	}
	return o
}

// testFront is what OCR would read on the fixture's front: the
// barcode's own fields, printed as a US card prints them, so
// front_barcode_match (when asked) is a match for every outcome, as on a
// genuine card read well; "not genuine" is about the card's proportions.
func testFront(l license.License) *license.Printed {
	read := func(s string) license.Read { return license.Read{Text: s, Conf: 95} }
	us := func(d license.Date) license.Read {
		return read(fmt.Sprintf("%02d/%02d/%04d", int(d.Month), d.Day, d.Year))
	}
	return &license.Printed{DocumentNumber: read(l.DocumentNumber), LastName: read(l.LastName),
		FirstName: read(l.FirstNames + " " + l.MiddleNames), DOB: us(l.DOB), ExpiryDate: us(l.ExpiryDate),
		IssueDate: us(l.IssueDate)}
}

// testLocation is location_consistency of a test verification: the
// connection a few kilometres from the fixture's address, or (inconsistent)
// far outside the expected range.
func testLocation(result string) *ipintel.Consistency {
	anon, km := false, 3.2
	c := &ipintel.Consistency{Result: result, AnonymizedConnection: &anon, MatchLikelihood: "yes", MatchScore: 95,
		Granularity: "city", DistanceKM: &km, Reasons: []string{}}
	if result == ipintel.Inconsistent {
		far := 1450.0
		c.MatchLikelihood, c.MatchScore, c.DistanceKM, c.Reasons = "no", 5, &far, []string{"outside_expected_range"}
	}
	return c
}

// dateBefore is the date n days before d.
func dateBefore(d license.Date, n int) license.Date {
	return license.DateOf(time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).AddDate(0, 0, -n))
}

// testMatch is the face match each outcome reports: a definite match
// unless the outcome is about the face.
func testMatch(o TestOutcome) match.Result {
	switch o {
	case TestLikelyMatch:
		return match.Result{Tier: match.LikelyMatch, Confidence: 0.8, Cosine: 0.88}
	case TestPossibleMatch, TestInconclusive, TestManualReview:
		return match.Result{Tier: match.PossibleMatch, Confidence: 0.5, Cosine: 0.8}
	case TestNoMatch:
		return match.Result{Tier: match.NoMatch, Confidence: 0.15, Cosine: 0.55}
	}
	return match.Result{Tier: match.DefiniteMatch, Confidence: 0.95, Cosine: 0.97}
}

// FixtureIdentity is the fixture license of every test verification on the
// day today: Alex Sample, 35 years old, licensed in Illinois, valid for
// four more years. The outcomes change only what they are about (the
// expiry date, the birth date). It is no real person's data.
func FixtureIdentity(today license.Date) license.License {
	dob := today.AddYears(-35)
	return license.License{
		DocumentType: "DL",
		FirstNames:   "ALEX", MiddleNames: "JORDAN", LastName: "SAMPLE",
		DOB:        dob,
		IssueDate:  today.AddYears(-2),
		ExpiryDate: today.AddYears(4),
		Sex:        license.SexUnspecified,
		Height:     license.Measure{Value: 175, Unit: "cm"},
		Weight:     license.Measure{Value: 70, Unit: "kg"},
		EyeColor:   "BRO", HairColor: "BLK",
		Address: license.Address{Line1: "123 TEST STREET", Line2: "APT 4", City: "SPRINGFIELD", Jurisdiction: "IL",
			PostalCode: "62701"},
		DocumentNumber: "T0000-0000-0022", DocumentDiscriminator: "TESTMODE0001",
		IssuingJurisdiction: "IL", Country: "USA",
		VehicleClass: "D", Restrictions: "NONE", Endorsements: "NONE",
		ComplianceType: "F",
	}
}

// FixturePassport is the fixture identity's passport (TD3) as its zone
// reads on today: names, birth and expiry dates and sex of l, number
// T00000022 (no specimen's), issued by the USA; a passport carries no
// address, so the address and location checks of a live passport do not
// run (the test pick's indicators still say how they come out).
func FixturePassport(l license.License, today license.Date) mrz.Document {
	date := func(d license.Date) mrz.Date { return mrz.Date{Year: d.Year % 100, Month: int(d.Month), Day: d.Day} }
	m := mrz.MRZ{Format: mrz.TD3, DocumentCode: "P", IssuingState: "USA", Nationality: "USA",
		Surname: l.LastName, GivenNames: strings.TrimSpace(l.FirstNames + " " + l.MiddleNames),
		DocumentNumber: "T00000022", BirthDate: date(l.DOB), Sex: string(l.Sex), ExpiryDate: date(l.ExpiryDate)}
	return mrz.Document{MRZ: m, Read: today}
}

// FixtureIDCard is the fixture identity's ID card (TD1, an identity card)
// as its zone reads on today: names, birth and expiry dates and sex of l,
// number C00000049 (no specimen's), issued by the USA; like the passport,
// it carries no address.
func FixtureIDCard(l license.License, today license.Date) mrz.Document {
	d := FixturePassport(l, today)
	d.MRZ.Format, d.MRZ.DocumentCode, d.MRZ.DocumentNumber = mrz.TD1, "I", "C00000049"
	return d
}

// TestPhone is phone_verification of a test verification that asked for
// it (a number reserved for fiction: 555-01xx).
var TestPhone = verifier.PhoneVerification{AreaCode: "217", Last3Digits: "123", LineType: "mobile",
	Lookup: verifier.PhoneLookup{PhoneNumber: "+12175550123", CallerName: "SAMPLE ALEX", CarrierName: "Test Carrier"}}

// testHeadshot is the fixture's cropped license photo: a drawn, clearly
// synthetic face (a JPEG, as the real crop is), made once.
var testHeadshot = drawHeadshot()

func drawHeadshot() []byte {
	const w, h = 96, 120
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg, skin, dark := color.RGBA{0x9e, 0xc5, 0xe8, 0xff}, color.RGBA{0xe0, 0xb0, 0x8a, 0xff}, color.RGBA{0x3a, 0x2a, 0x20, 0xff}
	in := func(x, y, cx, cy, rx, ry int) bool {
		dx, dy := float64(x-cx)/float64(rx), float64(y-cy)/float64(ry)
		return dx*dx+dy*dy <= 1
	}
	for y := range h {
		for x := range w {
			c := bg
			switch {
			case in(x, y, 48, 122, 44, 28): // shoulders
				c = dark
			case in(x, y, 33, 50, 4, 3), in(x, y, 63, 50, 4, 3): // eyes
				c = dark
			case in(x, y, 48, 78, 10, 3): // mouth
				c = color.RGBA{0xa0, 0x40, 0x40, 0xff}
			case in(x, y, 48, 55, 26, 34): // face
				c = skin
			case in(x, y, 48, 45, 30, 36): // hair
				c = dark
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		panic(fmt.Sprintf("test headshot: %v", err)) // in-memory encoding of a valid image cannot fail
	}
	return b.Bytes()
}
