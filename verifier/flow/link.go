package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// link resolves a link token to its verification for a step. Unknown
// tokens are ErrUnknownLink; expired, canceled and finished verifications
// are a *LinkEndedError. A link past its lifetime that the sweeper has not
// reached yet is expired here, as opening the page does.
func (f *Flow) link(ctx context.Context, token string) (verifier.Verification, error) {
	v, err := f.lookup(ctx, token)
	if err != nil {
		return verifier.Verification{}, err
	}
	if v.Status != verifier.StatusPending && v.Status != verifier.StatusStarted {
		return v, &LinkEndedError{Status: v.Status}
	}
	if f.now().Before(v.ExpiresAt) {
		return v, nil
	}
	v, err = f.domain().Transition(ctx, v.AccountID, v.ID, func(cur *verifier.Verification, now time.Time) (verifier.Status, error) {
		if (cur.Status == verifier.StatusPending || cur.Status == verifier.StatusStarted) && !now.Before(cur.ExpiresAt) {
			return verifier.StatusExpired, nil
		}
		return "", nil
	})
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("expire link: %w", err)
	}
	return v, &LinkEndedError{Status: v.Status}
}

// CheckLink reports whether the link may take a step now: nil, or the
// error a step would get (ErrUnknownLink, a *LinkEndedError).
func (f *Flow) CheckLink(ctx context.Context, token string) error {
	_, err := f.link(ctx, token)
	return err
}

// lookup is the verification behind token, whatever its status.
func (f *Flow) lookup(ctx context.Context, token string) (verifier.Verification, error) {
	if !verifier.WellFormedLinkToken(token) {
		return verifier.Verification{}, ErrUnknownLink
	}
	v, err := f.Verifications.GetVerificationByTokenHash(ctx, verifier.HashLinkToken(token))
	if errors.Is(err, verifier.ErrNotFound) {
		return verifier.Verification{}, ErrUnknownLink
	}
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("link: %w", err)
	}
	return v, nil
}

// domain is verifier's status machine on the flow's store and clock.
func (f *Flow) domain() *verifier.Verifications {
	return &verifier.Verifications{Store: f.Verifications, Now: f.Now}
}

// markStarted moves a pending verification to started after its first
// successful step; a started one is left as it is.
func (f *Flow) markStarted(ctx context.Context, v verifier.Verification) error {
	if v.Status != verifier.StatusPending {
		return nil
	}
	_, err := f.domain().Transition(ctx, v.AccountID, v.ID, func(cur *verifier.Verification, now time.Time) (verifier.Status, error) {
		if cur.Status != verifier.StatusPending {
			return "", nil
		}
		cur.StartedAt = now
		return verifier.StatusStarted, nil
	})
	if err != nil {
		return fmt.Errorf("mark started: %w", err)
	}
	return nil
}

// sessionContext binds a sealed session to its verification.
func sessionContext(verificationID string) string { return "flow-session:" + verificationID }

// load reads the link's session; a link without one gets a fresh session.
func (f *Flow) load(ctx context.Context, v verifier.Verification) (Session, error) {
	sealed, err := f.Store.GetFlowSession(ctx, v.ID)
	if errors.Is(err, verifier.ErrNotFound) {
		return newSession(v), nil
	}
	if err != nil {
		return Session{}, fmt.Errorf("load session: %w", err)
	}
	return f.open(v, sealed)
}

func newSession(v verifier.Verification) Session {
	return Session{VerificationID: v.ID, AccountID: v.AccountID, Phase: PhaseCollecting}
}

func (f *Flow) open(v verifier.Verification, sealed []byte) (Session, error) {
	if sealed == nil {
		return newSession(v), nil
	}
	plain, err := f.Sealer.Open(sealed, sessionContext(v.ID))
	if err != nil {
		return Session{}, fmt.Errorf("open session: %w", err)
	}
	var s Session
	if err := json.Unmarshal(plain, &s); err != nil {
		return Session{}, fmt.Errorf("decode session: %w", err)
	}
	return s, nil
}

// update changes the link's session in one store transaction: fn sees the
// current session (another request may have changed it since load) and
// edits it; the result is sealed and written. It returns the session as
// written.
func (f *Flow) update(ctx context.Context, v verifier.Verification, fn func(s *Session) error) (Session, error) {
	now := f.now()
	var out Session
	err := f.Store.UpdateFlowSession(ctx, v.AccountID, v.ID, now, func(sealed []byte) ([]byte, error) {
		s, err := f.open(v, sealed)
		if err != nil {
			return nil, err
		}
		if err := fn(&s); err != nil {
			return nil, err
		}
		s.UpdatedAt = now
		plain, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("encode session: %w", err)
		}
		out = s
		return f.Sealer.Seal(plain, sessionContext(v.ID))
	})
	if err != nil {
		return Session{}, err
	}
	return out, nil
}
