package verifier

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Status is where a verification is in its life.
type Status string

const (
	StatusPending      Status = "pending"       // created; the end user has done nothing yet
	StatusStarted      Status = "started"       // the end user took a first successful step
	StatusCompleted    Status = "completed"     // flow finished; result final; webhook fires
	StatusManualReview Status = "manual_review" // face match inconclusive; awaiting a human; webhook fires
	StatusExpired      Status = "expired"       // link lifetime ended; no result, no webhook
	StatusCanceled     Status = "canceled"      // canceled (or deleted while unfinished); no result, no webhook
)

// Statuses lists every status, in lifecycle order.
var Statuses = []Status{StatusPending, StatusStarted, StatusCompleted, StatusManualReview, StatusExpired, StatusCanceled}

// transitions is the state machine: pending → started → completed |
// manual_review; pending | started → expired | canceled; manual_review →
// completed after a human decision. Nothing leaves completed, expired or
// canceled.
var transitions = map[Status][]Status{
	StatusPending:      {StatusStarted, StatusExpired, StatusCanceled},
	StatusStarted:      {StatusCompleted, StatusManualReview, StatusExpired, StatusCanceled},
	StatusManualReview: {StatusCompleted},
}

// ErrInvalidTransition: the status change is not in the state machine (the
// API answers 409).
var ErrInvalidTransition = errors.New("invalid status transition")

// CheckTransition reports whether from → to is allowed; the error wraps
// ErrInvalidTransition and names both ends. Staying put is not a transition.
func CheckTransition(from, to Status) error {
	for _, s := range transitions[from] {
		if s == to {
			return nil
		}
	}
	return fmt.Errorf("%w: %s → %s", ErrInvalidTransition, from, to)
}

// CheckUpdate is what every Store does with an updater's
// result v of old before writing it: it restores the fields an update may
// not change (ID, AccountID, TokenHash, Type, Mode, TemplateID, CreatedAt) and
// checks a status change with CheckTransition.
func CheckUpdate(old Verification, v *Verification) error {
	v.ID, v.AccountID, v.TokenHash, v.Type, v.Mode = old.ID, old.AccountID, old.TokenHash, old.Type, old.Mode
	v.TemplateID, v.CreatedAt = old.TemplateID, old.CreatedAt
	if v.Status != old.Status {
		return CheckTransition(old.Status, v.Status)
	}
	return nil
}

// Valid reports whether s is one of Statuses.
func (s Status) Valid() bool {
	for _, x := range Statuses {
		if s == x {
			return true
		}
	}
	return false
}

// HoldsSlot reports whether a verification in status s counts against its
// type's allowance: unfinished links hold a slot until they complete, expire
// or are canceled, and completed (or manual_review) ones have used it.
func (s Status) HoldsSlot() bool {
	return s == StatusPending || s == StatusStarted || s == StatusCompleted || s == StatusManualReview
}

// Type is derived by the server from the options requested and decides which
// allowance a verification uses.
type Type string

const (
	TypeCore  Type = "core"
	TypeBasic Type = "basic"
	TypeFull  Type = "full"
)

// Types lists every type.
var Types = []Type{TypeCore, TypeBasic, TypeFull}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool { return t == TypeCore || t == TypeBasic || t == TypeFull }

// Verification is one verification request. Zero times mean "not yet"; empty
// strings and nil values mean "not set".
type Verification struct {
	ID        string // UUID; the request_id of the webhook
	AccountID string
	// TokenHash is SHA-256 of the unguessable token in the end user's URL;
	// the token itself is never stored. Unique.
	TokenHash []byte
	Status    Status
	Type      Type // fixed at creation
	// Mode is the mode of the credential that created it (mode.go), fixed
	// at creation: a test verification counts against no allowance and is
	// seen only by test credentials.
	Mode Mode
	// Options are the create request's settings after template defaults were
	// applied (requested fields, switches, encryption mode and key, ...), as
	// the API layer encodes them. Opaque to the store; kept byte for byte.
	Options        json.RawMessage
	ExternalID     string
	WebhookURL     string
	WebhookHeaders map[string]string
	Message        string
	LifetimeDays   int
	ExpiresAt      time.Time
	StartedAt      time.Time
	CompletedAt    time.Time
	// Result is the result payload (webhook body), kept byte for byte so
	// every delivery and GET returns the same document.
	Result      json.RawMessage
	PIIPurgedAt time.Time
	TemplateID  string // the template the defaults came from, if any
	CreatedAt   time.Time
	UpdatedAt   time.Time

	// WebhookStatus is the state of the latest webhook delivery: "pending",
	// "delivered" or "failed" (after three failed attempts); "" when none was
	// enqueued. Read-only: stores derive it from the delivery outbox.
	WebhookStatus string
}

// Template supplies default settings, copied into a verification at
// creation; later edits never reach existing verifications.
type Template struct {
	ID        string // UUID
	AccountID string
	Name      string
	// Settings are the defaults and Request Rules as the API layer encodes
	// them. Opaque to the store; kept byte for byte.
	Settings  json.RawMessage
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ErrQuotaExceeded: no allowance left for the verification's type (the API
// answers 402 QUOTA_EXCEEDED). The error is a *QuotaError naming the type.
var ErrQuotaExceeded = errors.New("quota exceeded")

// QuotaError is the ErrQuotaExceeded a create returns; Type is the
// verification_type that ran out.
type QuotaError struct {
	Type  Type
	Limit int
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("quota exceeded: %s verifications (allowance %d)", e.Type, e.Limit)
}

func (e *QuotaError) Is(target error) bool { return target == ErrQuotaExceeded }

// Allowance is the quota CreateVerification enforces for the new
// verification's type.
type Allowance struct {
	// Limit is how many slot-holding verifications (Status.HoldsSlot) of the
	// type the account may have; negative means unlimited, which also skips
	// the slot counting.
	Limit int
	// Since starts the current period: only verifications created at or
	// after it count. Zero counts all. Every create of a period must pass
	// the same Since (PeriodStart): the store counts each period's slots
	// under it.
	Since time.Time
}

// List page sizes.
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// VerificationFilter selects and pages ListVerifications. Results are newest
// first (created_at, then id, descending); deleted ones never appear. A bad
// limit, status or cursor gives a *ValidationError (fields "limit",
// "status", "cursor").
type VerificationFilter struct {
	Statuses      []Status  // any of these; empty: all
	CreatedFrom   time.Time // created_at >= CreatedFrom; zero: no bound
	CreatedBefore time.Time // created_at < CreatedBefore; zero: no bound (both truncated to microseconds)
	ExternalID    string    // exact match; empty: any
	Mode          Mode      // only this mode's verifications (the zero value: live)
	Limit         int       // 1..MaxListLimit; 0 means DefaultListLimit
	Cursor        string    // NextCursor of the previous page; empty: first page
}

// VerificationPage is one page of ListVerifications.
type VerificationPage struct {
	Items      []Verification
	NextCursor string // empty on the last page
}
