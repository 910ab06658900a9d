package rulesets

import (
	"bytes"
	"encoding/json"
)

// Code is a stable, machine-readable reason a verification did not pass. The
// values are stored in metafields and shown to widgets: never rename one.
type Code string

// Reason codes. Field names the verification member the reason is about
// (empty for the codes about the whole payload or the ruleset).
const (
	// The payload is not a JSON object or has no `verification` object.
	CodeResultMalformed Code = "result_malformed"
	// The ruleset itself is invalid (see Ruleset.Validate).
	CodeRulesetInvalid Code = "ruleset_invalid"
	// A member an enabled rule reads is absent.
	CodeFieldMissing Code = "field_missing"
	// A member an enabled rule reads has the wrong type or an unknown value.
	CodeFieldInvalid Code = "field_invalid"

	CodeLicenseNotAuthentic   Code = "license_not_authentic"
	CodeLicenseExpired        Code = "license_expired"
	CodeSelfieNotLive         Code = "selfie_not_live"
	CodeFaceMatchUndetermined Code = "face_match_undetermined"
	CodeFaceMatchBelowMinimum Code = "face_match_below_minimum"
	// CodeFaceMatchRejected: a person reviewed an inconclusive match and
	// decided the faces differ.
	CodeFaceMatchRejected Code = "face_match_rejected"
	CodeUnder18           Code = "under_18"
	CodeUnder21           Code = "under_21"
)

// Verification member names, as the interface spec writes them.
const (
	fieldLicenseReal  = "license_appears_real"
	fieldExpired      = "license_expired"
	fieldLive         = "webcam_appears_live"
	fieldFaceMatches  = "webcam_face_matches_license_photo"
	fieldFaceScore    = "face_match_score"
	fieldManualReview = "manual_review_requested"
	fieldOver18       = "over_18"
	fieldOver21       = "over_21"
)

// Reason is one failed check.
type Reason struct {
	Code  Code   `json:"code"`
	Field string `json:"field,omitempty"`
}

// Decision is the outcome of evaluating one result. Pass is true exactly when
// Reasons is empty; Reasons lists every failed check in rule order.
type Decision struct {
	Pass    bool     `json:"pass"`
	Reasons []Reason `json:"reasons"`
}

// Evaluate decides whether a verification result passes the ruleset. result
// is the result payload of the API document, verifier/openapi (the webhook body, or `result` of GET
// /verification); only its `verification` object is read.
//
// It fails closed: a member an enabled rule needs that is absent, null, of
// the wrong type or has a value the API document does not define fails with
// field_missing or field_invalid. Members no enabled rule reads are ignored,
// including ones the verifier may add later, so that a new indicator never
// fails every store. It never panics, whatever the input.
func (r Ruleset) Evaluate(result []byte) Decision {
	if err := r.Validate(); err != nil {
		return decide([]Reason{{Code: CodeRulesetInvalid}})
	}
	v, ok := verificationOf(result)
	if !ok {
		return decide([]Reason{{Code: CodeResultMalformed}})
	}
	return decide(r.evaluate(v))
}

// evaluate applies the enabled rules to a parsed verification object.
func (r Ruleset) evaluate(v map[string]json.RawMessage) []Reason {
	var reasons []Reason
	if r.RequireAuthentic {
		reasons = requireBool(reasons, v, fieldLicenseReal, true, CodeLicenseNotAuthentic)
		reasons = requireBool(reasons, v, fieldExpired, false, CodeLicenseExpired)
		reasons = requireBool(reasons, v, fieldLive, true, CodeSelfieNotLive)
	}
	if r.MinFaceMatch != TierNone {
		reasons = r.faceMatch(reasons, v)
	}
	if r.RequireOver18 {
		reasons = requireBool(reasons, v, fieldOver18, true, CodeUnder18)
	}
	if r.RequireOver21 {
		reasons = requireBool(reasons, v, fieldOver21, true, CodeUnder21)
	}
	return reasons
}

// faceMatch checks the tier. face_match_score decides (the API document says to base
// business logic on it); the verifier's boolean must be well formed and its
// `undetermined` value (an inconclusive match awaiting review) never passes.
// When manual_review_requested is true a person compared the images after an
// inconclusive match, and their verdict, the boolean, replaces the score:
// true passes, false fails with face_match_rejected. That member is optional
// and absent means false.
func (r Ruleset) faceMatch(reasons []Reason, v map[string]json.RawMessage) []Reason {
	verdict, present := member(v, fieldFaceMatches)
	switch {
	case !present:
		reasons = append(reasons, Reason{CodeFieldMissing, fieldFaceMatches})
	case verdict == "undetermined":
		reasons = append(reasons, Reason{CodeFaceMatchUndetermined, fieldFaceMatches})
	case verdict != true && verdict != false:
		reasons = append(reasons, Reason{CodeFieldInvalid, fieldFaceMatches})
	}

	if val, present := member(v, fieldManualReview); present {
		switch val {
		case true:
			if verdict == false {
				reasons = append(reasons, Reason{CodeFaceMatchRejected, fieldFaceMatches})
			}
			return reasons
		case false:
		default:
			reasons = append(reasons, Reason{CodeFieldInvalid, fieldManualReview})
		}
	}

	val, present := member(v, fieldFaceScore)
	if !present {
		return append(reasons, Reason{CodeFieldMissing, fieldFaceScore})
	}
	score, isString := val.(string)
	rank, known := scoreRank[score]
	if !isString || !known {
		return append(reasons, Reason{CodeFieldInvalid, fieldFaceScore})
	}
	if rank < scoreRank[string(r.MinFaceMatch)] {
		reasons = append(reasons, Reason{CodeFaceMatchBelowMinimum, fieldFaceScore})
	}
	return reasons
}

// requireBool appends failCode unless member name is the boolean want. A
// missing member or a non-boolean (null included) fails closed.
func requireBool(reasons []Reason, v map[string]json.RawMessage, name string, want bool, failCode Code) []Reason {
	val, present := member(v, name)
	if !present {
		return append(reasons, Reason{CodeFieldMissing, name})
	}
	got, isBool := val.(bool)
	switch {
	case !isBool:
		return append(reasons, Reason{CodeFieldInvalid, name})
	case got != want:
		return append(reasons, Reason{failCode, name})
	}
	return reasons
}

// member decodes one member. An undecodable value comes back as a value no
// rule accepts (nil), so it is reported as invalid rather than missing.
func member(v map[string]json.RawMessage, name string) (any, bool) {
	raw, ok := v[name]
	if !ok {
		return nil, false
	}
	var val any
	if err := json.Unmarshal(raw, &val); err != nil {
		return nil, true
	}
	return val, true
}

// verificationOf returns the members of result's `verification` object, or
// false when result is not an object or that member is not an object.
func verificationOf(result []byte) (map[string]json.RawMessage, bool) {
	var payload map[string]json.RawMessage
	if !isObject(result) || json.Unmarshal(result, &payload) != nil {
		return nil, false
	}
	raw, ok := payload["verification"]
	if !ok || !isObject(raw) {
		return nil, false
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	return v, true
}

// isObject guards against `null`, which json.Unmarshal turns into a nil map
// without an error.
func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}

func decide(reasons []Reason) Decision {
	if reasons == nil {
		reasons = []Reason{}
	}
	return Decision{Pass: len(reasons) == 0, Reasons: reasons}
}
