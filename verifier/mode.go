package verifier

import "context"

// Mode separates an account's test data from its live data (docs/test-mode.md). A
// credential has a mode: an integration key (idgk_… live, idgk_test_… test)
// and an access token (POST /auth with "mode": "test"). What a credential
// creates has its mode, and an account-facing read or change of a
// verification (get, list, cancel, delete, review, purge, webhook log and
// retry) sees only the verifications of the caller's mode: the other mode's
// are ErrNotFound, exactly like another account's. Test verifications count
// against no allowance and never appear in quota usage.
//
// The zero Mode is live, so a Verification or IntegrationKey built without
// thinking about modes is a live one, and so is a context without a mode.
type Mode bool

// The two modes.
const (
	ModeLive Mode = false
	ModeTest Mode = true
)

// Livemode is the "livemode" member of every verification, result and
// webhook body: true for live, false for test.
func (m Mode) Livemode() bool { return m == ModeLive }

func (m Mode) String() string {
	if m == ModeTest {
		return "test"
	}
	return "live"
}

type modeKey struct{}

// WithMode is ctx carrying the caller's mode. The HTTP layer sets it once,
// where it authenticates the credential, so every domain method the
// request reaches is scoped to that mode without each handler passing it
// on (a handler that forgets cannot leak test data into live views, or the
// reverse: a context without a mode is live).
func WithMode(ctx context.Context, m Mode) context.Context {
	return context.WithValue(ctx, modeKey{}, m)
}

// ModeOf is the caller's mode carried by ctx; live when none was set.
func ModeOf(ctx context.Context) Mode {
	m, _ := ctx.Value(modeKey{}).(Mode)
	return m
}

// inMode is ErrNotFound when v is not of the caller's mode: a live
// credential never sees a test verification, nor the reverse, and cannot
// tell one from a verification that does not exist.
func inMode(ctx context.Context, v Verification) error {
	if v.Mode != ModeOf(ctx) {
		return ErrNotFound
	}
	return nil
}
