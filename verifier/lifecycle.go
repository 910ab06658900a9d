package verifier

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Get returns the account's verification; another account's is ErrNotFound.
func (s *Verifications) Get(ctx context.Context, accountID, id string) (Verification, error) {
	v, err := s.Store.GetVerification(ctx, accountID, id)
	if err != nil {
		return Verification{}, fmt.Errorf("get verification: %w", err)
	}
	return v, nil
}

// List pages the account's verifications, newest first.
func (s *Verifications) List(ctx context.Context, accountID string, f VerificationFilter) (VerificationPage, error) {
	p, err := s.Store.ListVerifications(ctx, accountID, f)
	if err != nil {
		return VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	return p, nil
}

// transition moves a verification to status `to` through the store's
// updater: one transaction, checked by Transition (ErrInvalidTransition
// otherwise). edit may set more fields on the way.
func (s *Verifications) transition(ctx context.Context, accountID, id string, to Status, edit func(v *Verification, now time.Time)) (Verification, error) {
	return s.Store.UpdateVerification(ctx, accountID, id, func(v *Verification) error {
		now := s.Now().UTC().Truncate(time.Microsecond)
		if err := Transition(v.Status, to); err != nil {
			return err
		}
		v.Status, v.UpdatedAt = to, now
		if edit != nil {
			edit(v, now)
		}
		return nil
	})
}

// Cancel ends a pending or started verification, releasing its slot; any
// other status is ErrInvalidTransition. Canceled ones send no webhook.
func (s *Verifications) Cancel(ctx context.Context, accountID, id string) (Verification, error) {
	v, err := s.transition(ctx, accountID, id, StatusCanceled, nil)
	if err != nil {
		return Verification{}, fmt.Errorf("cancel verification: %w", err)
	}
	return v, nil
}

// Delete hides the verification and drops its data; it never sends a
// webhook (see VerificationStore.DeleteVerification).
func (s *Verifications) Delete(ctx context.Context, accountID, id string) error {
	if err := s.Store.DeleteVerification(ctx, accountID, id, s.Now().UTC().Truncate(time.Microsecond)); err != nil {
		return fmt.Errorf("delete verification: %w", err)
	}
	return nil
}

// ErrUnknownLink: no verification behind a link token (or a malformed one).
var ErrUnknownLink = errors.New("unknown verification link")

// Open is the end user opening the link: the first open of a pending
// verification marks it started and records started_at; later opens change
// nothing. A link past its lifetime that the sweeper has not reached yet is
// expired here, so the end user never starts an expired link. The result
// carries the status the page should show.
func (s *Verifications) Open(ctx context.Context, token string) (Verification, error) {
	if !WellFormedLinkToken(token) {
		return Verification{}, ErrUnknownLink
	}
	v, err := s.Store.GetVerificationByTokenHash(ctx, HashLinkToken(token))
	if errors.Is(err, ErrNotFound) {
		return Verification{}, ErrUnknownLink
	}
	if err != nil {
		return Verification{}, fmt.Errorf("open link: %w", err)
	}
	if v.Status != StatusPending && v.Status != StatusStarted {
		return v, nil
	}
	v, err = s.Store.UpdateVerification(ctx, v.AccountID, v.ID, func(v *Verification) error {
		now := s.Now().UTC().Truncate(time.Microsecond)
		to := v.Status
		switch {
		case v.Status != StatusPending && v.Status != StatusStarted:
			return nil // changed since the read; show what it is now
		case !now.Before(v.ExpiresAt):
			to = StatusExpired
		case v.Status == StatusPending:
			to, v.StartedAt = StatusStarted, now
		default:
			return nil
		}
		if err := Transition(v.Status, to); err != nil {
			return err
		}
		v.Status, v.UpdatedAt = to, now
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return Verification{}, ErrUnknownLink // deleted since the read
	}
	if err != nil {
		return Verification{}, fmt.Errorf("open link: %w", err)
	}
	return v, nil
}
