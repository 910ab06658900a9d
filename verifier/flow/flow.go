package flow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone"
)

// Store persists the flow's sessions and review images, so any instance
// serves any step of a link. Sessions and images reach it sealed: it never
// sees personal data in the clear. Times are UTC microseconds set by the
// caller, as in verifier.Store.
type Store interface {
	// UpdateFlowSession reads the sealed session of the verification (nil
	// when there is none yet), calls fn and writes what fn returns, in one
	// transaction: concurrent updates of one session queue. If fn fails,
	// nothing is written and its error is returned as is. fn may be called
	// more than once and must not call the store.
	UpdateFlowSession(ctx context.Context, accountID, verificationID string, now time.Time,
		fn func(sealed []byte) ([]byte, error)) error
	// GetFlowSession is the sealed session; verifier.ErrNotFound when none.
	GetFlowSession(ctx context.Context, verificationID string) ([]byte, error)
	// PutReviewImage stores (or replaces) one sealed image kept for manual
	// review.
	PutReviewImage(ctx context.Context, accountID, verificationID string, kind ReviewImage, sealed []byte, now time.Time) error
	// ReviewImages are the verification's sealed review images.
	ReviewImages(ctx context.Context, accountID, verificationID string) (map[ReviewImage][]byte, error)
	// DeleteFlowData removes the verification's session and review images
	// (the personal data the flow keeps); no data is not an error.
	DeleteFlowData(ctx context.Context, verificationID string) error
	// PurgeDue lists up to limit completed verifications, completed at or
	// before before, whose personal data is not purged yet, oldest first.
	PurgeDue(ctx context.Context, before time.Time, limit int) ([]Ref, error)
	// AbandonedFlows lists up to limit verifications that still have flow
	// data but ended without a result (expired, canceled or deleted).
	AbandonedFlows(ctx context.Context, limit int) ([]string, error)
}

// Ref names a verification, with its mode (the scheduled purge purges
// test verifications as live ones, each in its own mode).
type Ref struct {
	AccountID, ID string
	Mode          verifier.Mode
}

// ReviewImage names an image kept for manual review.
type ReviewImage string

// The review images: the license front photo, the passport's data page,
// the ID card's front and the liveness selfie: each document's photo with
// its portrait, which a reviewer compares with the selfie.
const (
	ReviewLicenseFront ReviewImage = "license_front"
	ReviewPassportPage ReviewImage = "passport_page"
	ReviewIDCardFront  ReviewImage = "id_card_front"
	ReviewSelfie       ReviewImage = "selfie"
)

// Sealer seals data at rest under the server's key, bound to a context (the
// verification it belongs to), so a sealed value moved to another
// verification does not open.
type Sealer interface {
	Seal(plaintext []byte, context string) ([]byte, error)
	Open(sealed []byte, context string) ([]byte, error)
}

// Limits bound what one link may do.
type Limits struct {
	// MaxImageBytes and MaxImagePixels bound every license photo.
	MaxImageBytes  int
	MaxImagePixels int
	// LivenessAttempts is how many challenges may be judged per link.
	LivenessAttempts int
}

// DefaultLimits: 10 MB and 40 MP per photo (a 12 MP phone photo is 3-6 MB),
// 5 judged liveness attempts per link.
var DefaultLimits = Limits{MaxImageBytes: 10 << 20, MaxImagePixels: 40_000_000, LivenessAttempts: 5}

// Flow serves the end-user steps of every link. Build it with its fields
// set; it holds no state of its own.
type Flow struct {
	Engines Engines
	Store   Store
	// Verifications is the domain's store: links resolve to verifications,
	// status changes go through verifier's state machine, and completion
	// seals the result for the account.
	Verifications verifier.Store
	Sealer        Sealer
	Now           func() time.Time
	Limits        Limits
	// Rand is the challenges' random source; nil is crypto/rand. Tests
	// inject a seeded reader for a known step order.
	Rand io.Reader
	// Phone sends and checks phone codes; nil leaves the phone step out
	// (phone_verification is then absent: the check cannot run).
	Phone phone.Provider
	// PhoneLimits bound the phone step; zero is DefaultPhoneLimits.
	PhoneLimits PhoneLimits
	// Address checks the license's address at completion; nil leaves
	// address_verification absent (the check cannot run).
	Address address.Provider
	// Subscribers says whether the names are on record at the address when
	// Address matches no names: it asks the subscriber record of the
	// number verified in the phone step (address.SubscriberMatcher); nil,
	// or no number verified, leaves name_at_address and
	// last_name_at_address null.
	Subscribers address.SubscriberMatcher
	// Log receives what the end user is not told (a provider's failure);
	// nil is slog.Default().
	Log *slog.Logger
	// IP is IP intelligence for the result; nil leaves ip_found, is_proxy
	// and location_consistency absent (the check could not run).
	IP IPIntel
}

// Errors of the flow. The HTTP layer maps each to a status in one table.
var (
	// ErrUnknownLink: no verification behind the token (404).
	ErrUnknownLink = verifier.ErrUnknownLink
	// ErrLinkEnded: the link's verification is expired, canceled or
	// finished (410); the error is a *LinkEndedError naming its status.
	ErrLinkEnded = errors.New("link ended")
	// ErrOutOfOrder: the step cannot run in the session's phase, e.g.
	// submit before the three steps passed (409).
	ErrOutOfOrder = errors.New("step out of order")
	// Challenge refusals: never issued on this link (404), replaced by a
	// newer one, already answered, or past its deadline (409).
	ErrChallengeUnknown = errors.New("unknown liveness challenge")
	ErrChallengeVoided  = errors.New("liveness challenge replaced by a newer one")
	ErrChallengeUsed    = errors.New("liveness challenge already answered")
	ErrChallengeExpired = errors.New("liveness challenge expired")
	// ErrNoAttemptsLeft: the link has used its liveness attempts (429).
	ErrNoAttemptsLeft = errors.New("no liveness attempts left")
	// ErrProblems: the upload has problems the user can fix (422); the
	// error is a *ProblemsError.
	ErrProblems = errors.New("upload has problems")
)

// LinkEndedError is ErrLinkEnded with the verification's status.
type LinkEndedError struct{ Status verifier.Status }

func (e *LinkEndedError) Error() string {
	return fmt.Sprintf("link ended: verification is %s", e.Status)
}

// Is makes errors.Is(err, ErrLinkEnded) true.
func (e *LinkEndedError) Is(target error) bool { return target == ErrLinkEnded }

// ProblemsError lists what is wrong with an upload, for one step.
type ProblemsError struct {
	Step     Step
	Problems []Problem
}

func (e *ProblemsError) Error() string {
	return fmt.Sprintf("%s: problems %v", e.Step, e.Problems)
}

// Is makes errors.Is(err, ErrProblems) true.
func (e *ProblemsError) Is(target error) bool { return target == ErrProblems }

// now is the injected clock as stored: UTC, microseconds.
func (f *Flow) now() time.Time { return f.Now().UTC().Truncate(time.Microsecond) }
