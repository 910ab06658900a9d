package storetest

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

func testQuota(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	create := func(accountID string, typ verifier.Type, created time.Time, a verifier.Allowance) (verifier.Verification, error) {
		v := newVerification(accountID)
		v.Type, v.CreatedAt, v.UpdatedAt = typ, created, created
		return v, s.CreateVerification(ctx, v, a)
	}
	setStatus := func(t *testing.T, v verifier.Verification, path ...verifier.Status) {
		t.Helper()
		for _, st := range path {
			if _, err := s.UpdateVerification(ctx, v.AccountID, v.ID, func(x *verifier.Verification) error { x.Status = st; return nil }); err != nil {
				t.Fatalf("→ %s: %v", st, err)
			}
		}
	}
	wantQuota := func(t *testing.T, err error, typ verifier.Type) {
		t.Helper()
		var qe *verifier.QuotaError
		if !errors.Is(err, verifier.ErrQuotaExceeded) || !errors.As(err, &qe) || qe.Type != typ {
			t.Fatalf("error %v; want a *QuotaError for %s", err, typ)
		}
	}
	usage := func(t *testing.T, accountID string, since time.Time) map[verifier.Type]int {
		t.Helper()
		u, err := s.QuotaUsage(ctx, accountID, since)
		if err != nil {
			t.Fatalf("QuotaUsage: %v", err)
		}
		return u
	}

	t.Run("SlotsPerType", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		two := verifier.Allowance{Limit: 2}
		var made []verifier.Verification
		for range 2 {
			v, err := create(a.ID, verifier.TypeFull, base, two)
			if err != nil {
				t.Fatalf("create within allowance: %v", err)
			}
			made = append(made, v)
		}
		_, err := create(a.ID, verifier.TypeFull, base, two)
		wantQuota(t, err, verifier.TypeFull)
		if _, err := create(a.ID, verifier.TypeBasic, base, two); err != nil {
			t.Fatalf("another type's allowance is separate: %v", err)
		}
		_, err = create(a.ID, verifier.TypeCore, base, verifier.Allowance{Limit: 0})
		wantQuota(t, err, verifier.TypeCore)

		// Canceling frees a slot; completing keeps it used.
		setStatus(t, made[0], verifier.StatusCanceled)
		third, err := create(a.ID, verifier.TypeFull, base, two)
		if err != nil {
			t.Fatalf("create after a cancel freed a slot: %v", err)
		}
		setStatus(t, third, verifier.StatusStarted, verifier.StatusCompleted)
		_, err = create(a.ID, verifier.TypeFull, base, two)
		wantQuota(t, err, verifier.TypeFull)

		// Deleting an unfinished one frees its slot; deleting a completed one
		// does not give the allowance back.
		if err := s.DeleteVerification(ctx, a.ID, made[1].ID, base); err != nil {
			t.Fatalf("DeleteVerification: %v", err)
		}
		fourth, err := create(a.ID, verifier.TypeFull, base, two)
		if err != nil {
			t.Fatalf("create after deleting an unfinished one: %v", err)
		}
		if err := s.DeleteVerification(ctx, a.ID, third.ID, base); err != nil {
			t.Fatalf("DeleteVerification: %v", err)
		}
		_, err = create(a.ID, verifier.TypeFull, base, two)
		wantQuota(t, err, verifier.TypeFull)

		// manual_review and expired.
		setStatus(t, fourth, verifier.StatusStarted, verifier.StatusManualReview)
		_, err = create(a.ID, verifier.TypeFull, base, two)
		wantQuota(t, err, verifier.TypeFull)

		got := usage(t, a.ID, time.Time{})
		want := map[verifier.Type]int{verifier.TypeCore: 0, verifier.TypeBasic: 1, verifier.TypeFull: 2}
		for typ, n := range want {
			if got[typ] != n {
				t.Errorf("QuotaUsage[%s] = %d; want %d (all: %v)", typ, got[typ], n, got)
			}
		}
		if _, err := create(a.ID, verifier.TypeFull, base, unlimited); err != nil {
			t.Errorf("unlimited allowance refused: %v", err)
		}
		if _, err := create(a.ID, verifier.TypeFull, base, verifier.Allowance{Limit: math.MaxInt}); err != nil {
			t.Errorf("allowance of MaxInt refused: %v", err)
		}
	})

	// A create naming a template takes the counted path with the template
	// check (PostgreSQL runs statements of their own for it): its own
	// template is counted, another account's or a missing one is refused
	// and takes no slot. The first create makes the counters, and the
	// allowance leaves room on every stripe, so the refusals meet the fast
	// path's first statement.
	t.Run("TemplatesUnderAllowance", func(t *testing.T) {
		t.Parallel()
		a, other := mustAccount(t, s), mustAccount(t, s)
		roomy := verifier.Allowance{Limit: 1000}
		own := mustTemplate(t, s, a.ID).ID
		for _, tplID := range []string{own, "", own} {
			v := newVerification(a.ID)
			v.TemplateID = tplID
			if err := s.CreateVerification(ctx, v, roomy); err != nil {
				t.Fatalf("create with template %q: %v", tplID, err)
			}
			if got, err := s.GetVerification(ctx, a.ID, v.ID); err != nil || got.TemplateID != tplID {
				t.Fatalf("GetVerification = %q, %v; want template %q", got.TemplateID, err, tplID)
			}
		}
		for name, tplID := range map[string]string{"another account's": mustTemplate(t, s, other.ID).ID, "a missing": uuid.NewString()} {
			v := newVerification(a.ID)
			v.TemplateID = tplID
			wantErr(t, "create with "+name+" template", s.CreateVerification(ctx, v, roomy), verifier.ErrNotFound)
		}
		if u := usage(t, a.ID, base); u[verifier.TypeCore] != 3 {
			t.Fatalf("usage %d after three creates and two refusals; want 3", u[verifier.TypeCore])
		}
	})

	t.Run("PeriodStart", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		period := base.Add(30 * 24 * time.Hour)
		for range 3 {
			if _, err := create(a.ID, verifier.TypeBasic, base, unlimited); err != nil {
				t.Fatalf("create in the previous period: %v", err)
			}
		}
		one := verifier.Allowance{Limit: 1, Since: period}
		if _, err := create(a.ID, verifier.TypeBasic, period, one); err != nil {
			t.Fatalf("earlier periods must not count: %v", err)
		}
		_, err := create(a.ID, verifier.TypeBasic, period.Add(time.Second), one)
		wantQuota(t, err, verifier.TypeBasic)
		if got := usage(t, a.ID, period)[verifier.TypeBasic]; got != 1 {
			t.Errorf("QuotaUsage since the period = %d; want 1", got)
		}
		if got := usage(t, a.ID, time.Time{})[verifier.TypeBasic]; got != 4 {
			t.Errorf("QuotaUsage of all time = %d; want 4", got)
		}
	})

	t.Run("ConcurrentCreatesAgainstLastSlots", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		const used, free, tries = 3, 4, 24
		al := verifier.Allowance{Limit: used + free}
		for range used {
			if _, err := create(a.ID, verifier.TypeCore, base, al); err != nil {
				t.Fatalf("prefill: %v", err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, tries)
		start := make(chan struct{})
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = create(a.ID, verifier.TypeCore, base, al)
			}()
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, verifier.ErrQuotaExceeded):
				t.Errorf("concurrent create: %v", err)
			}
		}
		if ok != free {
			t.Errorf("%d of %d concurrent creates succeeded against %d free slots; want exactly %d", ok, tries, free, free)
		}
		if got := usage(t, a.ID, time.Time{})[verifier.TypeCore]; got != used+free {
			t.Errorf("QuotaUsage = %d; want %d", got, used+free)
		}
	})

	// A store may count slots apart from the rows (sqlstore's counters);
	// these hold it to the rows' count whatever the order of events.
	t.Run("UnlimitedCreatesCountLater", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		three := verifier.Allowance{Limit: 3}
		for range 2 {
			if _, err := create(a.ID, verifier.TypeCore, base, unlimited); err != nil {
				t.Fatalf("unlimited create: %v", err)
			}
		}
		if _, err := create(a.ID, verifier.TypeCore, base, three); err != nil {
			t.Fatalf("third slot of 3: %v", err)
		}
		_, err := create(a.ID, verifier.TypeCore, base, three)
		wantQuota(t, err, verifier.TypeCore)
		// Unlimited again between limited creates, then a cancel.
		extra, err := create(a.ID, verifier.TypeCore, base, unlimited)
		if err != nil {
			t.Fatalf("unlimited create: %v", err)
		}
		four := verifier.Allowance{Limit: 4}
		_, err = create(a.ID, verifier.TypeCore, base, four)
		wantQuota(t, err, verifier.TypeCore)
		setStatus(t, extra, verifier.StatusCanceled)
		if _, err := create(a.ID, verifier.TypeCore, base, four); err != nil {
			t.Fatalf("fourth slot of 4 after a cancel: %v", err)
		}
		_, err = create(a.ID, verifier.TypeCore, base, four)
		wantQuota(t, err, verifier.TypeCore)
	})

	t.Run("AllowanceChanges", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		var made []verifier.Verification
		for range 3 {
			v, err := create(a.ID, verifier.TypeBasic, base, verifier.Allowance{Limit: 3})
			if err != nil {
				t.Fatalf("create within 3: %v", err)
			}
			made = append(made, v)
		}
		two := verifier.Allowance{Limit: 2}
		_, err := create(a.ID, verifier.TypeBasic, base, two)
		wantQuota(t, err, verifier.TypeBasic)
		setStatus(t, made[0], verifier.StatusCanceled)
		_, err = create(a.ID, verifier.TypeBasic, base, two)
		wantQuota(t, err, verifier.TypeBasic) // 2 held of 2
		if err := s.DeleteVerification(ctx, a.ID, made[1].ID, base); err != nil {
			t.Fatalf("DeleteVerification: %v", err)
		}
		if _, err := create(a.ID, verifier.TypeBasic, base, two); err != nil {
			t.Fatalf("second slot of 2: %v", err)
		}
		_, err = create(a.ID, verifier.TypeBasic, base, two)
		wantQuota(t, err, verifier.TypeBasic)
		for range 3 {
			if _, err := create(a.ID, verifier.TypeBasic, base, verifier.Allowance{Limit: 5}); err != nil {
				t.Fatalf("create within a raised allowance of 5: %v", err)
			}
		}
		_, err = create(a.ID, verifier.TypeBasic, base, verifier.Allowance{Limit: 5})
		wantQuota(t, err, verifier.TypeBasic)
	})

	t.Run("CreatesRacingReleases", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		const limit, cancels, tries = 10, 6, 20
		al := verifier.Allowance{Limit: limit}
		var held []verifier.Verification
		for range limit {
			v, err := create(a.ID, verifier.TypeFull, base, al)
			if err != nil {
				t.Fatalf("prefill: %v", err)
			}
			held = append(held, v)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok := 0
		start := make(chan struct{})
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if i < cancels {
					if _, err := s.UpdateVerification(ctx, a.ID, held[i].ID, func(x *verifier.Verification) error { x.Status = verifier.StatusCanceled; return nil }); err != nil {
						t.Errorf("cancel: %v", err)
					}
				}
				_, err := create(a.ID, verifier.TypeFull, base, al)
				switch {
				case err == nil:
					mu.Lock()
					ok++
					mu.Unlock()
				case !errors.Is(err, verifier.ErrQuotaExceeded):
					t.Errorf("create: %v", err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if ok > cancels {
			t.Errorf("%d creates succeeded against %d released slots", ok, cancels)
		}
		// Whatever interleaving: exactly the rest of the allowance is left.
		for range cancels - ok {
			if _, err := create(a.ID, verifier.TypeFull, base, al); err != nil {
				t.Fatalf("create into a slot left free: %v", err)
			}
		}
		_, err := create(a.ID, verifier.TypeFull, base, al)
		wantQuota(t, err, verifier.TypeFull)
		if got := usage(t, a.ID, time.Time{})[verifier.TypeFull]; got != limit {
			t.Errorf("QuotaUsage = %d; want %d", got, limit)
		}
	})
}
