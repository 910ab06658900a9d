package rulesets

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseDefaults(t *testing.T) {
	r, err := Parse([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Ruleset{RequireAuthentic: true, MinFaceMatch: TierLikelyMatch}
	if r != want || Default() != want {
		t.Fatalf("Parse({}) = %+v, Default() = %+v, want %+v", r, Default(), want)
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want Ruleset
	}{
		{`{"min_face_match": null}`, Ruleset{RequireAuthentic: true}},
		{`{"min_face_match": "definite_match", "require_over_21": true}`, Ruleset{RequireAuthentic: true, MinFaceMatch: TierDefiniteMatch, RequireOver21: true}},
		{`{"require_authentic": false, "min_face_match": null, "require_over_18": true}`, Ruleset{RequireOver18: true}},
		{` {"min_face_match": "possible_match"} `, Ruleset{RequireAuthentic: true, MinFaceMatch: TierPossibleMatch}},
	}
	for _, c := range cases {
		got, err := Parse([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		``, `null`, `[]`, `{"min_face_match": "no_match"}`, `{"min_face_match": "likely"}`, `{"min_face_match": ""}`,
		`{"min_face_match": 2}`, `{"require_over18": true}`, `{"require_authentic": "yes"}`,
		`{"require_authentic": false, "min_face_match": null}`, `{} {}`, `{}}`,
	} {
		r, err := Parse([]byte(in))
		if !errors.Is(err, ErrInvalidRuleset) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrInvalidRuleset", in, r, err)
		}
	}
}

func TestRulesetJSONRoundTrip(t *testing.T) {
	for _, r := range allRulesets() {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(b)
		if err != nil || got != r {
			t.Errorf("round trip of %+v via %s: %+v, %v", r, b, got, err)
		}
	}
	b, _ := json.Marshal(Ruleset{RequireOver18: true})
	if string(b) != `{"require_authentic":false,"min_face_match":null,"require_over_18":true,"require_over_21":false}` {
		t.Errorf("stored form = %s", b)
	}
}
