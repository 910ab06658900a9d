package verifier_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// TestTransitionRefusesIllegalMoves: a step the state machine does not
// allow is ErrInvalidTransition and writes nothing, not even the fields the
// step set; an allowed one writes status, fields and UpdatedAt together.
func TestTransitionRefusesIllegalMoves(t *testing.T) {
	ctx := context.Background()
	store, a, clock := sqliteAccount(t, "transition@example.com")
	vs := &verifier.Verifications{Store: store, Now: clock.Now, Plan: verifier.UnlimitedPlan}
	c, err := vs.Create(ctx, a.ID, verifier.CreateRequest{})
	if err != nil {
		t.Fatal(err)
	}
	complete := func(v *verifier.Verification, now time.Time) (verifier.Status, error) {
		v.CompletedAt = now
		return verifier.StatusCompleted, nil
	}
	if _, err := vs.Transition(ctx, a.ID, c.ID, complete); !errors.Is(err, verifier.ErrInvalidTransition) {
		t.Fatalf("pending → completed: %v", err)
	}
	if v, _ := vs.Get(ctx, a.ID, c.ID); v.Status != verifier.StatusPending || !v.CompletedAt.IsZero() {
		t.Fatalf("refused step wrote: %+v", v)
	}
	clock.Advance(time.Minute)
	// Opening the link starts nothing; the end user's first step does.
	if v, err := vs.Open(ctx, c.Token); err != nil || v.Status != verifier.StatusPending || !v.StartedAt.IsZero() {
		t.Fatalf("open: %+v %v", v, err)
	}
	startVerification(t, vs, a.ID, c.ID)
	clock.Advance(time.Minute)
	v, err := vs.Transition(ctx, a.ID, c.ID, complete)
	if err != nil || v.Status != verifier.StatusCompleted || !v.CompletedAt.Equal(v.UpdatedAt) || v.StartedAt.Equal(v.CompletedAt) {
		t.Fatalf("started → completed: %+v %v", v, err)
	}
	if _, err := vs.Cancel(ctx, a.ID, c.ID); !errors.Is(err, verifier.ErrInvalidTransition) {
		t.Fatalf("cancel completed: %v", err)
	}
}
