package rulesets

import (
	"encoding/json"
	"reflect"
	"testing"
)

// state is how one verification member appears in a test payload.
type state int

const (
	absent state = iota
	isTrue
	isFalse
	undetermined // only for webcam_face_matches_license_photo
)

// value renders s for member name; ok is false when s means "leave it out".
func (s state) value(name string) (any, bool) {
	switch s {
	case isTrue:
		return true, true
	case isFalse:
		return false, true
	case undetermined:
		return "undetermined", true
	}
	return nil, false
}

var (
	// Wrongly typed values are crossed separately (TestEvaluateInvalidMembers)
	// to keep this table to a few seconds.
	boolStates = []state{absent, isTrue, isFalse}
	faceStates = []state{absent, isTrue, isFalse, undetermined}
	// Scores: the four the API document defines, absent, and one it does not.
	scores = []string{"definite_match", "likely_match", "possible_match", "no_match", "", "great_match"}
)

// expectBool is the specification of a boolean rule, written as a table: what each
// state of the member yields when the rule needs want.
func expectBool(s state, name string, want bool, fail Code) []Reason {
	switch {
	case s == absent:
		return []Reason{{CodeFieldMissing, name}}
	case (s == isTrue) != want:
		return []Reason{{fail, name}}
	}
	return nil
}

// tierMinimum lists, for each tier, the scores that meet it.
var tierMeets = map[Tier]map[string]bool{
	TierDefiniteMatch: {"definite_match": true},
	TierLikelyMatch:   {"definite_match": true, "likely_match": true},
	TierPossibleMatch: {"definite_match": true, "likely_match": true, "possible_match": true},
}

type payload struct {
	real, expired, live, over18, over21, manual state
	face                                        state
	score                                       string
}

func (p payload) json(t *testing.T) []byte {
	t.Helper()
	v := map[string]any{}
	for name, s := range map[string]state{
		fieldLicenseReal: p.real, fieldExpired: p.expired, fieldLive: p.live,
		fieldOver18: p.over18, fieldOver21: p.over21, fieldManualReview: p.manual,
		fieldFaceMatches: p.face,
	} {
		if val, ok := s.value(name); ok {
			v[name] = val
		}
	}
	if p.score != "" {
		v[fieldFaceScore] = p.score
	}
	// Members no rule reads must never change the decision.
	v["face_match_confidence"] = 0.91
	v["is_proxy"] = true
	b, err := json.Marshal(map[string]any{"request_id": "3f1c", "verification": v, "license_data": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expected is the decision spec, independent of the implementation's
// structure: the reasons of each enabled rule, in rule order.
func expected(r Ruleset, p payload) []Reason {
	var want []Reason
	if r.RequireAuthentic {
		want = append(want, expectBool(p.real, fieldLicenseReal, true, CodeLicenseNotAuthentic)...)
		want = append(want, expectBool(p.expired, fieldExpired, false, CodeLicenseExpired)...)
		want = append(want, expectBool(p.live, fieldLive, true, CodeSelfieNotLive)...)
	}
	if r.MinFaceMatch != TierNone {
		switch p.face {
		case absent:
			want = append(want, Reason{CodeFieldMissing, fieldFaceMatches})
		case undetermined:
			want = append(want, Reason{CodeFaceMatchUndetermined, fieldFaceMatches})
		}
		switch {
		case p.manual == isTrue:
			// Reviewed: the person's verdict replaces the score.
			if p.face == isFalse {
				want = append(want, Reason{CodeFaceMatchRejected, fieldFaceMatches})
			}
		case p.score == "":
			want = append(want, Reason{CodeFieldMissing, fieldFaceScore})
		case p.score == "great_match":
			want = append(want, Reason{CodeFieldInvalid, fieldFaceScore})
		case !tierMeets[r.MinFaceMatch][p.score]:
			want = append(want, Reason{CodeFaceMatchBelowMinimum, fieldFaceScore})
		}
	}
	if r.RequireOver18 {
		want = append(want, expectBool(p.over18, fieldOver18, true, CodeUnder18)...)
	}
	if r.RequireOver21 {
		want = append(want, expectBool(p.over21, fieldOver21, true, CodeUnder21)...)
	}
	if want == nil {
		want = []Reason{}
	}
	return want
}

// allRulesets is every combination of the four settings that validates.
func allRulesets() []Ruleset {
	var out []Ruleset
	for _, auth := range []bool{false, true} {
		for _, tier := range []Tier{TierNone, TierDefiniteMatch, TierLikelyMatch, TierPossibleMatch} {
			for _, o18 := range []bool{false, true} {
				for _, o21 := range []bool{false, true} {
					r := Ruleset{RequireAuthentic: auth, MinFaceMatch: tier, RequireOver18: o18, RequireOver21: o21}
					if r.Validate() == nil {
						out = append(out, r)
					}
				}
			}
		}
	}
	return out
}

// TestEvaluateEveryCombination crosses every valid ruleset with every state
// of every member a rule reads: 31 rulesets x 3^6 x 4 x 6 payloads. Each
// payload goes once through Evaluate (with parsing) and is then evaluated
// pre-parsed by every ruleset, which keeps half a million decisions fast.
func TestEvaluateEveryCombination(t *testing.T) {
	rulesets := allRulesets()
	if len(rulesets) != 31 {
		t.Fatalf("valid rulesets = %d, want 31 (32 combinations minus all-off)", len(rulesets))
	}
	checked, passed := 0, 0
	for _, real := range boolStates {
		for _, expired := range boolStates {
			for _, live := range boolStates {
				for _, o18 := range boolStates {
					for _, o21 := range boolStates {
						for _, manual := range boolStates {
							for _, face := range faceStates {
								for _, score := range scores {
									p := payload{real, expired, live, o18, o21, manual, face, score}
									body := p.json(t)
									r := rulesets[checked%len(rulesets)]
									if got, want := r.Evaluate(body), expected(r, p); !reflect.DeepEqual(got.Reasons, want) || got.Pass != (len(want) == 0) {
										t.Fatalf("ruleset %+v, payload %s:\n got %+v\nwant %+v", r, body, got, want)
									}
									v, ok := verificationOf(body)
									if !ok {
										t.Fatalf("payload %s not parsed", body)
									}
									for _, r := range rulesets {
										got := decide(r.evaluate(v))
										want := expected(r, p)
										if !reflect.DeepEqual(got.Reasons, want) || got.Pass != (len(want) == 0) {
											t.Fatalf("ruleset %+v, payload %s:\n got %+v\nwant %+v", r, body, got, want)
										}
										checked++
										if got.Pass {
											passed++
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	// Guard the oracle itself: both outcomes must occur in the table.
	if passed == 0 || passed == checked {
		t.Fatalf("degenerate table: %d of %d passed", passed, checked)
	}
	t.Logf("%d evaluations, %d passed", checked, passed)
}

// passing is a verification every ruleset accepts.
func passing() map[string]any {
	return map[string]any{
		fieldLicenseReal: true, fieldExpired: false, fieldLive: true,
		fieldFaceMatches: true, fieldFaceScore: "definite_match", fieldManualReview: false,
		fieldOver18: true, fieldOver21: true,
	}
}

// reads reports whether ruleset r reads member name.
func reads(r Ruleset, name string) bool {
	switch name {
	case fieldLicenseReal, fieldExpired, fieldLive:
		return r.RequireAuthentic
	case fieldFaceMatches, fieldFaceScore, fieldManualReview:
		return r.MinFaceMatch != TierNone
	case fieldOver18:
		return r.RequireOver18
	case fieldOver21:
		return r.RequireOver21
	}
	return false
}

// TestEvaluateInvalidMembers sets each member, one at a time, to every badly
// typed or unknown value: field_invalid exactly when an enabled rule reads it.
func TestEvaluateInvalidMembers(t *testing.T) {
	bad := []any{nil, "true", "false", "yes", 1, 0, 1.5, map[string]any{}, []any{true}, ""}
	badScore := []any{nil, true, 3, "DEFINITE_MATCH", "great_match", "", []any{"definite_match"}, map[string]any{"v": 1}}
	for _, r := range allRulesets() {
		for name := range passing() {
			values := bad
			if name == fieldFaceScore {
				values = badScore
			}
			for _, val := range values {
				v := passing()
				v[name] = val
				body, err := json.Marshal(map[string]any{"verification": v})
				if err != nil {
					t.Fatal(err)
				}
				got := r.Evaluate(body)
				want := []Reason{}
				if reads(r, name) {
					want = []Reason{{CodeFieldInvalid, name}}
				}
				if !reflect.DeepEqual(got.Reasons, want) || got.Pass != (len(want) == 0) {
					t.Errorf("ruleset %+v, %s = %#v: got %+v, want %+v", r, name, val, got, want)
				}
			}
		}
	}
}

func TestEvaluateMalformedPayload(t *testing.T) {
	for _, body := range []string{
		``, `null`, `[]`, `"verification"`, `{`, `{"verification": null}`, `{"verification": []}`,
		`{"verification": "{}"}`, `{"request_id": "x"}`, `{"Verification": {}}`, `{"verification": {"over_18": tru}}`,
	} {
		got := Default().Evaluate([]byte(body))
		want := Decision{Pass: false, Reasons: []Reason{{Code: CodeResultMalformed}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %+v, want %+v", body, got, want)
		}
	}
}

func TestEvaluateInvalidRulesetFailsClosed(t *testing.T) {
	body, _ := json.Marshal(map[string]any{"verification": passing()})
	want := Decision{Pass: false, Reasons: []Reason{{Code: CodeRulesetInvalid}}}
	for _, r := range []Ruleset{{}, {RequireAuthentic: true, MinFaceMatch: "no_match"}, {RequireAuthentic: true, MinFaceMatch: "anything"}} {
		if got := r.Evaluate(body); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: got %+v, want %+v", r, got, want)
		}
	}
}

// TestDecisionJSON pins the stored shape: reasons is an array, never null.
func TestDecisionJSON(t *testing.T) {
	body, _ := json.Marshal(map[string]any{"verification": passing()})
	b, err := json.Marshal(Default().Evaluate(body))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"pass":true,"reasons":[]}` {
		t.Errorf("passing decision = %s", b)
	}
	v := passing()
	v[fieldOver21] = false
	body, _ = json.Marshal(map[string]any{"verification": v})
	b, _ = json.Marshal(Ruleset{RequireOver21: true}.Evaluate(body))
	if string(b) != `{"pass":false,"reasons":[{"code":"under_21","field":"over_21"}]}` {
		t.Errorf("failing decision = %s", b)
	}
}

// knownCodes is every Code the package defines.
var knownCodes = map[Code]bool{
	CodeResultMalformed: true, CodeRulesetInvalid: true, CodeFieldMissing: true, CodeFieldInvalid: true,
	CodeLicenseNotAuthentic: true, CodeLicenseExpired: true, CodeSelfieNotLive: true,
	CodeFaceMatchUndetermined: true, CodeFaceMatchBelowMinimum: true, CodeFaceMatchRejected: true, CodeUnder18: true, CodeUnder21: true,
}

// FuzzEvaluate: any bytes under any ruleset give a consistent decision with
// known codes, and never panic.
func FuzzEvaluate(f *testing.F) {
	good, _ := json.Marshal(map[string]any{"verification": passing()})
	f.Add(good, uint8(0x0f))
	f.Add([]byte(`{"verification":{"webcam_face_matches_license_photo":"undetermined","face_match_score":"likely_match"}}`), uint8(0x06))
	f.Add([]byte(`{"verification":{"over_18":null,"over_21":[1,{"a":2}]}}`), uint8(0x18))
	f.Add([]byte(`null`), uint8(1))
	f.Add([]byte(`{"verification":{"face_match_score":{"definite_match":true}}}`), uint8(0xff))
	tiers := []Tier{TierNone, TierDefiniteMatch, TierLikelyMatch, TierPossibleMatch}
	f.Fuzz(func(t *testing.T, body []byte, flags uint8) {
		r := Ruleset{
			RequireAuthentic: flags&1 != 0,
			MinFaceMatch:     tiers[(flags>>1)&3],
			RequireOver18:    flags&8 != 0,
			RequireOver21:    flags&16 != 0,
		}
		d := r.Evaluate(body)
		if d.Reasons == nil || d.Pass != (len(d.Reasons) == 0) {
			t.Fatalf("inconsistent decision %+v", d)
		}
		for _, reason := range d.Reasons {
			if !knownCodes[reason.Code] {
				t.Fatalf("unknown code %q", reason.Code)
			}
		}
		if !reflect.DeepEqual(d, r.Evaluate(body)) {
			t.Fatal("Evaluate is not deterministic")
		}
	})
}
