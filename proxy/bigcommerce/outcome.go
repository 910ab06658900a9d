package bigcommerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/rulesets"
)

// KeyOutcome is the one metafield key under Namespace that holds a
// verification outcome. One key, one JSON value: an outcome is written in a
// single request, so a reader never sees half of one.
const KeyOutcome = "verification"

const outcomeDescription = "idgate identity verification outcome"

// Outcome is the stored result of evaluating a verification against the
// store's ruleset, on a cart and (when known) on the customer. Its JSON form
// is the metafield value.
type Outcome struct {
	VerificationID string            `json:"verification_id"`
	Status         string            `json:"status"`
	Pass           bool              `json:"pass"`
	Reasons        []rulesets.Reason `json:"reasons"`
	EvaluatedAt    time.Time         `json:"evaluated_at"`
	// ExpiresAt ends the approval; it is zero on a failing outcome.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Test marks an outcome of a test verification (a store in test mode):
	// the record on the cart, the customer and the order says it was a test.
	Test bool `json:"test,omitempty"`
	// HeldFrom is the status the order guard moved the order from when it
	// held it: where approving it by hand puts it back.
	HeldFrom int `json:"held_from,omitempty"`
	// Review is the merchant's decision by hand on an order; it overrides
	// the verification's.
	Review *Review `json:"review,omitempty"`
	// Guest marks a verification made without a login: only such a cart's
	// outcome may later be carried to an account the shopper proves they
	// are logged in as (proxy.CarryGuest); a logged-in shopper's cart
	// outcome is their own account's already.
	Guest bool `json:"guest,omitempty"`
	// CarriedTo, on a cart's record, is the customer its verification was
	// carried to: a guest's verification becomes one account's, never a
	// second's.
	CarriedTo int64 `json:"carried_to,omitempty"`
}

// Review is a control panel user's approval or rejection of an order.
type Review struct {
	Approved bool      `json:"approved"`
	UserID   int64     `json:"user_id"` // the control panel user
	At       time.Time `json:"at"`
}

// Verified reports a stored, passing, unexpired outcome at now.
func (o Outcome) Verified(now time.Time) bool {
	return o.Pass && now.Before(o.ExpiresAt)
}

// ErrNoOutcome is returned by LoadOutcome when res carries none.
var ErrNoOutcome = errors.New("no verification outcome stored")

// SaveOutcome writes o on res, replacing any earlier outcome: a later
// failing verification replaces an earlier pass.
func (c *Client) SaveOutcome(ctx context.Context, res Resource, o Outcome) error {
	if o.Reasons == nil {
		o.Reasons = []rulesets.Reason{}
	}
	value, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("save %s outcome: %w", res, err)
	}
	if _, err := c.UpsertMetafield(ctx, res, KeyOutcome, string(value), outcomeDescription); err != nil {
		return fmt.Errorf("save %s outcome: %w", res, err)
	}
	return nil
}

// LoadOutcome reads the outcome on res, or ErrNoOutcome.
func (c *Client) LoadOutcome(ctx context.Context, res Resource) (Outcome, error) {
	fields, err := c.ListMetafields(ctx, res, KeyOutcome)
	if err != nil {
		return Outcome{}, fmt.Errorf("load %s outcome: %w", res, err)
	}
	for _, f := range fields {
		if f.Key != KeyOutcome || f.Namespace != Namespace {
			continue
		}
		var o Outcome
		if err := json.Unmarshal([]byte(f.Value), &o); err != nil {
			return Outcome{}, fmt.Errorf("load %s outcome: decode metafield value: %w", res, err)
		}
		return o, nil
	}
	return Outcome{}, fmt.Errorf("load %s outcome: %w", res, ErrNoOutcome)
}
