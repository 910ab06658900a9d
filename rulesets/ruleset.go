package rulesets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrInvalidRuleset is wrapped by every validation and decoding failure so
// callers (CLI, config loader, HTTP) can map it to a 4xx without parsing text.
var ErrInvalidRuleset = errors.New("invalid ruleset")

// Tier is a minimum face-match tier. TierNone ("") is the JSON null: no
// face-match requirement.
type Tier string

// Tiers from the strictest to the loosest, as named by face_match_score.
const (
	TierNone          Tier = ""
	TierDefiniteMatch Tier = "definite_match"
	TierLikelyMatch   Tier = "likely_match"
	TierPossibleMatch Tier = "possible_match"
)

// scoreRank orders every face_match_score value the API document defines; a higher
// rank is a stronger match. no_match is a known score that meets no tier.
var scoreRank = map[string]int{
	"definite_match": 3,
	"likely_match":   2,
	"possible_match": 1,
	"no_match":       0,
}

// Valid reports whether t is TierNone or one of the three tiers.
func (t Tier) Valid() bool {
	if t == TierNone {
		return true
	}
	rank, ok := scoreRank[string(t)]
	return ok && rank > 0
}

// MarshalJSON writes TierNone as null so the stored form matches the API document.
func (t Tier) MarshalJSON() ([]byte, error) {
	if t == TierNone {
		return []byte("null"), nil
	}
	return json.Marshal(string(t))
}

// UnmarshalJSON accepts null (TierNone) or a tier name; anything else is an
// error so a typo never silently weakens the rule.
func (t *Tier) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*t = TierNone
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("min_face_match: %w: want a tier name or null", ErrInvalidRuleset)
	}
	tier := Tier(s)
	if tier == TierNone || !tier.Valid() {
		return fmt.Errorf("min_face_match %q: %w: want definite_match, likely_match, possible_match or null", s, ErrInvalidRuleset)
	}
	*t = tier
	return nil
}

// Ruleset is one store's definition of a passing verification.
type Ruleset struct {
	RequireAuthentic bool `json:"require_authentic"`
	MinFaceMatch     Tier `json:"min_face_match"`
	RequireOver18    bool `json:"require_over_18"`
	RequireOver21    bool `json:"require_over_21"`
}

// Default is the ruleset a store gets when it configures nothing: a genuine,
// unexpired license, a live selfie and at least a likely face match. Age
// rules are opt-in because not every store sells age-restricted goods.
func Default() Ruleset {
	return Ruleset{RequireAuthentic: true, MinFaceMatch: TierLikelyMatch}
}

// Validate rejects an unknown tier and a ruleset that checks nothing: a store
// that turned every rule off would pass any completed verification, which is
// far more likely a configuration mistake than an intent.
func (r Ruleset) Validate() error {
	if !r.MinFaceMatch.Valid() {
		return fmt.Errorf("min_face_match %q: %w", r.MinFaceMatch, ErrInvalidRuleset)
	}
	if !r.RequireAuthentic && r.MinFaceMatch == TierNone && !r.RequireOver18 && !r.RequireOver21 {
		return fmt.Errorf("every rule is off: %w", ErrInvalidRuleset)
	}
	return nil
}

// Parse decodes a ruleset from JSON. Keys that are absent keep their
// defaults (so `{}` is Default()), unknown keys are refused (a misspelt rule
// must not silently fall back to a default), and the result is validated.
func Parse(data []byte) (Ruleset, error) {
	if !isObject(data) {
		return Ruleset{}, fmt.Errorf("parse ruleset: %w: want a JSON object", ErrInvalidRuleset)
	}
	r := Default()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		if errors.Is(err, ErrInvalidRuleset) {
			return Ruleset{}, fmt.Errorf("parse ruleset: %w", err)
		}
		return Ruleset{}, fmt.Errorf("parse ruleset: %w: %v", ErrInvalidRuleset, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Ruleset{}, fmt.Errorf("parse ruleset: %w: trailing data", ErrInvalidRuleset)
	}
	if err := r.Validate(); err != nil {
		return Ruleset{}, fmt.Errorf("parse ruleset: %w", err)
	}
	return r, nil
}
