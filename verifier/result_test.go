package verifier_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"image/jpeg"
	"log/slog"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/rulesets"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
)

// resultNow is the completion time of most result tests: 05:00 UTC, when it
// is still the previous day in UTC−12 and already 19:00 in UTC+14.
var resultNow = time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)

// The holder's personal values, distinctive enough that finding one
// anywhere can only mean it leaked (hygiene_test.go scans for them).
const (
	holderFirst    = "ZEBULONIA"
	holderLast     = "QUXWORTHINGTON"
	holderNumber   = "Q7730419ZK88"
	holderStreet   = "4242 MARMALADE CRESCENT"
	holderCity     = "VELLICHORVILLE"
	holderDOB      = "1987-06-05"
	holderPhone    = "+15417770199"
	holderCaller   = "ZEBULONIA Q PHONEHOLDER"
	holderCarrier  = "Obscurant Wireless Cooperative"
	holderAreaCode = "541"
)

// testLicense is the holder's license as the scanner delivers it: encoded
// to an AAMVA v10 barcode payload and parsed back by the real parser.
func testLicense(t testing.TB, dob, expiry license.Date) license.License {
	t.Helper()
	l := license.License{
		DocumentType: "DL", IssuingJurisdiction: "OR", Country: "USA",
		FirstNames: holderFirst, LastName: holderLast, Sex: license.SexFemale,
		DOB: dob, IssueDate: license.Date{Year: 2022, Month: 3, Day: 1}, ExpiryDate: expiry,
		Address:        license.Address{Line1: holderStreet, City: holderCity, Jurisdiction: "OR", PostalCode: "97035"},
		DocumentNumber: holderNumber, EyeColor: "GRN", Height: license.Measure{Value: 66, Unit: "in"},
	}
	parsed, err := license.ParseAAMVA(license.Encode(l, 10))
	if err != nil {
		t.Fatal(err)
	}
	if parsed.FirstNames != holderFirst || parsed.DocumentNumber != holderNumber || parsed.DOB != dob {
		t.Fatalf("round trip through the barcode lost data: %+v", parsed)
	}
	return parsed
}

var holderBirth = license.Date{Year: 1987, Month: 6, Day: 5}

// headshot is a real face crop (shared test data) re-encoded as the JPEG
// the flow crops from the license.
func headshot(t testing.TB) []byte {
	t.Helper()
	img := testkit.PNG(t, "testdata", "faces", "labeled", "amy", "amy1.png")
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func holderPhoneCheck() *verifier.PhoneVerification {
	return &verifier.PhoneVerification{AreaCode: holderAreaCode, Last3Digits: "199", Verified: true, LineType: "mobile",
		Lookup: verifier.PhoneLookup{PhoneNumber: holderPhone, CallerName: holderCaller, CarrierName: holderCarrier}}
}

// holderFront is the holder's license front as OCR reads it, with the
// birth date printed as dob.
func holderFront(dob string) *license.Printed {
	r := func(s string) license.Read { return license.Read{Text: s, Conf: 93} }
	return &license.Printed{DocumentNumber: r(holderNumber), LastName: r(holderLast), FirstName: r(holderFirst),
		DOB: r(dob), ExpiryDate: r("06/05/2030")}
}

// goodOutcome is a flow that passed everything, with a definite match.
func goodOutcome(t testing.TB) verifier.Outcome {
	return verifier.Outcome{
		License:   testLicense(t, holderBirth, license.Date{Year: 2030, Month: 6, Day: 5}),
		Document:  verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true},
		FaceMatch: match.Result{Distance: 0.31, Cosine: 0.912345678, Tier: match.DefiniteMatch, Confidence: 0.93111111},
		Live:      true,
		Phone:     holderPhoneCheck(),
		// The IP check ran and the IP is not in the data (a loopback
		// address, say).
		IP: &verifier.IPIntel{},
	}
}

// withSettings is a verification carrying s as its stored options.
func withSettings(t testing.TB, s verifier.Settings, externalID string) verifier.Verification {
	t.Helper()
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return verifier.Verification{ID: uuid.NewString(), AccountID: uuid.NewString(), Options: raw, ExternalID: externalID,
		Status: verifier.StatusStarted}
}

// decode parses a payload into generic JSON for shape assertions.
func decode(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("payload is not a JSON object: %v\n%s", err, raw)
	}
	return m
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// coreVerification lists the verification members every result has;
// ipVerification those every result whose IP check ran has.
var (
	coreVerification = []string{"face_match_confidence", "face_match_cosine_similarity", "face_match_score",
		"license_appears_real", "license_expired", "over_18", "over_21",
		"webcam_appears_live", "webcam_face_matches_license_photo"}
	ipVerification = []string{"ip_found", "is_proxy"}
)

func TestBuildResultShape(t *testing.T) {
	photo := headshot(t)
	all := verifier.Settings{RequestedFields: []string{"first_names", "last_name", "dob", "middle_names"},
		PhoneVerification: true, IncludeLicensePhoto: true, EncryptionKeyMode: e2ee.ModeNone}
	tests := []struct {
		name     string
		settings verifier.Settings
		external string
		edit     func(o *verifier.Outcome)
		status   verifier.Status
		top      []string       // exact top-level members
		ver      map[string]any // verification members that must have these values
		extra    []string       // verification members beyond coreVerification
		noIP     bool           // the IP check did not run: no ipVerification members
		check    func(t *testing.T, p map[string]any)
	}{{
		name:     "core: nothing requested",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"license_appears_real": true, "license_expired": false, "over_18": true, "over_21": true,
			"webcam_appears_live": true, "webcam_face_matches_license_photo": true, "face_match_score": "definite_match",
			"face_match_confidence": 0.9311, "face_match_cosine_similarity": 0.9123, "ip_found": false, "is_proxy": false},
		check: func(t *testing.T, p map[string]any) {
			if got := p["license_data"]; !reflect.DeepEqual(got, map[string]any{}) {
				t.Errorf("license_data = %v, want {}", got)
			}
		},
	}, {
		name:     "requested fields, external_id, phone and photo",
		settings: all, external: "order-8812",
		edit:   func(o *verifier.Outcome) { o.LicensePhoto = photo },
		status: verifier.StatusCompleted,
		top:    []string{"external_id", "license_data", "license_photo", "livemode", "phone_verification", "request_id", "verification"},
		check: func(t *testing.T, p map[string]any) {
			want := map[string]any{"first_names": holderFirst, "last_name": holderLast, "dob": holderDOB, "middle_names": nil}
			if got := p["license_data"]; !reflect.DeepEqual(got, want) {
				t.Errorf("license_data = %v, want %v", got, want)
			}
			if p["external_id"] != "order-8812" {
				t.Errorf("external_id = %v", p["external_id"])
			}
			if p["license_photo"] != base64.StdEncoding.EncodeToString(photo) {
				t.Error("license_photo is not the base64 of the headshot")
			}
			wantPhone := map[string]any{"phone_areacode": holderAreaCode, "last_3_digits": "199", "phone_verified": true,
				"line_type": "mobile", "lookup": map[string]any{"phone_number": holderPhone, "caller_name": holderCaller,
					"carrier_name": holderCarrier}}
			if got := p["phone_verification"]; !reflect.DeepEqual(got, wantPhone) {
				t.Errorf("phone_verification = %v, want %v", got, wantPhone)
			}
		},
	}, {
		name:     "requested but unable to run: no phone check, no crop, no address or location source",
		settings: verifier.Settings{PhoneVerification: true, IncludeLicensePhoto: true, AddressVerification: true, LocationConsistency: true, EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.Phone = nil },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
	}, {
		name:     "not requested: phone and photo measured but left out",
		settings: verifier.Settings{RequestedFields: []string{"last_name"}, EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.LicensePhoto = photo },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		check: func(t *testing.T, p map[string]any) {
			if got := p["license_data"]; !reflect.DeepEqual(got, map[string]any{"last_name": holderLast}) {
				t.Errorf("license_data = %v", got)
			}
		},
	}, {
		name:     "proxy reported with its type",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.IP = &verifier.IPIntel{Found: true, Proxy: true, Type: "tor", Description: "Tor exit relay (listed by the Tor Project)"}
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver:    map[string]any{"ip_found": true, "is_proxy": true, "proxy_type": "tor", "proxy_description": "Tor exit relay (listed by the Tor Project)"},
		extra:  []string{"proxy_description", "proxy_type"},
	}, {
		name:     "no proxy: type and description dropped",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.IP = &verifier.IPIntel{Found: true, Type: "hosting", Description: "x"} },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		ver:      map[string]any{"ip_found": true, "is_proxy": false},
	}, {
		name:     "IP check could not run: ip_found and is_proxy absent, not false",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone, LocationConsistency: true},
		edit:     func(o *verifier.Outcome) { o.IP = nil },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		noIP:     true,
	}, {
		name:     "location consistency requested and ran",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone, LocationConsistency: true},
		edit: func(o *verifier.Outcome) {
			o.Location = &ipintel.Consistency{Result: ipintel.Inconclusive, MatchLikelihood: ipintel.LikelihoodMaybe,
				MatchScore: 50, Granularity: ipintel.GranularityNone, Reasons: []string{ipintel.ReasonIPNotLocated}}
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "location_consistency", "request_id", "verification"},
		check: func(t *testing.T, p map[string]any) {
			want := map[string]any{"result": "inconclusive", "anonymized_connection": nil, "match_likelihood": "maybe",
				"match_score": 50.0, "granularity": "none", "distance_km": nil, "reasons": []any{"ip_not_located"},
				"connection_changed": false}
			if got := p["location_consistency"]; !reflect.DeepEqual(got, want) {
				t.Errorf("location_consistency = %v, want %v", got, want)
			}
		},
	}, {
		name:     "location consistency ran but was not requested: absent",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.Location = &ipintel.Consistency{Result: ipintel.Consistent, Reasons: []string{}}
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
	}, {
		name:     "likely match is a match",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.FaceMatch = match.Result{Tier: match.LikelyMatch, Confidence: 0.8, Cosine: 0.7}
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver:    map[string]any{"webcam_face_matches_license_photo": true, "face_match_score": "likely_match"},
	}, {
		name:     "possible match without review is not a match",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.FaceMatch = match.Result{Tier: match.PossibleMatch, Confidence: 0.6, Cosine: 0.5}
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver:    map[string]any{"webcam_face_matches_license_photo": false, "face_match_score": "possible_match"},
	}, {
		name:     "possible match with review requested: manual_review, undetermined",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.FaceMatch = match.Result{Tier: match.PossibleMatch, Confidence: 0.6, Cosine: -0.00001}
			o.ReviewRequested = true
		},
		status: verifier.StatusManualReview,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"webcam_face_matches_license_photo": "undetermined", "manual_review_requested": true,
			"face_match_score": "possible_match", "face_match_cosine_similarity": 0.0},
		extra: []string{"manual_review_requested"},
	}, {
		name:     "no match with review requested: manual_review, undetermined, the tier kept",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.FaceMatch = match.Result{Tier: match.NoMatch, Confidence: 0.1, Cosine: 0.2}
			o.ReviewRequested = true
		},
		status: verifier.StatusManualReview,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"webcam_face_matches_license_photo": "undetermined", "manual_review_requested": true,
			"face_match_score": "no_match"},
		extra: []string{"manual_review_requested"},
	}, {
		name:     "front_barcode_match: the printed front agrees, outcomes only",
		settings: verifier.Settings{FrontBarcodeMatch: true, EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.FrontPrinted = holderFront("06/05/1987") },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"front_barcode_match": map[string]any{"result": "match", "fields": map[string]any{
			"document_number": "match", "last_name": "match", "first_name": "match", "date_of_birth": "match",
			"expiry_date": "match", "issue_date": "not_compared"}}, "license_appears_real": true},
		extra: []string{"front_barcode_match"},
	}, {
		name:     "front_barcode_match: another birth date is a mismatch and changes nothing else",
		settings: verifier.Settings{FrontBarcodeMatch: true, EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.FrontPrinted = holderFront("06/05/1984") },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"license_appears_real": true, "over_21": true, "webcam_face_matches_license_photo": true,
			"front_barcode_match": map[string]any{"result": "mismatch", "fields": map[string]any{
				"document_number": "match", "last_name": "match", "first_name": "match", "date_of_birth": "mismatch",
				"expiry_date": "match", "issue_date": "not_compared"}}},
		extra: []string{"front_barcode_match"},
	}, {
		name:     "front_barcode_match with no front read: unreadable",
		settings: verifier.Settings{FrontBarcodeMatch: true, EncryptionKeyMode: e2ee.ModeNone},
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
		ver:      map[string]any{"front_barcode_match": map[string]any{"result": "unreadable", "fields": map[string]any{"document_number": "unreadable", "last_name": "unreadable", "first_name": "unreadable", "date_of_birth": "unreadable", "expiry_date": "unreadable", "issue_date": "not_compared"}}},
		extra:    []string{"front_barcode_match"},
	}, {
		name:     "front read but the option not requested: absent",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit:     func(o *verifier.Outcome) { o.FrontPrinted = holderFront("06/05/1987") },
		status:   verifier.StatusCompleted,
		top:      []string{"license_data", "livemode", "request_id", "verification"},
	}, {
		name:     "no match, not live, document evidence missing",
		settings: verifier.Settings{EncryptionKeyMode: e2ee.ModeNone},
		edit: func(o *verifier.Outcome) {
			o.FaceMatch = match.Result{Tier: match.NoMatch, Confidence: 0.1, Cosine: -0.2}
			o.Live = false
			o.Document.FacePresent = false
		},
		status: verifier.StatusCompleted,
		top:    []string{"license_data", "livemode", "request_id", "verification"},
		ver: map[string]any{"webcam_face_matches_license_photo": false, "face_match_score": "no_match",
			"webcam_appears_live": false, "license_appears_real": false},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := goodOutcome(t)
			if tc.edit != nil {
				tc.edit(&o)
			}
			v := withSettings(t, tc.settings, tc.external)
			p, status, err := verifier.BuildResult(v, o, resultNow)
			if err != nil {
				t.Fatal(err)
			}
			if status != tc.status {
				t.Errorf("status = %s, want %s", status, tc.status)
			}
			raw, err := p.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			m := decode(t, raw)
			// Every result names its document's kind (document_type).
			top := append([]string{"document_type"}, tc.top...)
			sort.Strings(top)
			if got := keysOf(m); !reflect.DeepEqual(got, top) {
				t.Errorf("members = %v, want %v", got, top)
			}
			if m["document_type"] != "drivers_license" {
				t.Errorf("document_type = %v, want drivers_license", m["document_type"])
			}
			if m["request_id"] != v.ID {
				t.Errorf("request_id = %v, want %s", m["request_id"], v.ID)
			}
			if m["livemode"] != true {
				t.Errorf("livemode = %v in a live verification's result, want true", m["livemode"])
			}
			ver := m["verification"].(map[string]any)
			wantKeys := append(append([]string{}, coreVerification...), tc.extra...)
			if !tc.noIP {
				wantKeys = append(wantKeys, ipVerification...)
			}
			sort.Strings(wantKeys)
			if got := keysOf(ver); !reflect.DeepEqual(got, wantKeys) {
				t.Errorf("verification members = %v, want %v", got, wantKeys)
			}
			for k, want := range tc.ver {
				if !reflect.DeepEqual(ver[k], want) {
					t.Errorf("verification.%s = %#v, want %#v", k, ver[k], want)
				}
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

// TestBuildResultDateRules: ages on the UTC−12 calendar day, expiry on the
// UTC+14 one, so neither admits anyone anywhere a day early.
func TestBuildResultDateRules(t *testing.T) {
	turns18 := license.Date{Year: 2008, Month: 11, Day: 22} // 18th birthday: 2026-11-22
	turns21 := license.Date{Year: 2005, Month: 11, Day: 22}
	expires := license.Date{Year: 2026, Month: 11, Day: 21} // valid through the 21st
	far := license.Date{Year: 2031, Month: 1, Day: 1}
	tests := []struct {
		name     string
		dob, exp license.Date
		now      time.Time
		field    string
		want     bool
	}{
		{"18th birthday in UTC, not yet in UTC-12", turns18, far, time.Date(2026, 11, 22, 11, 59, 0, 0, time.UTC), "over_18", false},
		{"18th birthday everywhere", turns18, far, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), "over_18", true},
		{"21st birthday in UTC, not yet in UTC-12", turns21, far, time.Date(2026, 11, 22, 11, 59, 0, 0, time.UTC), "over_21", false},
		{"21st birthday everywhere", turns21, far, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), "over_21", true},
		{"under 21 at 18", turns18, far, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "over_21", false},
		{"last valid day everywhere", holderBirth, expires, time.Date(2026, 11, 21, 9, 59, 0, 0, time.UTC), "license_expired", false},
		{"expired in UTC+14 already", holderBirth, expires, time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), "license_expired", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := goodOutcome(t)
			o.License = testLicense(t, tc.dob, tc.exp)
			p, _, err := verifier.BuildResult(withSettings(t, verifier.Settings{EncryptionKeyMode: e2ee.ModeNone}, ""), o, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := p.Marshal()
			if got := decode(t, raw)["verification"].(map[string]any)[tc.field]; got != tc.want {
				t.Errorf("%s = %v, want %v", tc.field, got, tc.want)
			}
		})
	}
}

func TestDocumentEvidenceAllRequired(t *testing.T) {
	all := verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true, BarcodeValid: true}
	if !all.AppearsReal() {
		t.Fatal("all evidence present: want appears real")
	}
	for i, drop := range []func(*verifier.DocumentEvidence){
		func(d *verifier.DocumentEvidence) { d.CardFound = false },
		func(d *verifier.DocumentEvidence) { d.ProportionsOK = false },
		func(d *verifier.DocumentEvidence) { d.FacePresent = false },
		func(d *verifier.DocumentEvidence) { d.BarcodeValid = false },
	} {
		d := all
		drop(&d)
		if d.AppearsReal() {
			t.Errorf("evidence %d missing: still appears real", i)
		}
	}
}

func TestBuildResultRefusesImpossibleOutcomes(t *testing.T) {
	v := withSettings(t, verifier.Settings{EncryptionKeyMode: e2ee.ModeNone}, "")
	for name, edit := range map[string]func(o *verifier.Outcome){
		"unknown tier":           func(o *verifier.Outcome) { o.FaceMatch.Tier = "" },
		"confidence above 1":     func(o *verifier.Outcome) { o.FaceMatch.Confidence = 1.2 },
		"cosine NaN":             func(o *verifier.Outcome) { o.FaceMatch.Cosine = math.NaN() },
		"cosine below -1":        func(o *verifier.Outcome) { o.FaceMatch.Cosine = -1.5 },
		"review on definite":     func(o *verifier.Outcome) { o.ReviewRequested = true },
		"proxy without ip_found": func(o *verifier.Outcome) { o.IP = &verifier.IPIntel{Proxy: true, Type: "tor"} },
		"proxy without type":     func(o *verifier.Outcome) { o.IP = &verifier.IPIntel{Found: true, Proxy: true} },
		"photo not a JPEG":       func(o *verifier.Outcome) { o.LicensePhoto = []byte("\x89PNG\r\n\x1a\n") },
		"one address name member": func(o *verifier.Outcome) {
			o.Address = &verifier.AddressVerification{Deliverable: true, NameAtAddress: ptr(true)}
		},
		"full and last name alone": func(o *verifier.Outcome) {
			o.Address = &verifier.AddressVerification{NameAtAddress: ptr(true), LastNameAtAddress: ptr(true)}
		},
		"exhausted with a face match": func(o *verifier.Outcome) { o.LivenessExhausted, o.Live = true, false },
		"exhausted but live": func(o *verifier.Outcome) {
			o.LivenessExhausted, o.FaceMatch = true, match.Result{}
		},
		"exhausted with review": func(o *verifier.Outcome) {
			o.LivenessExhausted, o.FaceMatch, o.Live, o.ReviewRequested = true, match.Result{}, false, true
		},
		"exhausted with a bad photo": func(o *verifier.Outcome) {
			o.LivenessExhausted, o.FaceMatch, o.Live, o.LicensePhoto = true, match.Result{}, false, []byte("GIF89a")
		},
	} {
		t.Run(name, func(t *testing.T) {
			o := goodOutcome(t)
			edit(&o)
			if _, _, err := verifier.BuildResult(v, o, resultNow); !errors.Is(err, verifier.ErrInvalidOutcome) {
				t.Fatalf("err = %v, want ErrInvalidOutcome", err)
			}
		})
	}
}

// exhausted is an outcome after every liveness attempt failed.
func exhausted(o *verifier.Outcome) {
	o.LivenessExhausted, o.Live, o.FaceMatch = true, false, match.Result{}
}

// Every liveness attempt failed: completed, not live, the face verdict
// false and the face match figures absent (no comparison was made), the
// license members as any completion gives them; without a read back, what
// a barcode without dates gives. A real comparison scoring 0 keeps its
// figures.
func TestBuildResultLivenessExhausted(t *testing.T) {
	v := withSettings(t, verifier.Settings{RequestedFields: []string{"dob"}, EncryptionKeyMode: e2ee.ModeNone}, "")
	build := func(o verifier.Outcome) (map[string]any, verifier.Status) {
		t.Helper()
		p, status, err := verifier.BuildResult(v, o, resultNow)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m, status
	}
	o := goodOutcome(t)
	exhausted(&o)
	m, status := build(o)
	ver := m["verification"].(map[string]any)
	if status != verifier.StatusCompleted || ver["webcam_appears_live"] != false || ver["webcam_face_matches_license_photo"] != false ||
		ver["license_appears_real"] != true || ver["over_21"] != true || ver["license_expired"] != false ||
		m["license_data"].(map[string]any)["dob"] != holderBirth.String() {
		t.Fatalf("%s: %v", status, m)
	}
	for _, absent := range []string{"face_match_score", "face_match_confidence", "face_match_cosine_similarity", "manual_review_requested"} {
		if _, has := ver[absent]; has {
			t.Errorf("%s present: %v", absent, ver)
		}
	}

	unread := verifier.Outcome{Document: verifier.DocumentEvidence{CardFound: true, ProportionsOK: true, FacePresent: true}}
	exhausted(&unread)
	m, _ = build(unread)
	ver = m["verification"].(map[string]any)
	if ver["license_appears_real"] != false || ver["over_18"] != false || ver["over_21"] != false || ver["license_expired"] != true ||
		m["license_data"].(map[string]any)["dob"] != nil {
		t.Errorf("without the back: %v", m)
	}

	zero := goodOutcome(t)
	zero.FaceMatch = match.Result{Tier: match.NoMatch}
	m, _ = build(zero)
	ver = m["verification"].(map[string]any)
	if ver["face_match_score"] != "no_match" || ver["face_match_confidence"] != 0.0 || ver["face_match_cosine_similarity"] != 0.0 {
		t.Errorf("a comparison scoring 0 lost its figures: %v", ver)
	}
}

// Keys shared by the encryption tests: generating them is the slow part.
var (
	testKeysOnce  sync.Once
	testRSA       *rsa.PrivateKey
	testRSAPEM    string // public key, PKIX PEM
	testPassKey   e2ee.PassphraseKey
	testPassOpen  client.Key
	testKeysError error
)

const testPassphrase = "correct horse battery staple for idgate tests"

func encryptionKeys(t testing.TB) (*rsa.PrivateKey, string, e2ee.PassphraseKey) {
	t.Helper()
	testKeysOnce.Do(func() {
		if testRSA, testKeysError = rsa.GenerateKey(rand.Reader, 2048); testKeysError != nil {
			return
		}
		der, err := x509.MarshalPKIXPublicKey(&testRSA.PublicKey)
		if err != nil {
			testKeysError = err
			return
		}
		testRSAPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
		kdf, err := e2ee.DefaultKDFParams()
		if err != nil {
			testKeysError = err
			return
		}
		testPassKey, _, testKeysError = e2ee.NewPassphraseKey("ops laptop", []byte(testPassphrase), kdf)
		testPassKey.ID = uuid.NewString()
		// One client.Key for every passphrase decryption: it derives once.
		testPassOpen = client.Passphrase(testPassphrase)
	})
	if testKeysError != nil {
		t.Fatal(testKeysError)
	}
	return testRSA, testRSAPEM, testPassKey
}

func rsaPrivatePEM(t testing.TB, k *rsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// protectedPlain is what decrypting must give back: the plaintext's
// protected members and verification object.
func sameProtected(t *testing.T, decrypted, plain []byte) {
	t.Helper()
	d, p := decode(t, decrypted), decode(t, plain)
	for _, k := range []string{"request_id", "external_id", "verification", "license_data", "license_photo", "phone_verification"} {
		if !reflect.DeepEqual(d[k], p[k]) {
			t.Errorf("%s after decryption = %v, want %v", k, d[k], p[k])
		}
	}
}

func TestSealResultModes(t *testing.T) {
	priv, pubPEM, passKey := encryptionKeys(t)
	photo := headshot(t)
	collect := verifier.Settings{RequestedFields: []string{"first_names", "last_name", "dob", "document_number"},
		PhoneVerification: true, IncludeLicensePhoto: true}
	build := func(t *testing.T, s verifier.Settings) (verifier.Verification, verifier.Payload, []byte) {
		v := withSettings(t, s, "ref-1")
		o := goodOutcome(t)
		o.LicensePhoto = photo
		p, _, err := verifier.BuildResult(v, o, resultNow)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return v, p, plain
	}
	noPlaintext := func(t *testing.T, sealed []byte) {
		t.Helper()
		for _, s := range []string{holderFirst, holderLast, holderDOB, holderNumber, holderPhone, holderCaller, holderCarrier,
			base64.StdEncoding.EncodeToString(photo)[:40]} {
			if bytes.Contains(sealed, []byte(s)) {
				t.Errorf("sealed result holds %q in plain text", s)
			}
		}
	}

	t.Run("none", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode = e2ee.ModeNone
		v, p, plain := build(t, s)
		got, err := verifier.SealResult(context.Background(), nil, v, p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain) {
			t.Errorf("mode none changed the payload:\n%s\nwant\n%s", got, plain)
		}
		if _, err := client.Decrypt(got, testPassOpen); !errors.Is(err, client.ErrNotEncrypted) {
			t.Errorf("Decrypt of a none result: %v, want ErrNotEncrypted", err)
		}
	})

	t.Run("custom", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode, s.EncryptionKey, s.EncryptionKeyName = e2ee.ModeCustom, pubPEM, "finance team key"
		v, p, plain := build(t, s)
		sealed, err := verifier.SealResult(context.Background(), nil, v, p)
		if err != nil {
			t.Fatal(err)
		}
		noPlaintext(t, sealed)
		m := decode(t, sealed)
		fp, err := e2ee.FingerprintSHA256(&priv.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"name": "finance team key", "fingerprint_ssh": e2ee.FingerprintSSH(&priv.PublicKey), "fingerprint_sha256": fp}
		if !reflect.DeepEqual(m["encryption_key"], want) {
			t.Errorf("encryption_key = %v, want %v", m["encryption_key"], want)
		}
		if enc := m["encryption"].(map[string]any); enc["mode"] != "custom" || enc["key_alg"] != e2ee.AlgWrapRSA {
			t.Errorf("encryption = %v", enc)
		}
		if !reflect.DeepEqual(m["verification"], decode(t, plain)["verification"]) {
			t.Error("the verification object must stay plaintext")
		}
		key, err := client.PrivateKey(rsaPrivatePEM(t, priv))
		if err != nil {
			t.Fatal(err)
		}
		opened, err := client.Decrypt(sealed, key)
		if err != nil {
			t.Fatal(err)
		}
		sameProtected(t, opened, plain)
	})

	t.Run("custom without a name", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode, s.EncryptionKey = e2ee.ModeCustom, pubPEM
		v, p, _ := build(t, s)
		sealed, err := verifier.SealResult(context.Background(), nil, v, p)
		if err != nil {
			t.Fatal(err)
		}
		if name := decode(t, sealed)["encryption_key"].(map[string]any)["name"]; name != verifier.DefaultCustomKeyName {
			t.Errorf("encryption_key.name = %v, want %q", name, verifier.DefaultCustomKeyName)
		}
	})

	t.Run("custom key that no longer parses", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode, s.EncryptionKey = e2ee.ModeCustom, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
		v, p, _ := build(t, s)
		if _, err := verifier.SealResult(context.Background(), nil, v, p); !errors.Is(err, verifier.ErrEncryptionKeyUnavailable) {
			t.Fatalf("err = %v, want ErrEncryptionKeyUnavailable", err)
		}
	})

	t.Run("passphrase from the copy in the settings", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode, s.EncryptionKey, s.PassphraseKey = e2ee.ModePassphrase, passKey.ID, &passKey
		v, p, plain := build(t, s)
		// No key store: the copy made at creation is enough.
		sealed, err := verifier.SealResult(context.Background(), nil, v, p)
		if err != nil {
			t.Fatal(err)
		}
		noPlaintext(t, sealed)
		ek := decode(t, sealed)["encryption_key"].(map[string]any)
		if ek["id"] != passKey.ID || ek["name"] != "ops laptop" || ek["ephemeral_public_key"] == nil || ek["kdf"] == nil {
			t.Errorf("encryption_key = %v", ek)
		}
		opened, err := client.Decrypt(sealed, testPassOpen)
		if err != nil {
			t.Fatal(err)
		}
		sameProtected(t, opened, plain)
		if _, err := client.Decrypt(sealed, client.Passphrase("not the passphrase at all")); !errors.Is(err, client.ErrWrongPassphrase) {
			t.Errorf("wrong passphrase: %v, want ErrWrongPassphrase", err)
		}
	})

	t.Run("passphrase looked up in the account's keys", func(t *testing.T) {
		st, _ := openSQLiteStore(t)
		acct := newAccount(t, st)
		rec, err := verifier.PassphraseKeys{Store: st, Now: func() time.Time { return resultNow }}.Create(context.Background(), acct, passKey)
		if err != nil {
			t.Fatal(err)
		}
		s := collect
		s.EncryptionKeyMode, s.EncryptionKey = e2ee.ModePassphrase, rec.Key.ID
		v, p, plain := build(t, s)
		v.AccountID = acct
		sealed, err := verifier.SealResult(context.Background(), st, v, p)
		if err != nil {
			t.Fatal(err)
		}
		opened, err := client.Decrypt(sealed, testPassOpen)
		if err != nil {
			t.Fatal(err)
		}
		sameProtected(t, opened, plain)

		v.AccountID = newAccount(t, st) // another account's key is not found
		if _, err := verifier.SealResult(context.Background(), st, v, p); !errors.Is(err, verifier.ErrEncryptionKeyUnavailable) {
			t.Fatalf("err = %v, want ErrEncryptionKeyUnavailable", err)
		}
	})

	t.Run("shared (legacy): placeholders", func(t *testing.T) {
		s := collect
		s.EncryptionKeyMode = e2ee.ModeShared
		v, p, plain := build(t, s)
		sealed, err := verifier.SealResult(context.Background(), nil, v, p)
		if err != nil {
			t.Fatal(err)
		}
		noPlaintext(t, sealed)
		m, pm := decode(t, sealed), decode(t, plain)
		if m["license_data"] != e2ee.SharedPlaceholder || m["license_photo"] != e2ee.SharedPlaceholder {
			t.Errorf("license_data = %v, license_photo = %v: want the placeholder", m["license_data"], m["license_photo"])
		}
		phone := m["phone_verification"].(map[string]any)
		if phone["lookup"] != e2ee.SharedPlaceholder || phone["phone_areacode"] != holderAreaCode {
			t.Errorf("phone_verification = %v", phone)
		}
		if _, ok := m["encryption"]; ok {
			t.Error("shared results carry no encryption object")
		}
		if !reflect.DeepEqual(m["verification"], pm["verification"]) || m["external_id"] != "ref-1" {
			t.Error("shared mode must leave the non-personal members alone")
		}
	})

	t.Run("no mode stored", func(t *testing.T) {
		v, p, _ := build(t, collect)
		if _, err := verifier.SealResult(context.Background(), nil, v, p); !errors.Is(err, verifier.ErrEncryptionKeyUnavailable) {
			t.Fatalf("err = %v, want ErrEncryptionKeyUnavailable", err)
		}
	})
}

// newAccount stores a fresh account and returns its ID.
func newAccount(t testing.TB, st verifier.Store) string {
	t.Helper()
	id := uuid.NewString()
	a := verifier.Account{ID: id, Email: strings.ToLower(id) + "@example.test", PasswordHash: "unused",
		CreatedAt: resultNow, UpdatedAt: resultNow}
	if err := st.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOutcomeAndPayloadLogRedacted: logging the flow's outcome or the
// plaintext payload, even at debug level, writes none of the personal
// values, but does write the verdicts.
func TestOutcomeAndPayloadLogRedacted(t *testing.T) {
	photo := headshot(t)
	o := goodOutcome(t)
	o.LicensePhoto = photo
	v := withSettings(t, verifier.Settings{RequestedFields: []string{"first_names", "last_name", "dob", "document_number",
		"address_line1", "address_city"}, PhoneVerification: true, IncludeLicensePhoto: true, EncryptionKeyMode: e2ee.ModeNone}, "")
	p, _, err := verifier.BuildResult(v, o, resultNow)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	log.Debug("flow finished", "outcome", o, "payload", p)
	log.Debug("flow finished", slog.Any("outcome", &o))
	for _, n := range personalNeedles(photo) {
		if n.in(buf.Bytes()) {
			t.Errorf("log holds %s:\n%s", n.name, buf.Bytes())
		}
	}
	for _, want := range []string{`"face_match_score":"definite_match"`, `"request_id":"` + v.ID + `"`, `"license_photo_bytes":` + strconv.Itoa(len(photo)),
		`"license_data_fields":["address_city","address_line1","dob","document_number","first_names","last_name"]`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, buf.Bytes())
		}
	}
}

// TestResultsMeetRulesets: the storefront's rulesets read our payloads
// (sealed or not) as intended: the verification object is never encrypted.
func TestResultsMeetRulesets(t *testing.T) {
	_, pubPEM, _ := encryptionKeys(t)
	strict := rulesets.Ruleset{RequireAuthentic: true, MinFaceMatch: rulesets.TierLikelyMatch, RequireOver21: true}
	toReview := func(o *verifier.Outcome) {
		o.FaceMatch, o.ReviewRequested = match.Result{Tier: match.PossibleMatch, Confidence: 0.6, Cosine: 0.4}, true
	}
	tests := []struct {
		name    string
		edit    func(o *verifier.Outcome)
		verdict *bool // a reviewer's decision, applied as DecideReview does
		want    []rulesets.Code
	}{
		{"everything passes", nil, nil, nil},
		{"inconclusive, sent to review", toReview, nil, []rulesets.Code{rulesets.CodeFaceMatchUndetermined}},
		{"reviewed and approved", toReview, ptr(true), nil},
		{"reviewed and rejected", toReview, ptr(false), []rulesets.Code{rulesets.CodeFaceMatchRejected}},
		{"expired and under 21", func(o *verifier.Outcome) {
			o.License = testLicense(t, license.Date{Year: 2007, Month: 1, Day: 1}, license.Date{Year: 2026, Month: 1, Day: 1})
		}, nil, []rulesets.Code{rulesets.CodeLicenseExpired, rulesets.CodeUnder21}},
		{"not live, document doubtful", func(o *verifier.Outcome) { o.Live, o.Document.BarcodeValid = false, false },
			nil, []rulesets.Code{rulesets.CodeLicenseNotAuthentic, rulesets.CodeSelfieNotLive}},
		// No face match was made: the rule that needs its tier fails closed.
		{"every liveness attempt failed", exhausted, nil, []rulesets.Code{rulesets.CodeSelfieNotLive, rulesets.CodeFieldMissing}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := goodOutcome(t)
			if tc.edit != nil {
				tc.edit(&o)
			}
			v := withSettings(t, verifier.Settings{RequestedFields: []string{"dob"}, EncryptionKeyMode: e2ee.ModeCustom,
				EncryptionKey: pubPEM}, "")
			p, _, err := verifier.BuildResult(v, o, resultNow)
			if err != nil {
				t.Fatal(err)
			}
			sealed, err := verifier.SealResult(context.Background(), nil, v, p)
			if err != nil {
				t.Fatal(err)
			}
			if tc.verdict != nil {
				if sealed, err = verifier.SetFaceVerdict(sealed, *tc.verdict); err != nil {
					t.Fatal(err)
				}
			}
			d := strict.Evaluate(sealed)
			var got []rulesets.Code
			for _, r := range d.Reasons {
				got = append(got, r.Code)
			}
			if !reflect.DeepEqual(got, tc.want) || d.Pass != (len(tc.want) == 0) {
				t.Errorf("decision %+v, want reasons %v", d, tc.want)
			}
		})
	}
}

// address_verification: present only when requested and the check ran;
// the name members are null when the provider does not match names.
func TestBuildResultAddressVerification(t *testing.T) {
	o := goodOutcome(t)
	o.Address = &verifier.AddressVerification{Deliverable: true}
	for _, c := range []struct {
		requested bool
		address   *verifier.AddressVerification
		want      string
	}{
		{true, &verifier.AddressVerification{Deliverable: true}, `{"address_deliverable":true,"name_at_address":null,"last_name_at_address":null}`},
		{true, &verifier.AddressVerification{NameAtAddress: ptr(false), LastNameAtAddress: ptr(true)}, `{"address_deliverable":false,"name_at_address":false,"last_name_at_address":true}`},
		{true, nil, ""},
		{false, &verifier.AddressVerification{Deliverable: true}, ""},
	} {
		v := withSettings(t, verifier.Settings{EncryptionKeyMode: e2ee.ModeNone, AddressVerification: c.requested}, "")
		o.Address = c.address
		p, _, err := verifier.BuildResult(v, o, resultNow)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		got := decode(t, raw)["address_verification"]
		if c.want == "" {
			if got != nil {
				t.Errorf("requested %v, check %+v: address_verification %v, want absent", c.requested, c.address, got)
			}
			continue
		}
		b, _ := json.Marshal(got)
		var want any
		_ = json.Unmarshal([]byte(c.want), &want)
		w, _ := json.Marshal(want)
		if string(b) != string(w) {
			t.Errorf("address_verification %s, want %s", b, w)
		}
	}
}
