package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

func testList(t *testing.T, s verifier.Store) {
	ctx := context.Background()
	t.Parallel()
	a, other := mustAccount(t, s), mustAccount(t, s)
	mustVerification(t, s, newVerification(other.ID))

	// Eleven verifications: pairs share a created_at so the id tie-break is
	// exercised; statuses and external ids vary.
	var all []verifier.Verification
	for i := range 11 {
		v := newVerification(a.ID)
		v.CreatedAt = base.Add(time.Duration(i/2) * time.Minute)
		v.UpdatedAt = v.CreatedAt
		if i%3 == 0 {
			v.ExternalID = "shared-ref"
		}
		all = append(all, mustVerification(t, s, v))
		if i%4 == 1 {
			if _, err := s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
				x.Status = verifier.StatusCanceled
				return nil
			}); err != nil {
				t.Fatalf("cancel: %v", err)
			}
			all[len(all)-1].Status = verifier.StatusCanceled
		}
	}
	deleted := mustVerification(t, s, newVerification(a.ID))
	if err := s.DeleteVerification(ctx, a.ID, deleted.ID, base); err != nil {
		t.Fatalf("DeleteVerification: %v", err)
	}
	slices.SortFunc(all, func(x, y verifier.Verification) int {
		if c := y.CreatedAt.Compare(x.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(y.ID, x.ID)
	})

	// pages lists everything f selects, three at a time, following cursors.
	pages := func(t *testing.T, f verifier.VerificationFilter) []verifier.Verification {
		t.Helper()
		f.Limit = 3
		var got []verifier.Verification
		for range 20 {
			page, err := s.ListVerifications(ctx, a.ID, f)
			if err != nil {
				t.Fatalf("ListVerifications(%+v): %v", f, err)
			}
			if len(page.Items) > 3 {
				t.Fatalf("page of %d items; limit 3", len(page.Items))
			}
			got = append(got, page.Items...)
			if page.NextCursor == "" {
				return got
			}
			f.Cursor = page.NextCursor
		}
		t.Fatal("cursor never ended")
		return nil
	}
	same := func(t *testing.T, what string, got []verifier.Verification, want []verifier.Verification) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d items; want %d", what, len(got), len(want))
		}
		for i := range want {
			equalVerification(t, what, got[i], want[i])
		}
	}
	filter := func(keep func(verifier.Verification) bool) []verifier.Verification {
		var out []verifier.Verification
		for _, v := range all {
			if keep(v) {
				out = append(out, v)
			}
		}
		return out
	}

	same(t, "all, newest first", pages(t, verifier.VerificationFilter{}), all)
	same(t, "status canceled", pages(t, verifier.VerificationFilter{Statuses: []verifier.Status{verifier.StatusCanceled}}),
		filter(func(v verifier.Verification) bool { return v.Status == verifier.StatusCanceled }))
	same(t, "status pending or canceled", pages(t, verifier.VerificationFilter{Statuses: []verifier.Status{verifier.StatusPending, verifier.StatusCanceled}}), all)
	// Bounds are compared at the stored (microsecond) precision.
	from, before := base.Add(time.Minute), base.Add(4*time.Minute)
	fromUS, beforeUS := wantTime(from), wantTime(before)
	same(t, "created range", pages(t, verifier.VerificationFilter{CreatedFrom: from, CreatedBefore: before}),
		filter(func(v verifier.Verification) bool { return !v.CreatedAt.Before(fromUS) && v.CreatedAt.Before(beforeUS) }))
	same(t, "external id", pages(t, verifier.VerificationFilter{ExternalID: "shared-ref"}),
		filter(func(v verifier.Verification) bool { return v.ExternalID == "shared-ref" }))
	same(t, "external id and status", pages(t, verifier.VerificationFilter{ExternalID: "shared-ref", Statuses: []verifier.Status{verifier.StatusPending}}),
		filter(func(v verifier.Verification) bool {
			return v.ExternalID == "shared-ref" && v.Status == verifier.StatusPending
		}))

	page, err := s.ListVerifications(ctx, a.ID, verifier.VerificationFilter{})
	if want := min(verifier.DefaultListLimit, len(all)); err != nil || len(page.Items) != want {
		t.Errorf("default page = %d items, %v; want %d", len(page.Items), err, want)
	}

	for _, c := range []struct {
		field string
		f     verifier.VerificationFilter
	}{
		{"limit", verifier.VerificationFilter{Limit: -1}},
		{"limit", verifier.VerificationFilter{Limit: verifier.MaxListLimit + 1}},
		{"status", verifier.VerificationFilter{Statuses: []verifier.Status{"done"}}},
		{"cursor", verifier.VerificationFilter{Cursor: "not-a-cursor"}},
		{"cursor", verifier.VerificationFilter{Cursor: "MTIzOm5vdC1hLXV1aWQ"}}, // "123:not-a-uuid"
	} {
		_, err := s.ListVerifications(ctx, a.ID, c.f)
		var ve *verifier.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != c.field {
			t.Errorf("ListVerifications(%+v) = %v; want a validation error on %q", c.f, err, c.field)
		}
	}
}
