package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// FlowStore is a backend with the end-user flow's persistence.
type FlowStore interface {
	verifier.Store
	flow.Store
}

// RunFlow checks flow.Store: sessions updated in one transaction (no lost
// update, the first creation included), kept per account, review images
// replaced by kind, and both deleted together.
func RunFlow(t *testing.T, newStore func(t *testing.T) FlowStore) {
	s := newStore(t)
	ctx := context.Background()
	fresh := func(t *testing.T) verifier.Verification {
		t.Helper()
		a := mustAccount(t, s)
		v := newVerification(a.ID)
		if err := s.CreateVerification(ctx, v, unlimited); err != nil {
			t.Fatal(err)
		}
		return v
	}

	t.Run("SessionRoundTrip", func(t *testing.T) {
		t.Parallel()
		v := fresh(t)
		if _, err := s.GetFlowSession(ctx, v.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("GetFlowSession before any update: %v, want ErrNotFound", err)
		}
		for i, want := range []string{"", "one"} {
			err := s.UpdateFlowSession(ctx, v.AccountID, v.ID, base, func(sealed []byte) ([]byte, error) {
				if string(sealed) != want {
					t.Errorf("update %d saw %q, want %q", i, sealed, want)
				}
				if i == 0 && sealed != nil {
					t.Errorf("first update saw %v, want nil", sealed)
				}
				return []byte([]string{"one", "two"}[i]), nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.GetFlowSession(ctx, v.ID)
		if err != nil || string(got) != "two" {
			t.Fatalf("GetFlowSession = %q, %v; want two", got, err)
		}
	})

	t.Run("UpdaterErrorWritesNothing", func(t *testing.T) {
		t.Parallel()
		v := fresh(t)
		boom := errors.New("boom")
		err := s.UpdateFlowSession(ctx, v.AccountID, v.ID, base, func([]byte) ([]byte, error) { return []byte("x"), boom })
		if !errors.Is(err, boom) {
			t.Fatalf("error %v, want the updater's", err)
		}
		if _, err := s.GetFlowSession(ctx, v.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("after a failed updater: %v, want ErrNotFound", err)
		}
	})

	t.Run("OtherAccountsAndUnknown", func(t *testing.T) {
		t.Parallel()
		v := fresh(t)
		other := mustAccount(t, s)
		for name, ids := range map[string][2]string{
			"other account":        {other.ID, v.ID},
			"unknown verification": {v.AccountID, uuid.NewString()},
			"malformed id":         {v.AccountID, "not-a-uuid"},
		} {
			called := false
			err := s.UpdateFlowSession(ctx, ids[0], ids[1], base, func([]byte) ([]byte, error) { called = true; return []byte("x"), nil })
			if !errors.Is(err, verifier.ErrNotFound) || called {
				t.Errorf("%s: UpdateFlowSession = %v (updater called %v), want ErrNotFound", name, err, called)
			}
		}
		if err := s.PutReviewImage(ctx, v.AccountID, uuid.NewString(), flow.ReviewSelfie, []byte("x"), base); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("PutReviewImage of an unknown verification: %v, want ErrNotFound", err)
		}
	})

	t.Run("ConcurrentUpdatesQueue", func(t *testing.T) {
		t.Parallel()
		v := fresh(t)
		const n = 8
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.UpdateFlowSession(ctx, v.AccountID, v.ID, base, func(sealed []byte) ([]byte, error) {
					c, _ := strconv.Atoi(string(sealed))
					return []byte(strconv.Itoa(c + 1)), nil
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.GetFlowSession(ctx, v.ID)
		if err != nil || string(got) != fmt.Sprint(n) {
			t.Fatalf("counter = %q, %v; want %d (a lost update)", got, err, n)
		}
	})

	t.Run("PurgeDueAndAbandoned", func(t *testing.T) {
		// Its own store: both lists span every account.
		s := newStore(t)
		a := mustAccount(t, s)
		at := func(d time.Duration) time.Time { return base.Add(d) }
		mode := verifier.ModeLive // of the next mk
		mk := func(to verifier.Status, completed time.Time, purged bool) string {
			v := newVerification(a.ID)
			v.Mode, mode = mode, verifier.ModeLive
			if err := s.CreateVerification(ctx, v, unlimited); err != nil {
				t.Fatal(err)
			}
			steps := map[verifier.Status][]verifier.Status{
				verifier.StatusCompleted: {verifier.StatusStarted, verifier.StatusCompleted},
				verifier.StatusExpired:   {verifier.StatusExpired},
				verifier.StatusCanceled:  {verifier.StatusCanceled},
				verifier.StatusStarted:   {verifier.StatusStarted},
			}[to]
			for _, st := range steps {
				if _, err := s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
					x.Status = st
					if st == verifier.StatusCompleted {
						x.Result, x.CompletedAt = []byte(`{"license_data":{}}`), completed
						if purged {
							x.PIIPurgedAt = completed
						}
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.UpdateFlowSession(ctx, a.ID, v.ID, base, func([]byte) ([]byte, error) { return []byte("s"), nil }); err != nil {
				t.Fatal(err)
			}
			return v.ID
		}
		old1 := mk(verifier.StatusCompleted, at(-72*time.Hour), false)
		mode = verifier.ModeTest // test verifications are purged on the same schedule, in their mode
		old2 := mk(verifier.StatusCompleted, at(-48*time.Hour), false)
		mk(verifier.StatusCompleted, at(-96*time.Hour), true) // purged already
		mk(verifier.StatusCompleted, at(time.Hour), false)    // not due
		expired, canceled := mk(verifier.StatusExpired, time.Time{}, false), mk(verifier.StatusCanceled, time.Time{}, false)
		mk(verifier.StatusStarted, time.Time{}, false) // a live flow
		deleted := mk(verifier.StatusCompleted, at(time.Hour), false)
		if err := s.DeleteVerification(ctx, a.ID, deleted, base); err != nil {
			t.Fatal(err)
		}

		refs, err := s.PurgeDue(ctx, base, 10)
		if err != nil || len(refs) != 2 || refs[0] != (flow.Ref{AccountID: a.ID, ID: old1}) ||
			refs[1] != (flow.Ref{AccountID: a.ID, ID: old2, Mode: verifier.ModeTest}) {
			t.Fatalf("PurgeDue = %+v, %v; want %s then %s", refs, err, old1, old2)
		}
		if refs, err := s.PurgeDue(ctx, base, 1); err != nil || len(refs) != 1 || refs[0].ID != old1 {
			t.Fatalf("PurgeDue limit 1 = %+v, %v", refs, err)
		}
		ids, err := s.AbandonedFlows(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(ids)
		want := []string{expired, canceled, deleted}
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Fatalf("AbandonedFlows = %v, want %v", ids, want)
		}
		for _, id := range ids {
			if err := s.DeleteFlowData(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if ids, err := s.AbandonedFlows(ctx, 10); err != nil || len(ids) != 0 {
			t.Fatalf("after deleting: %v, %v", ids, err)
		}
	})

	t.Run("ReviewImagesAndDelete", func(t *testing.T) {
		t.Parallel()
		v := fresh(t)
		other := mustAccount(t, s)
		for _, img := range []struct {
			kind flow.ReviewImage
			data string
		}{{flow.ReviewLicenseFront, "front-1"}, {flow.ReviewSelfie, "selfie-1"}, {flow.ReviewLicenseFront, "front-2"}} {
			if err := s.PutReviewImage(ctx, v.AccountID, v.ID, img.kind, []byte(img.data), base); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.ReviewImages(ctx, v.AccountID, v.ID)
		if err != nil || len(got) != 2 || !bytes.Equal(got[flow.ReviewLicenseFront], []byte("front-2")) ||
			!bytes.Equal(got[flow.ReviewSelfie], []byte("selfie-1")) {
			t.Fatalf("ReviewImages = %q, %v; want the latest of each kind", got, err)
		}
		if got, err := s.ReviewImages(ctx, other.ID, v.ID); err != nil || len(got) != 0 {
			t.Fatalf("another account's ReviewImages = %q, %v; want none", got, err)
		}
		// A passport's data page is kept under its own name (migration 13).
		pv := fresh(t)
		if err := s.PutReviewImage(ctx, pv.AccountID, pv.ID, flow.ReviewPassportPage, []byte("page-1"), base); err != nil {
			t.Fatal(err)
		}
		if got, err := s.ReviewImages(ctx, pv.AccountID, pv.ID); err != nil || len(got) != 1 || !bytes.Equal(got[flow.ReviewPassportPage], []byte("page-1")) {
			t.Fatalf("passport page ReviewImages = %q, %v", got, err)
		}
		// An ID card's front likewise (migration 14).
		cv := fresh(t)
		if err := s.PutReviewImage(ctx, cv.AccountID, cv.ID, flow.ReviewIDCardFront, []byte("card-1"), base); err != nil {
			t.Fatal(err)
		}
		if got, err := s.ReviewImages(ctx, cv.AccountID, cv.ID); err != nil || len(got) != 1 || !bytes.Equal(got[flow.ReviewIDCardFront], []byte("card-1")) {
			t.Fatalf("ID card front ReviewImages = %q, %v", got, err)
		}
		if err := s.UpdateFlowSession(ctx, v.AccountID, v.ID, base, func([]byte) ([]byte, error) { return []byte("s"), nil }); err != nil {
			t.Fatal(err)
		}
		for range 2 { // deleting nothing is not an error
			if err := s.DeleteFlowData(ctx, v.ID); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.GetFlowSession(ctx, v.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("session after DeleteFlowData: %v", err)
		}
		if got, err := s.ReviewImages(ctx, v.AccountID, v.ID); err != nil || len(got) != 0 {
			t.Errorf("review images after DeleteFlowData: %q, %v", got, err)
		}
	})
}
