package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Delivery states. A delivery is pending until an attempt succeeds
// (delivered) or its third attempt fails (failed). The verification's
// webhook_status is the state of its latest delivery.
const (
	StatePending   = "pending"
	StateDelivered = "delivered"
	StateFailed    = "failed"
)

// Delivery is one webhook delivery: a payload for one verification, sent to
// one URL in up to MaxAttempts attempts.
type Delivery struct {
	// ID is sent as Idgate-Delivery-Id: unique per delivery, the same on
	// every attempt, so receivers can deduplicate.
	ID             string
	AccountID      string // whose signing secrets sign it
	VerificationID string
	URL            string
	// Headers are the verification's webhook_headers (already validated by
	// ValidateHeaders at creation; reserved names are skipped again at send).
	Headers map[string]string
	// Payload is the exact JSON body; every attempt sends these bytes.
	Payload []byte
	// Attempt is the number of the attempt being made (1..MaxAttempts). It
	// is set by the queue when it claims the delivery.
	Attempt int
	State   string
	// NextAttemptAt is when the next attempt is due (pending only).
	NextAttemptAt time.Time
	CreatedAt     time.Time
	// Lease identifies the claim that handed this delivery to a worker; the
	// outcome is recorded only while it is still the current claim.
	Lease string
}

// AttemptResult is the outcome of one attempt, as logged.
type AttemptResult struct {
	Attempt    int
	StartedAt  time.Time
	StatusCode int // 0 when no response was received
	// Err is why the attempt failed (refused address, timeout, connection
	// error, non-2xx, redirect); nil on success.
	Err      error
	Duration time.Duration
	// Snippet is the start of the response body (at most SnippetBytes),
	// for the delivery log.
	Snippet string
}

// OK reports whether the attempt succeeded (a 2xx answer).
func (r AttemptResult) OK() bool { return r.Err == nil && r.StatusCode >= 200 && r.StatusCode < 300 }

// AttemptRecord is one row of the delivery log.
type AttemptRecord struct {
	DeliveryID string
	Attempt    int
	StartedAt  time.Time
	StatusCode int    // 0 when no response was received
	Error      string // empty on success
	Duration   time.Duration
	Snippet    string
}

// Outcome is what the worker records after an attempt: the delivery's new
// state and, while still pending, when the next attempt is due.
type Outcome struct {
	State         string
	NextAttemptAt time.Time
}

// ErrLeaseLost means another worker claimed the delivery after this one's
// lease expired; the outcome was not recorded (that worker's attempt counts).
var ErrLeaseLost = errors.New("delivery lease lost")

// ErrNotFailed means a manual retry was asked for a verification whose
// latest delivery has not failed (still pending, delivered, or none).
var ErrNotFailed = errors.New("no failed delivery to retry")

// Queue is the durable outbox as the worker sees it. Enqueueing is not part
// of it: each adapter enqueues inside the caller's own transaction type.
// verifier/sqlstore implements it and passes storetest.RunQueue.
type Queue interface {
	// Claim leases up to limit pending deliveries due at now, oldest first,
	// until now+lease, skipping those another claim still holds. Attempt is
	// set to the number of the attempt to make.
	Claim(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]Delivery, error)
	// Record writes the attempt log row and the outcome in one transaction,
	// if d.Lease is still the delivery's current claim (else ErrLeaseLost).
	Record(ctx context.Context, d Delivery, res AttemptResult, out Outcome) error
	// History returns a verification's deliveries, newest first, and their
	// attempt log rows in attempt order.
	History(ctx context.Context, verificationID string) ([]DeliveryLog, error)
	// Retry starts a fresh three-attempt cycle for a verification whose
	// latest delivery failed: a new delivery (id newID, due at now) with the
	// same URL, headers and payload bytes. ErrNotFailed otherwise.
	Retry(ctx context.Context, verificationID, newID string, now time.Time) (Delivery, error)
	// Purge empties the payload and custom headers (plain-text result and
	// receiver credentials) of up to limit deliveries delivered before
	// before, and returns how many it emptied. Failed deliveries keep
	// theirs for a manual retry; the attempt log stays.
	Purge(ctx context.Context, before time.Time, limit int) (int, error)
}

// DeliveryLog is a delivery with its attempt log, for the API. Its
// Delivery.Attempt is the number of attempts recorded so far.
type DeliveryLog struct {
	Delivery
	Attempts []AttemptRecord
}

// SecretSource gives an account's current webhook signing secrets: the
// newest first; during a rotation the previous one too, so both sign.
type SecretSource interface {
	SigningSecrets(ctx context.Context, accountID string) ([][]byte, error)
}

// maxErrorText bounds the error text stored per attempt.
const maxErrorText = 1000

// ErrorText is the error as stored in the delivery log ("" on success),
// bounded in length.
func (r AttemptResult) ErrorText() string {
	if r.Err == nil {
		return ""
	}
	s := r.Err.Error()
	if len(s) > maxErrorText {
		s = s[:maxErrorText]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// ErrInvalidDelivery is wrapped when Enqueue is given a delivery missing a
// field or whose payload is not JSON.
var ErrInvalidDelivery = errors.New("invalid webhook delivery")

// CheckNew validates a delivery before an adapter enqueues it.
func CheckNew(d Delivery) error {
	switch {
	case d.ID == "" || d.AccountID == "" || d.VerificationID == "" || d.URL == "":
		return fmt.Errorf("%w: id, account, verification and URL are required", ErrInvalidDelivery)
	case !json.Valid(d.Payload):
		return fmt.Errorf("%w: payload is not JSON", ErrInvalidDelivery)
	}
	return nil
}

// NewLease returns a random claim token for a queue's Claim.
func NewLease() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new lease: %w", err)
	}
	return hex.EncodeToString(b), nil
}
