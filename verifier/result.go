package verifier

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/idgate/idgate/verifier/e2ee"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
)

// ErrInvalidOutcome: the end-user flow handed Complete measurements that
// contradict each other or the API document's ranges (an unknown tier, a confidence
// outside 0..1, review requested on a conclusive match, a photo that is not
// a JPEG). It is a bug in the flow, never the end user's doing.
var ErrInvalidOutcome = errors.New("invalid verification outcome")

// Outcome is what the end-user flow measured: the typed engine outputs the
// result payload is built from. Personal data in it (License, Phone.Lookup,
// LicensePhoto) only ever leaves BuildResult inside the payload, which
// SealResult encrypts for passphrase and custom modes before anything is
// stored.
type Outcome struct {
	// License is the identity document as read (Document: for a driver's
	// license, the parsed barcode, engines.Scan / license.ParseAAMVA); nil
	// when it was never read (the result then says what a document that
	// carries nothing says).
	License  Document
	Document DocumentEvidence
	// DocumentType is the kind of document the end user was to show
	// (document_type); empty is DriversLicense, the one kind before the
	// end user could pick.
	DocumentType DocumentKind
	// FaceMatch compares the selfie with the license photo
	// (face.Analyzer.Compare).
	FaceMatch match.Result
	// ReviewRequested: after an inconclusive or failed match (possible_match
	// or no_match, ReviewOffered) the end user submitted the images for
	// human review.
	ReviewRequested bool
	// Live is the liveness decision (liveness.Result.Live).
	Live bool
	// LivenessExhausted: the end user used every judged liveness attempt
	// without passing one, so there is no live selfie and no face match
	// (FaceMatch is zero, Live and ReviewRequested false). The result says
	// webcam_appears_live false and webcam_face_matches_license_photo
	// false, and leaves face_match_score, face_match_confidence and
	// face_match_cosine_similarity out: no comparison was made.
	LivenessExhausted bool
	// IP is the connection's IP intelligence; nil when the check could not
	// run (no IP data installed, no usable IP recorded): ip_found and
	// is_proxy are then absent.
	IP *IPIntel
	// Location is location_consistency; nil when it could not run.
	Location *ipintel.Consistency
	// Phone is the phone check; nil when it could not run (no phone
	// provider configured), and then the member is absent even when
	// phone_verification was requested.
	Phone *PhoneVerification
	// Address is the address check; nil when it could not run (no address
	// provider, no address on the license, outside the provider's
	// coverage, the provider down).
	Address *AddressVerification
	// LicensePhoto is the cropped headshot from the license front, JPEG
	// bytes; nil when none could be cropped (then license_photo is absent).
	LicensePhoto []byte
	// FrontPrinted is what OCR read on the license front's personal-data
	// zone (engines, license/tesseract), compared with License for
	// front_barcode_match; nil when the option was not requested.
	FrontPrinted *license.Printed
}

// DocumentEvidence are the license_appears_real inputs.
type DocumentEvidence struct {
	// CardFound: card.AnalyzeFront found the card's edges in the front
	// photo and the corrected card was sharp enough (it returned no error).
	CardFound bool
	// ProportionsOK: the card's aspect ratio is ID-1 (card.Card.AspectOK).
	ProportionsOK bool
	// FacePresent: one dominant face was found on the corrected card
	// (face.Analyzer.Single on card.Card.Image succeeded).
	FacePresent bool
	// BarcodeValid: the back's PDF417 payload passed
	// license.ValidateStructure (a structurally sound AAMVA file).
	BarcodeValid bool
}

// AppearsReal is license_appears_real: every piece of evidence holds. One
// missing piece is enough to say no, since each is something every genuine
// ID-1 license has.
func (d DocumentEvidence) AppearsReal() bool {
	return d.CardFound && d.ProportionsOK && d.FacePresent && d.BarcodeValid
}

// IPIntel is what IP intelligence (verifier/ipintel) concluded about the
// connection. A proxy is not proof of fraud.
type IPIntel struct {
	Found bool // ip_found: the IP is in the data
	Proxy bool // is_proxy; requires Found
	// Type (proxy_type: tor or hosting) and Description are reported only
	// when Proxy is true.
	Type, Description string
}

// PhoneVerification is the result's phone_verification member. Lookup is
// a protected member (sealed in passphrase and custom modes); the other
// members are not personal enough to need it (area code, last three digits).
type PhoneVerification struct {
	AreaCode    string      `json:"phone_areacode"`
	Last3Digits string      `json:"last_3_digits"`
	Verified    bool        `json:"phone_verified"`
	LineType    string      `json:"line_type"`
	Lookup      PhoneLookup `json:"lookup"`
}

// AddressVerification is the result's address_verification member, the
// spec's three booleans: the license address is a deliverable postal
// address; the first and last name are on record at it; the last name
// alone matched (often a household member). The name members are null
// when no source matched names (Lob does not; a verified phone's
// subscriber record may: address.SubscriberMatch.Names).
type AddressVerification struct {
	Deliverable       bool  `json:"address_deliverable"`
	NameAtAddress     *bool `json:"name_at_address"`
	LastNameAtAddress *bool `json:"last_name_at_address"`
}

// PhoneLookup is phone_verification.lookup.
type PhoneLookup struct {
	PhoneNumber string `json:"phone_number"`
	CallerName  string `json:"caller_name"`
	CarrierName string `json:"carrier_name"`
}

// Payload is the result payload (webhook body and GET's `result`) before
// encryption. Member order is the API document's.
type Payload struct {
	RequestID  string `json:"request_id"`
	ExternalID string `json:"external_id,omitempty"`
	// Livemode is false in a test verification's result (mode.go), true
	// otherwise; always present, so a receiver can refuse test results by
	// testing one member.
	Livemode bool `json:"livemode"`
	// DocumentType is the kind of document the members below were read
	// from (docs/documents.md): always present, drivers_license unless
	// the verification accepted another kind and the end user picked it.
	DocumentType DocumentKind       `json:"document_type"`
	Verification ResultVerification `json:"verification"`
	// LicenseData is exactly the requested fields, each null when the
	// license does not carry it; {} when none were requested.
	LicenseData       map[string]any     `json:"license_data"`
	PhoneVerification *PhoneVerification `json:"phone_verification,omitempty"`
	// AddressVerification: only when requested and the check ran.
	AddressVerification *AddressVerification `json:"address_verification,omitempty"`
	// LocationConsistency is informational only (never changes the result).
	LocationConsistency *ipintel.Consistency `json:"location_consistency,omitempty"`
	// LicensePhoto is base64 (standard, padded) of the JPEG.
	LicensePhoto string `json:"license_photo,omitempty"`
}

// ResultVerification is the payload's `verification` object.
type ResultVerification struct {
	LicenseAppearsReal            bool        `json:"license_appears_real"`
	LicenseExpired                bool        `json:"license_expired"`
	Over21                        bool        `json:"over_21"`
	Over18                        bool        `json:"over_18"`
	WebcamAppearsLive             bool        `json:"webcam_appears_live"`
	WebcamFaceMatchesLicensePhoto FaceVerdict `json:"webcam_face_matches_license_photo"`
	// The face match's figures are absent (empty, nil) only when no
	// comparison was made: every liveness attempt failed
	// (Outcome.LivenessExhausted).
	FaceMatchScore            match.Tier `json:"face_match_score,omitempty"`
	FaceMatchConfidence       *float64   `json:"face_match_confidence,omitempty"`
	FaceMatchCosineSimilarity *float64   `json:"face_match_cosine_similarity,omitempty"`
	// IPFound and IsProxy are absent (nil) when the IP check could not run.
	IPFound          *bool  `json:"ip_found,omitempty"`
	IsProxy          *bool  `json:"is_proxy,omitempty"`
	ProxyType        string `json:"proxy_type,omitempty"`
	ProxyDescription string `json:"proxy_description,omitempty"`
	// ManualReviewRequested is present (and true) only when the end user
	// requested review; otherwise the member is absent.
	ManualReviewRequested bool `json:"manual_review_requested,omitempty"`
	// FrontBarcodeMatch is present only when front_barcode_match was
	// requested: the printed front against the barcode, outcomes only
	// (license.CompareFront; never the values read, so it needs no
	// sealing). It changes no other member.
	FrontBarcodeMatch *license.FrontMatch `json:"front_barcode_match,omitempty"`
}

// FaceVerdict is webcam_face_matches_license_photo: true, false or the
// string "undetermined".
type FaceVerdict string

// FaceVerdict values.
const (
	FaceMatches      FaceVerdict = "true"
	FaceDoesNotMatch FaceVerdict = "false"
	FaceUndetermined FaceVerdict = "undetermined"
)

// MarshalJSON writes the booleans as JSON booleans and undetermined as a
// string, as the API document has it.
func (f FaceVerdict) MarshalJSON() ([]byte, error) {
	switch f {
	case FaceMatches, FaceDoesNotMatch:
		return []byte(f), nil
	case FaceUndetermined:
		return []byte(`"undetermined"`), nil
	}
	return nil, fmt.Errorf("face verdict %q: %w", string(f), ErrInvalidOutcome)
}

// faceVerdict is the rule for webcam_face_matches_license_photo:
// definite_match and likely_match are true; possible_match (inconclusive)
// and no_match (failed) are undetermined when the end user requested
// manual review, which a human then decides, and false when they did not.
func faceVerdict(t match.Tier, reviewRequested bool) FaceVerdict {
	switch {
	case t == match.DefiniteMatch || t == match.LikelyMatch:
		return FaceMatches
	case reviewRequested:
		return FaceUndetermined
	}
	return FaceDoesNotMatch
}

// ReviewOffered reports whether the end user may ask for manual review
// after a match of tier t: when it was inconclusive or failed, never after
// a match (spec: "manual review after a failed face match").
func ReviewOffered(t match.Tier) bool { return t == match.PossibleMatch || t == match.NoMatch }

// Zones the age and expiry checks read the calendar day in. The result
// must hold wherever the customer is, so each check takes the day that is
// strictest for it: ages on the earliest calendar day on Earth (UTC−12),
// so nobody turns 18 or 21 early; expiry on the latest (UTC+14), so a
// license is never valid on a day it has expired somewhere.
var (
	ageZone    = time.FixedZone("UTC-12", -12*3600)
	expiryZone = time.FixedZone("UTC+14", 14*3600)
)

// scoreDecimals is the precision of face_match_confidence and
// face_match_cosine_similarity: supplementary figures, where more digits
// would only suggest an accuracy the model does not have.
const scoreDecimals = 4

// jpegMagic starts every JPEG file (SOI marker, then a marker's 0xFF).
var jpegMagic = []byte{0xFF, 0xD8, 0xFF}

// BuildResult builds the plaintext result payload of v from the flow's
// outcome at now, and the status the verification completes to:
// manual_review when the match was inconclusive or failed and the end user
// requested review, completed otherwise. Optional members follow
// v's settings: license_data is exactly the requested fields ({} when
// none), phone_verification only when phone verification was requested
// and the check ran, license_photo only when include_license_photo was
// requested and a headshot was cropped, location_consistency only when it
// was requested and ran; ip_found and is_proxy whenever the IP check ran.
// address_verification only when it was requested and the check ran (an
// indicator that could not run is absent, not false).
func BuildResult(v Verification, o Outcome, now time.Time) (Payload, Status, error) {
	s, err := ParseSettings(v.Options)
	if err != nil {
		return Payload{}, "", fmt.Errorf("build result: %w", err)
	}
	if err := o.check(); err != nil {
		return Payload{}, "", fmt.Errorf("build result: %w", err)
	}
	doc := o.License
	if doc == nil {
		doc = unread
	}
	ages, expiry := doc.Check(now.In(ageZone)), doc.Check(now.In(expiryZone))
	fm := o.FaceMatch
	kind := o.DocumentType
	if kind == "" {
		kind = DriversLicense
	}
	p := Payload{
		RequestID:    v.ID,
		ExternalID:   v.ExternalID,
		Livemode:     v.Mode.Livemode(),
		DocumentType: kind,
		Verification: ResultVerification{
			LicenseAppearsReal:            o.Document.AppearsReal(),
			LicenseExpired:                expiry.Expired,
			Over21:                        ages.Over21,
			Over18:                        ages.Over18,
			WebcamAppearsLive:             o.Live,
			WebcamFaceMatchesLicensePhoto: FaceDoesNotMatch,
			ManualReviewRequested:         o.ReviewRequested,
		},
	}
	if !o.LivenessExhausted {
		confidence, cosine := round(fm.Confidence, scoreDecimals), round(fm.Cosine, scoreDecimals)
		p.Verification.WebcamFaceMatchesLicensePhoto = faceVerdict(fm.Tier, o.ReviewRequested)
		p.Verification.FaceMatchScore = fm.Tier
		p.Verification.FaceMatchConfidence, p.Verification.FaceMatchCosineSimilarity = &confidence, &cosine
	}
	if ip := o.IP; ip != nil {
		p.Verification.IPFound, p.Verification.IsProxy = &ip.Found, &ip.Proxy
		if ip.Proxy {
			p.Verification.ProxyType, p.Verification.ProxyDescription = ip.Type, ip.Description
		}
	}
	if s.LocationConsistency && o.Location != nil {
		loc := *o.Location
		p.LocationConsistency = &loc
	}
	if p.LicenseData, err = doc.Fields(s.RequestedFields); err != nil {
		return Payload{}, "", fmt.Errorf("build result: %w", err)
	}
	if s.FrontBarcodeMatch {
		// A front never read (a session older than the option's
		// support) compares as nothing read: unreadable, never mismatch.
		var printed license.Printed
		if o.FrontPrinted != nil {
			printed = *o.FrontPrinted
		}
		m := doc.MatchFront(printed)
		p.Verification.FrontBarcodeMatch = &m
	}
	if s.PhoneVerification && o.Phone != nil {
		phone := *o.Phone
		p.PhoneVerification = &phone
	}
	if s.AddressVerification && o.Address != nil {
		addr := *o.Address
		p.AddressVerification = &addr
	}
	if s.IncludeLicensePhoto && o.LicensePhoto != nil {
		p.LicensePhoto = base64.StdEncoding.EncodeToString(o.LicensePhoto)
	}
	status := StatusCompleted
	if o.ReviewRequested {
		status = StatusManualReview
	}
	return p, status, nil
}

// check refuses outcomes no engine can produce.
func (o Outcome) check() error {
	if o.DocumentType != "" && !slices.Contains(DocumentKinds, o.DocumentType) {
		return fmt.Errorf("%w: document type %q", ErrInvalidOutcome, o.DocumentType)
	}
	fm := o.FaceMatch
	if o.LivenessExhausted {
		if fm != (match.Result{}) || o.Live || o.ReviewRequested {
			return fmt.Errorf("%w: a face match, a live selfie or review after every liveness attempt failed", ErrInvalidOutcome)
		}
		return o.checkIndicators()
	}
	switch fm.Tier {
	case match.DefiniteMatch, match.LikelyMatch, match.PossibleMatch, match.NoMatch:
	default:
		return fmt.Errorf("%w: face match tier %q", ErrInvalidOutcome, fm.Tier)
	}
	if !(fm.Confidence >= 0 && fm.Confidence <= 1) || !(fm.Cosine >= -1 && fm.Cosine <= 1) {
		return fmt.Errorf("%w: face match confidence %v or cosine %v out of range", ErrInvalidOutcome, fm.Confidence, fm.Cosine)
	}
	if o.ReviewRequested && !ReviewOffered(fm.Tier) {
		return fmt.Errorf("%w: manual review is only offered after an inconclusive or failed match, not %s", ErrInvalidOutcome, fm.Tier)
	}
	return o.checkIndicators()
}

// checkIndicators refuses IP, address and photo members no engine can
// produce.
func (o Outcome) checkIndicators() error {
	if o.IP != nil && o.IP.Proxy && (!o.IP.Found || o.IP.Type == "") {
		return fmt.Errorf("%w: is_proxy without ip_found or proxy_type", ErrInvalidOutcome)
	}
	if a := o.Address; a != nil {
		if (a.NameAtAddress == nil) != (a.LastNameAtAddress == nil) {
			return fmt.Errorf("%w: address names checked for one member only", ErrInvalidOutcome)
		}
		if a.NameAtAddress != nil && *a.NameAtAddress && *a.LastNameAtAddress {
			return fmt.Errorf("%w: the full name and the last name alone both matched", ErrInvalidOutcome)
		}
	}
	if o.LicensePhoto != nil && !bytes.HasPrefix(o.LicensePhoto, jpegMagic) {
		return fmt.Errorf("%w: license photo is not a JPEG", ErrInvalidOutcome)
	}
	return nil
}

func round(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}

// Marshal is the payload's JSON text.
func (p Payload) Marshal() ([]byte, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	return b, nil
}

// ErrEncryptionKeyUnavailable: the verification's encryption key cannot be
// used to seal its result (a custom PEM that no longer parses, a
// passphrase key neither copied into the settings nor in the account, an
// unknown mode). Nothing is stored: sealing for the wrong key, or not at
// all, would lose or expose the data.
var ErrEncryptionKeyUnavailable = errors.New("encryption key unavailable")

// DefaultCustomKeyName is encryption_key.name in custom mode when the
// request gave no encryption_key_name.
const DefaultCustomKeyName = "custom key"

// SealResult turns the plaintext payload into the bytes that are stored,
// delivered by the webhook and returned by GET, by v's encryption mode:
//   - none: the plaintext (already filtered to requested_fields);
//   - custom: protected members sealed for the RSA key in the settings,
//     with encryption and encryption_key (name, fingerprints);
//   - passphrase: protected members sealed for the account's passphrase key
//     (the copy made at creation, else looked up in keys), with encryption
//     and encryption_key (the key's public part and the ephemeral key);
//   - shared (legacy, only verifications created before passphrase keys
//     carry it): every protected member present replaced by
//     e2ee.SharedPlaceholder. The data itself is not kept anywhere.
//
// The protected members are license_data, phone_verification.lookup and
// license_photo (docs/encryption.md). In passphrase and custom modes the
// returned bytes hold no plaintext personal data, and the plaintext is
// never written anywhere by this package.
func SealResult(ctx context.Context, keys Store, v Verification, p Payload) (json.RawMessage, error) {
	s, err := ParseSettings(v.Options)
	if err != nil {
		return nil, fmt.Errorf("seal result: %w", err)
	}
	plain, err := p.Marshal()
	if err != nil {
		return nil, fmt.Errorf("seal result: %w", err)
	}
	var out []byte
	switch s.EncryptionKeyMode {
	case e2ee.ModeNone:
		return plain, nil
	case e2ee.ModeShared:
		out, err = e2ee.ApplySharedPlaceholder(plain)
	case e2ee.ModeCustom, e2ee.ModePassphrase:
		var session *e2ee.Session
		if session, err = sealingSession(ctx, keys, v.AccountID, s); err == nil {
			out, err = session.SealPayload(plain)
		}
	default:
		err = fmt.Errorf("%w: encryption mode %q", ErrEncryptionKeyUnavailable, s.EncryptionKeyMode)
	}
	if err != nil {
		return nil, fmt.Errorf("seal result: %w", err)
	}
	return out, nil
}

// sealingSession opens a content key for the verification's custom or
// passphrase key.
func sealingSession(ctx context.Context, keys Store, accountID string, s Settings) (*e2ee.Session, error) {
	if s.EncryptionKeyMode == e2ee.ModeCustom {
		pub, err := e2ee.ParseRSAPublicKey([]byte(s.EncryptionKey))
		if err != nil {
			return nil, fmt.Errorf("%w: custom key: %w", ErrEncryptionKeyUnavailable, err)
		}
		name := s.EncryptionKeyName
		if name == "" {
			name = DefaultCustomKeyName
		}
		return e2ee.NewCustomSession(pub, name)
	}
	// The copy made at creation wins: the account may have deleted the key
	// since, and the end user must still be able to finish.
	if s.PassphraseKey != nil {
		return e2ee.NewPassphraseSession(*s.PassphraseKey)
	}
	k, err := keys.GetPassphraseKey(ctx, accountID, s.EncryptionKey)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: passphrase key %s not found", ErrEncryptionKeyUnavailable, s.EncryptionKey)
	}
	if err != nil {
		return nil, fmt.Errorf("passphrase key: %w", err)
	}
	return e2ee.NewPassphraseSession(k.Key)
}

// LogValue keeps personal data out of logs when an Outcome is logged: only
// the verdicts and whether each optional check ran.
func (o Outcome) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("document_type", string(o.DocumentType)),
		slog.String("face_match_score", string(o.FaceMatch.Tier)),
		slog.Float64("face_match_confidence", o.FaceMatch.Confidence),
		slog.Bool("review_requested", o.ReviewRequested),
		slog.Bool("live", o.Live),
		slog.Bool("liveness_exhausted", o.LivenessExhausted),
		slog.Bool("license_appears_real", o.Document.AppearsReal()),
		slog.Bool("ip_checked", o.IP != nil),
		slog.Bool("location_ran", o.Location != nil),
		slog.Bool("phone_ran", o.Phone != nil),
		slog.Int("license_photo_bytes", len(o.LicensePhoto)),
		slog.Bool("front_read", o.FrontPrinted != nil),
	)
}

// LogValue keeps personal data out of logs when a Payload is logged: the
// request, the face score and the names of the members present.
func (p Payload) LogValue() slog.Value {
	fields := make([]string, 0, len(p.LicenseData))
	for name := range p.LicenseData {
		fields = append(fields, name)
	}
	sort.Strings(fields)
	return slog.GroupValue(
		slog.String("request_id", p.RequestID),
		slog.String("document_type", string(p.DocumentType)),
		slog.String("face_match_score", string(p.Verification.FaceMatchScore)),
		slog.Any("license_data_fields", fields),
		slog.Bool("phone_verification", p.PhoneVerification != nil),
		slog.Bool("address_verification", p.AddressVerification != nil),
		slog.Bool("location_consistency", p.LocationConsistency != nil),
		slog.Bool("license_photo", p.LicensePhoto != ""),
	)
}
