package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

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
