package verifier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// DefaultPIIRetention is how long a completed verification keeps its
// personal data before the scheduled purge removes it.
const DefaultPIIRetention = 30 * 24 * time.Hour

// PurgePII removes the personal data of a finished verification: in its
// result, license_data becomes {} and license_photo and
// phone_verification.lookup are removed (sealed or not); the booleans,
// tiers and scores stay, and pii_purged_at is set. The flow's own copies
// (session, review images) are removed by the caller (flow.Flow.Purge).
// Pending and started verifications are refused with ErrInvalidTransition
// (the flow still needs the data; cancel first); a purged one is left as
// it is, so a repeated purge changes nothing. One of another mode than
// the caller's (ModeOf(ctx)) is ErrNotFound.
func (s *Verifications) PurgePII(ctx context.Context, accountID, id string) (Verification, error) {
	now := s.Now().UTC().Truncate(time.Microsecond)
	v, err := s.Store.UpdateVerification(ctx, accountID, id, func(v *Verification) error {
		if err := inMode(ctx, *v); err != nil {
			return err
		}
		if v.Status == StatusPending || v.Status == StatusStarted {
			return fmt.Errorf("%w: verification is %s; personal data is purged once the flow has ended", ErrInvalidTransition, v.Status)
		}
		if !v.PIIPurgedAt.IsZero() {
			return nil
		}
		if len(v.Result) > 0 {
			purged, err := PurgeResult(v.Result)
			if err != nil {
				return err
			}
			v.Result = purged
		}
		v.PIIPurgedAt, v.UpdatedAt = now, now
		return nil
	})
	if err != nil {
		return Verification{}, fmt.Errorf("purge personal data: %w", err)
	}
	return v, nil
}

// PurgeResult is result without personal data: license_data {} (the
// member stays, as in a result that requested no fields), license_photo
// and phone_verification.lookup removed. Every other member is kept (re-
// serialised with sorted member names). It never panics, whatever result
// holds.
func PurgeResult(result []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(result, &top); err != nil || top == nil {
		return nil, fmt.Errorf("purge result: %w", ErrMalformedResult)
	}
	if _, ok := top["license_data"]; ok {
		top["license_data"] = json.RawMessage(`{}`)
	}
	delete(top, "license_photo")
	if raw, ok := top["phone_verification"]; ok {
		var phone map[string]json.RawMessage
		if err := json.Unmarshal(raw, &phone); err != nil || phone == nil {
			return nil, fmt.Errorf("purge result: phone_verification: %w", ErrMalformedResult)
		}
		delete(phone, "lookup")
		var err error
		if top["phone_verification"], err = json.Marshal(phone); err != nil {
			return nil, fmt.Errorf("purge result: %w", err)
		}
	}
	out, err := json.Marshal(top)
	if err != nil {
		return nil, fmt.Errorf("purge result: %w", err)
	}
	return out, nil
}

// PurgedPayload is a webhook payload (a result) without personal data, and
// whether that removed anything: a payload without any is reported
// unchanged, so its signed bytes stay as they were.
func PurgedPayload(payload []byte) ([]byte, bool, error) {
	purged, err := PurgeResult(payload)
	if err != nil {
		return nil, false, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(payload, &top); err != nil {
		return nil, false, fmt.Errorf("purge result: %w", ErrMalformedResult)
	}
	same, err := json.Marshal(top) // PurgeResult's encoding, nothing removed
	if err != nil {
		return nil, false, fmt.Errorf("purge result: %w", err)
	}
	return purged, !bytes.Equal(same, purged), nil
}
