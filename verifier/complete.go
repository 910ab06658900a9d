package verifier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/idgate/idgate/internal/problem"
)

// Complete ends the end-user flow of a started verification: it builds the
// result from the outcome (BuildResult), seals it by the verification's
// encryption mode (SealResult) and, in one store transaction, moves the
// verification to completed, or to manual_review when the match was
// inconclusive and the end user requested review, storing the sealed
// result and completed_at. The store enqueues the webhook in that same
// transaction with the same bytes, so the webhook and GET carry one
// document.
//
// Only a started verification whose link has not expired completes; any
// other state (a second Complete included) is an error wrapping
// ErrInvalidTransition (the API's 409) and changes nothing. An outcome the
// engines cannot produce is ErrInvalidOutcome; an unusable key
// ErrEncryptionKeyUnavailable.
func Complete(ctx context.Context, st Store, now time.Time, accountID, id string, o Outcome) (Verification, error) {
	now = now.UTC().Truncate(time.Microsecond)
	v, err := st.GetVerification(ctx, accountID, id)
	if err != nil {
		return Verification{}, fmt.Errorf("complete verification: %w", err)
	}
	// Checked before sealing too, so a repeated call costs no RSA or ECDH.
	if err := completable(v, now); err != nil {
		return Verification{}, fmt.Errorf("complete verification: %w", err)
	}
	payload, to, err := BuildResult(v, o, now)
	if err != nil {
		return Verification{}, fmt.Errorf("complete verification: %w", err)
	}
	// Sealing happens outside the transaction: the updater must not call
	// the store (the passphrase key lookup), and the settings it depends on
	// never change after creation.
	result, err := SealResult(ctx, st, v, payload)
	if err != nil {
		return Verification{}, fmt.Errorf("complete verification: %w", err)
	}
	out, err := st.UpdateVerification(ctx, accountID, id, func(cur *Verification) error {
		if err := completable(*cur, now); err != nil {
			return err
		}
		cur.Status, cur.Result, cur.CompletedAt, cur.UpdatedAt = to, result, now, now
		return nil
	})
	if err != nil {
		return Verification{}, fmt.Errorf("complete verification: %w", err)
	}
	return out, nil
}

// completable: only a started verification completes, and only within its
// link lifetime (the sweeper expires started ones too; this closes the
// window before it runs).
func completable(v Verification, now time.Time) error {
	if v.Status != StatusStarted {
		return fmt.Errorf("%w: verification is %s, only a started one completes", ErrInvalidTransition, v.Status)
	}
	if !now.Before(v.ExpiresAt) {
		return fmt.Errorf("%w: link expired at %s", ErrInvalidTransition, v.ExpiresAt.Format(time.RFC3339))
	}
	return nil
}

// DecideReview records the human decision on a verification in
// manual_review and moves it to completed (the store enqueues the final
// result's webhook in the same transaction: a second delivery, with its own
// Idgate-Delivery-Id, after the one sent on entering manual_review). The
// result keeps every member byte for byte, sealed ones included, so no key
// is needed, except verification.webcam_face_matches_license_photo, which
// becomes the reviewer's verdict (true when approved, false when rejected)
// in place of "undetermined", and verification.review_reason, the
// reviewer's reason when one is given (ValidateReviewReason; stored and
// delivered in clear, like the booleans). manual_review_requested stays
// true: the end user did request it. completed_at becomes the decision
// time. Any other status is an error wrapping ErrInvalidTransition (409).
func (s *Verifications) DecideReview(ctx context.Context, accountID, id string, approved bool, reason string) (Verification, error) {
	if err := ValidateReviewReason(reason); err != nil {
		return Verification{}, fmt.Errorf("decide review: %w", err)
	}
	v, err := s.transitionInMode(ctx, accountID, id, func(cur *Verification, now time.Time) (Status, error) {
		if cur.Status != StatusManualReview {
			return "", fmt.Errorf("%w: verification is %s, only one in manual_review takes a decision", ErrInvalidTransition, cur.Status)
		}
		result, err := SetFaceVerdict(cur.Result, approved)
		if err != nil {
			return "", err
		}
		if reason != "" {
			if result, err = editVerification(result, "review_reason", reason); err != nil {
				return "", err
			}
		}
		cur.Result, cur.CompletedAt = result, now
		return StatusCompleted, nil
	})
	if err != nil {
		return Verification{}, fmt.Errorf("decide review: %w", err)
	}
	return v, nil
}

// MaxReviewReason bounds the reviewer's reason, in characters.
const MaxReviewReason = 500

// ValidateReviewReason: empty, or at most MaxReviewReason characters of
// valid UTF-8 with no control characters but line breaks.
func ValidateReviewReason(reason string) error {
	bad := func(code, msg string) error {
		return &ValidationError{Fields: []problem.Detail{{Field: "reason", Code: code, Message: msg}}}
	}
	if !utf8.ValidString(reason) {
		return bad("invalid_utf8", "must be valid UTF-8")
	}
	if utf8.RuneCountInString(reason) > MaxReviewReason {
		return bad("too_long", fmt.Sprintf("must be at most %d characters", MaxReviewReason))
	}
	if !controlFree(reason, true) {
		return bad("control_character", "must not contain control characters (line breaks are fine)")
	}
	return nil
}

// ErrMalformedResult: a stored result is not a payload with a verification
// object, so it cannot be edited.
var ErrMalformedResult = errors.New("malformed stored result")

// SetFaceVerdict returns result with verification's
// webcam_face_matches_license_photo set to matches; every other member is
// kept as it was (re-serialised with sorted member names). It never
// panics, whatever result holds.
func SetFaceVerdict(result []byte, matches bool) ([]byte, error) {
	out, err := editVerification(result, "webcam_face_matches_license_photo", matches)
	if err != nil {
		return nil, fmt.Errorf("set face verdict: %w", err)
	}
	return out, nil
}

// editVerification returns result with verification's member name set to
// value (JSON-encoded); every other member is kept as it was
// (re-serialised with sorted member names). It never panics.
func editVerification(result []byte, name string, value any) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(result, &top); err != nil || top == nil {
		return nil, ErrMalformedResult
	}
	var ver map[string]json.RawMessage
	if err := json.Unmarshal(top["verification"], &ver); err != nil || ver == nil {
		return nil, fmt.Errorf("verification: %w", ErrMalformedResult)
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	ver[name] = v
	if top["verification"], err = json.Marshal(ver); err != nil {
		return nil, err
	}
	return json.Marshal(top)
}
