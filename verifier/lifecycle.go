package verifier

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Get returns the account's verification of the caller's mode
// (ModeOf(ctx)); another account's, or one of the other mode, is
// ErrNotFound.
func (s *Verifications) Get(ctx context.Context, accountID, id string) (Verification, error) {
	v, err := s.Store.GetVerification(ctx, accountID, id)
	if err == nil {
		err = inMode(ctx, v)
	}
	if err != nil {
		return Verification{}, fmt.Errorf("get verification: %w", err)
	}
	return v, nil
}

// List pages the account's verifications of the caller's mode, newest
// first: f.Mode is set from ctx, so a live caller never lists test ones nor
// the reverse.
func (s *Verifications) List(ctx context.Context, accountID string, f VerificationFilter) (VerificationPage, error) {
	f.Mode = ModeOf(ctx)
	p, err := s.Store.ListVerifications(ctx, accountID, f)
	if err != nil {
		return VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	return p, nil
}

// Step decides, inside the transaction, where a verification goes next
// from its current state: the status to move to, after setting any fields
// that go with it, or "" to leave it as it is.
type Step func(v *Verification, now time.Time) (Status, error)

// Transition is the one way a verification changes status: in one
// transaction (Store.UpdateVerification), step picks the new status, which
// must be allowed by the state machine (ErrInvalidTransition otherwise, and
// nothing is written); UpdatedAt is set from the injected clock.
func (s *Verifications) Transition(ctx context.Context, accountID, id string, step Step) (Verification, error) {
	return s.Store.UpdateVerification(ctx, accountID, id, func(v *Verification) error {
		now := s.Now().UTC().Truncate(time.Microsecond)
		to, err := step(v, now)
		if err != nil || to == "" {
			return err
		}
		if err := CheckTransition(v.Status, to); err != nil {
			return err
		}
		v.Status, v.UpdatedAt = to, now
		return nil
	})
}

// transitionInMode is Transition for an account-facing call: a
// verification of another mode than the caller's is ErrNotFound and left
// as it is.
func (s *Verifications) transitionInMode(ctx context.Context, accountID, id string, step Step) (Verification, error) {
	return s.Transition(ctx, accountID, id, func(v *Verification, now time.Time) (Status, error) {
		if err := inMode(ctx, *v); err != nil {
			return "", err
		}
		return step(v, now)
	})
}

// Cancel ends a pending or started verification, releasing its slot; any
// other status is ErrInvalidTransition. Canceled ones send no webhook.
func (s *Verifications) Cancel(ctx context.Context, accountID, id string) (Verification, error) {
	v, err := s.transitionInMode(ctx, accountID, id, func(*Verification, time.Time) (Status, error) { return StatusCanceled, nil })
	if err != nil {
		return Verification{}, fmt.Errorf("cancel verification: %w", err)
	}
	return v, nil
}

// Delete hides the verification and drops its data; it never sends a
// webhook (see Store.DeleteVerification).
func (s *Verifications) Delete(ctx context.Context, accountID, id string) error {
	// The mode never changes, so checking it before the delete is enough.
	if _, err := s.Get(ctx, accountID, id); err != nil {
		return fmt.Errorf("delete verification: %w", err)
	}
	if err := s.Store.DeleteVerification(ctx, accountID, id, s.Now().UTC().Truncate(time.Microsecond)); err != nil {
		return fmt.Errorf("delete verification: %w", err)
	}
	return nil
}

// ErrUnknownLink: no verification behind a link token (or a malformed one).
var ErrUnknownLink = errors.New("unknown verification link")

// Open is the end user opening the link. Opening changes nothing: a
// verification is started (started_at) by the end user's first successful
// step in the flow (flow's markStarted), as through the API, so "started"
// means the end user did something, not that a link preview, a mail
// scanner or a curious click fetched the page. A link past its lifetime
// that the sweeper has not reached yet is expired here, so the end user
// never starts an expired link. The result carries the status the page
// should show.
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
	if v.Status != StatusPending && v.Status != StatusStarted || s.Now().Before(v.ExpiresAt) {
		return v, nil // ended, or live: a read, no write
	}
	v, err = s.Transition(ctx, v.AccountID, v.ID, func(v *Verification, now time.Time) (Status, error) {
		switch {
		case v.Status != StatusPending && v.Status != StatusStarted:
			return "", nil // changed since the read; show what it is now
		case !now.Before(v.ExpiresAt):
			return StatusExpired, nil
		}
		return "", nil // live: opening changes nothing
	})
	if errors.Is(err, ErrNotFound) {
		return Verification{}, ErrUnknownLink // deleted since the read
	}
	if err != nil {
		return Verification{}, fmt.Errorf("open link: %w", err)
	}
	return v, nil
}
