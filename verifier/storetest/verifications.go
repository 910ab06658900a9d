package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// unlimited is the allowance that never refuses.
var unlimited = verifier.Allowance{Limit: -1}

// newVerification is a pending Core verification of accountID with every
// field set, expiring well after every instant the shared-store tests use.
func newVerification(accountID string) verifier.Verification {
	return verifier.Verification{
		ID:             uuid.NewString(),
		AccountID:      accountID,
		TokenHash:      randomBytes(32),
		Status:         verifier.StatusPending,
		Type:           verifier.TypeCore,
		Options:        json.RawMessage(`{"requested_fields": ["dob"],  "encryption_key_mode":"none"}`),
		ExternalID:     "order-" + rand.Text()[:8],
		WebhookURL:     "https://hooks.example.com/idgate",
		WebhookHeaders: map[string]string{"X-Secret": "s3cret", "X-Shop": "42"},
		Message:        "Please verify your ID",
		LifetimeDays:   14,
		ExpiresAt:      base.Add(14 * 24 * time.Hour),
		CreatedAt:      base,
		UpdatedAt:      base,
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// storedV is v as the contract says a store returns it.
func storedV(v verifier.Verification) verifier.Verification {
	v.TokenHash = bytes.Clone(v.TokenHash)
	v.Options, v.Result = bytes.Clone(v.Options), bytes.Clone(v.Result)
	v.WebhookHeaders = maps.Clone(v.WebhookHeaders)
	if len(v.WebhookHeaders) == 0 {
		v.WebhookHeaders = nil
	}
	for _, p := range []*time.Time{&v.ExpiresAt, &v.StartedAt, &v.CompletedAt, &v.PIIPurgedAt, &v.CreatedAt, &v.UpdatedAt} {
		if !p.IsZero() {
			*p = wantTime(*p)
		}
	}
	return v
}

func mustVerification(t *testing.T, s verifier.Store, v verifier.Verification) verifier.Verification {
	t.Helper()
	if err := s.CreateVerification(context.Background(), v, unlimited); err != nil {
		t.Fatalf("CreateVerification: %v", err)
	}
	return storedV(v)
}

func equalVerification(t *testing.T, what string, got, want verifier.Verification) {
	t.Helper()
	var diffs []string
	check := func(name string, ok bool) {
		if !ok {
			diffs = append(diffs, name)
		}
	}
	check("ID", got.ID == want.ID)
	check("AccountID", got.AccountID == want.AccountID)
	check("TokenHash", bytes.Equal(got.TokenHash, want.TokenHash))
	check("Status", got.Status == want.Status)
	check("Type", got.Type == want.Type)
	check("Mode", got.Mode == want.Mode)
	check("Options (byte for byte)", bytes.Equal(got.Options, want.Options) && (got.Options == nil) == (want.Options == nil))
	check("ExternalID", got.ExternalID == want.ExternalID)
	check("WebhookURL", got.WebhookURL == want.WebhookURL)
	check("WebhookHeaders", maps.Equal(got.WebhookHeaders, want.WebhookHeaders))
	check("Message", got.Message == want.Message)
	check("LifetimeDays", got.LifetimeDays == want.LifetimeDays)
	check("ExpiresAt", sameTime(got.ExpiresAt, want.ExpiresAt))
	check("StartedAt", zeroOrSame(got.StartedAt, want.StartedAt))
	check("CompletedAt", zeroOrSame(got.CompletedAt, want.CompletedAt))
	check("Result (byte for byte)", bytes.Equal(got.Result, want.Result) && (got.Result == nil) == (want.Result == nil))
	check("PIIPurgedAt", zeroOrSame(got.PIIPurgedAt, want.PIIPurgedAt))
	check("TemplateID", got.TemplateID == want.TemplateID)
	check("CreatedAt", sameTime(got.CreatedAt, want.CreatedAt))
	check("UpdatedAt", sameTime(got.UpdatedAt, want.UpdatedAt))
	if len(diffs) > 0 {
		t.Errorf("%s: %s differ:\n got %+v\nwant %+v", what, strings.Join(diffs, ", "), got, want)
	}
}

func zeroOrSame(got, want time.Time) bool {
	if want.IsZero() {
		return got.IsZero()
	}
	return sameTime(got, want)
}

func testVerifications(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	t.Run("CreateAndGet", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		want := mustVerification(t, s, newVerification(a.ID))
		got, err := s.GetVerification(ctx, a.ID, want.ID)
		if err != nil {
			t.Fatalf("GetVerification: %v", err)
		}
		equalVerification(t, "GetVerification", got, want)
		got, err = s.GetVerificationByTokenHash(ctx, want.TokenHash)
		if err != nil {
			t.Fatalf("GetVerificationByTokenHash: %v", err)
		}
		equalVerification(t, "GetVerificationByTokenHash", got, want)
	})

	t.Run("EmptyOptionalFieldsRoundTrip", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		v := newVerification(a.ID)
		v.Options, v.ExternalID, v.WebhookURL, v.WebhookHeaders, v.Message = nil, "", "", map[string]string{}, ""
		want := mustVerification(t, s, v)
		got, err := s.GetVerification(ctx, a.ID, v.ID)
		if err != nil {
			t.Fatalf("GetVerification: %v", err)
		}
		equalVerification(t, "empty fields", got, want)
	})

	t.Run("CreateRules", func(t *testing.T) {
		t.Parallel()
		a, other := mustAccount(t, s), mustAccount(t, s)
		started := newVerification(a.ID)
		started.Status = verifier.StatusStarted
		wantErr(t, "create started", s.CreateVerification(ctx, started, unlimited), verifier.ErrInvalidTransition)
		badType := newVerification(a.ID)
		badType.Type = "premium"
		wantErr(t, "create unknown type", s.CreateVerification(ctx, badType, unlimited), verifier.ErrInvalid)
		badJSON := newVerification(a.ID)
		badJSON.Options = json.RawMessage(`{"a":`)
		wantErr(t, "create bad options JSON", s.CreateVerification(ctx, badJSON, unlimited), verifier.ErrInvalid)
		for _, al := range []verifier.Allowance{unlimited, {Limit: 5}} {
			wantErr(t, "create for missing account", s.CreateVerification(ctx, newVerification(uuid.NewString()), al), verifier.ErrNotFound)
		}
		tpl := mustTemplate(t, s, other.ID)
		foreign := newVerification(a.ID)
		foreign.TemplateID = tpl.ID
		wantErr(t, "create with another account's template", s.CreateVerification(ctx, foreign, unlimited), verifier.ErrNotFound)
		missing := newVerification(a.ID)
		missing.TemplateID = uuid.NewString()
		wantErr(t, "create with missing template", s.CreateVerification(ctx, missing, unlimited), verifier.ErrNotFound)

		first := mustVerification(t, s, newVerification(a.ID))
		dupID := newVerification(a.ID)
		dupID.ID = first.ID
		wantErr(t, "duplicate id", s.CreateVerification(ctx, dupID, unlimited), verifier.ErrConflict)
		dupToken := newVerification(a.ID)
		dupToken.TokenHash = bytes.Clone(first.TokenHash)
		wantErr(t, "duplicate token hash", s.CreateVerification(ctx, dupToken, unlimited), verifier.ErrConflict)

		page, err := s.ListVerifications(ctx, a.ID, verifier.VerificationFilter{})
		if err != nil {
			t.Fatalf("ListVerifications: %v", err)
		}
		if len(page.Items) != 1 || page.Items[0].ID != first.ID {
			t.Errorf("refused creates left rows behind: %d listed", len(page.Items))
		}
	})

	t.Run("TenantIsolation", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		v := mustVerification(t, s, newVerification(a.ID))
		_, err := s.GetVerification(ctx, b.ID, v.ID)
		wantErr(t, "GetVerification(other account)", err, verifier.ErrNotFound)
		_, err = s.GetVerification(ctx, a.ID, "not-a-uuid")
		wantErr(t, "GetVerification(malformed id)", err, verifier.ErrNotFound)
		_, err = s.GetVerification(ctx, a.ID, uuid.NewString())
		wantErr(t, "GetVerification(unknown id)", err, verifier.ErrNotFound)
		_, err = s.GetVerificationByTokenHash(ctx, randomBytes(32))
		wantErr(t, "GetVerificationByTokenHash(unknown)", err, verifier.ErrNotFound)
		called := false
		_, err = s.UpdateVerification(ctx, b.ID, v.ID, func(*verifier.Verification) error { called = true; return nil })
		wantErr(t, "UpdateVerification(other account)", err, verifier.ErrNotFound)
		if called {
			t.Error("UpdateVerification called fn for another account's verification")
		}
		wantErr(t, "DeleteVerification(other account)", s.DeleteVerification(ctx, b.ID, v.ID, base), verifier.ErrNotFound)
		page, err := s.ListVerifications(ctx, b.ID, verifier.VerificationFilter{})
		if err != nil || len(page.Items) != 0 {
			t.Errorf("ListVerifications(other account) = %d items, %v; want none", len(page.Items), err)
		}
		got, err := s.GetVerification(ctx, a.ID, v.ID)
		if err != nil {
			t.Fatalf("GetVerification(owner): %v", err)
		}
		equalVerification(t, "untouched by the other account", got, v)
	})

	t.Run("Lifecycle", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		want := mustVerification(t, s, newVerification(a.ID))
		step := func(to verifier.Status, edit func(*verifier.Verification)) {
			t.Helper()
			got, err := s.UpdateVerification(ctx, a.ID, want.ID, func(v *verifier.Verification) error {
				v.Status = to
				edit(v)
				return nil
			})
			if err != nil {
				t.Fatalf("UpdateVerification → %s: %v", to, err)
			}
			want.Status = to
			edit(&want)
			want = storedV(want)
			equalVerification(t, "UpdateVerification → "+string(to), got, want)
			stored, err := s.GetVerification(ctx, a.ID, want.ID)
			if err != nil {
				t.Fatalf("GetVerification: %v", err)
			}
			equalVerification(t, "stored after → "+string(to), stored, want)
		}
		step(verifier.StatusStarted, func(v *verifier.Verification) {
			v.StartedAt, v.UpdatedAt = base.Add(time.Minute), base.Add(time.Minute)
		})
		step(verifier.StatusManualReview, func(v *verifier.Verification) {
			v.CompletedAt, v.UpdatedAt = base.Add(3*time.Minute), base.Add(3*time.Minute)
			v.Result = json.RawMessage(`{"request_id": "x",  "verification":{"manual_review_requested":true}}`)
		})
		step(verifier.StatusCompleted, func(v *verifier.Verification) {
			v.Result = json.RawMessage(`{"request_id":"x","verification":{"over_18":true}}`)
			v.PIIPurgedAt, v.UpdatedAt = base.Add(time.Hour), base.Add(time.Hour)
		})
		for _, to := range []verifier.Status{verifier.StatusStarted, verifier.StatusPending, verifier.StatusExpired, verifier.StatusCanceled, verifier.StatusManualReview, "bogus"} {
			_, err := s.UpdateVerification(ctx, a.ID, want.ID, func(v *verifier.Verification) error {
				v.Status, v.Message = to, "must not be written"
				return nil
			})
			wantErr(t, "completed → "+string(to), err, verifier.ErrInvalidTransition)
		}
		got, err := s.GetVerification(ctx, a.ID, want.ID)
		if err != nil {
			t.Fatalf("GetVerification: %v", err)
		}
		equalVerification(t, "after refused transitions", got, want)
	})

	t.Run("EveryTransitionThroughUpdate", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		// reach puts a fresh verification in status st along allowed steps.
		paths := map[verifier.Status][]verifier.Status{
			verifier.StatusPending:      nil,
			verifier.StatusStarted:      {verifier.StatusStarted},
			verifier.StatusManualReview: {verifier.StatusStarted, verifier.StatusManualReview},
			verifier.StatusCompleted:    {verifier.StatusStarted, verifier.StatusCompleted},
			verifier.StatusExpired:      {verifier.StatusExpired},
			verifier.StatusCanceled:     {verifier.StatusCanceled},
		}
		setStatus := func(id string, to verifier.Status) error {
			_, err := s.UpdateVerification(ctx, a.ID, id, func(v *verifier.Verification) error { v.Status = to; return nil })
			return err
		}
		for _, from := range verifier.Statuses {
			for _, to := range verifier.Statuses {
				if from == to {
					continue
				}
				v := mustVerification(t, s, newVerification(a.ID))
				for _, st := range paths[from] {
					if err := setStatus(v.ID, st); err != nil {
						t.Fatalf("reaching %s: %v", from, err)
					}
				}
				err := setStatus(v.ID, to)
				if want := verifier.CheckTransition(from, to); (want == nil) != (err == nil) || (err != nil && !errors.Is(err, verifier.ErrInvalidTransition)) {
					t.Errorf("%s → %s through UpdateVerification: %v; CheckTransition says %v", from, to, err, want)
				}
			}
		}
	})

	t.Run("UpdaterRules", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		tpl := mustTemplate(t, s, a.ID)
		v := newVerification(a.ID)
		v.TemplateID = tpl.ID
		want := mustVerification(t, s, v)
		_, err := s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
			x.Message = "should not be written"
			x.WebhookHeaders["X-Secret"] = "changed"
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("UpdateVerification returned %v; want the updater's error as is", err)
		}
		got, err := s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
			x.ID, x.AccountID, x.TokenHash, x.Type = uuid.NewString(), uuid.NewString(), randomBytes(32), verifier.TypeFull
			x.TemplateID, x.CreatedAt = "", base.Add(-time.Hour)
			x.ExternalID = "changed-ref"
			return nil
		})
		if err != nil {
			t.Fatalf("UpdateVerification: %v", err)
		}
		want.ExternalID = "changed-ref"
		equalVerification(t, "immutable fields kept", got, want)
		_, err = s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
			x.Result = json.RawMessage("{not json")
			return nil
		})
		wantErr(t, "UpdateVerification(bad result JSON)", err, verifier.ErrInvalid)
		stored, err := s.GetVerificationByTokenHash(ctx, v.TokenHash)
		if err != nil {
			t.Fatalf("GetVerificationByTokenHash: %v", err)
		}
		equalVerification(t, "after refused updates", stored, want)
	})

	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		v := newVerification(a.ID)
		v.Message = ""
		mustVerification(t, s, v)
		const n = 20
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
					x.Message += "."
					return nil
				})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("concurrent UpdateVerification: %v", err)
			}
		}
		got, err := s.GetVerification(ctx, a.ID, v.ID)
		if err != nil {
			t.Fatalf("GetVerification: %v", err)
		}
		if len(got.Message) != n {
			t.Errorf("%d of %d concurrent updates kept", len(got.Message), n)
		}
	})

	t.Run("ConcurrentStartsOnlyOneWins", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		v := mustVerification(t, s, newVerification(a.ID))
		const n = 10
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
					if x.Status != verifier.StatusPending {
						return verifier.ErrInvalidTransition // the first open wins; later ones see started
					}
					x.Status, x.StartedAt = verifier.StatusStarted, base.Add(time.Duration(i)*time.Second)
					return nil
				})
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, verifier.ErrInvalidTransition):
				t.Errorf("concurrent start: %v", err)
			}
		}
		if won != 1 {
			t.Errorf("%d of %d concurrent first opens started the verification; want exactly 1", won, n)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		v := mustVerification(t, s, newVerification(a.ID))
		if err := s.DeleteVerification(ctx, a.ID, v.ID, base.Add(time.Hour)); err != nil {
			t.Fatalf("DeleteVerification: %v", err)
		}
		_, err := s.GetVerification(ctx, a.ID, v.ID)
		wantErr(t, "GetVerification(deleted)", err, verifier.ErrNotFound)
		_, err = s.GetVerificationByTokenHash(ctx, v.TokenHash)
		wantErr(t, "GetVerificationByTokenHash(deleted)", err, verifier.ErrNotFound)
		_, err = s.UpdateVerification(ctx, a.ID, v.ID, func(*verifier.Verification) error { return nil })
		wantErr(t, "UpdateVerification(deleted)", err, verifier.ErrNotFound)
		wantErr(t, "DeleteVerification(again)", s.DeleteVerification(ctx, a.ID, v.ID, base), verifier.ErrNotFound)
		wantErr(t, "DeleteVerification(malformed)", s.DeleteVerification(ctx, a.ID, "x", base), verifier.ErrNotFound)
		page, err := s.ListVerifications(ctx, a.ID, verifier.VerificationFilter{})
		if err != nil || len(page.Items) != 0 {
			t.Errorf("ListVerifications after delete = %d items, %v; want none", len(page.Items), err)
		}
	})

	t.Run("ValuesAreCopies", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		in := newVerification(a.ID)
		want := mustVerification(t, s, in)
		in.Options[0], in.TokenHash[0], in.WebhookHeaders["X-Shop"] = ' ', in.TokenHash[0]^0xff, "mutated input"
		got, err := s.GetVerification(ctx, a.ID, want.ID)
		if err != nil {
			t.Fatalf("GetVerification: %v", err)
		}
		got.Options[1], got.WebhookHeaders["X-Shop"] = ' ', "mutated output"
		upd, err := s.UpdateVerification(ctx, a.ID, want.ID, func(x *verifier.Verification) error {
			x.Options[2] = ' '
			x.WebhookHeaders["X-Added"] = "1"
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("UpdateVerification: %v, %+v", err, upd)
		}
		again, err := s.GetVerificationByTokenHash(ctx, want.TokenHash)
		if err != nil {
			t.Fatalf("GetVerificationByTokenHash: %v", err)
		}
		equalVerification(t, "after mutating copies", again, want)
	})
}
