package bigcommerce_test

import (
	"context"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/rulesets"
)

// TestOrderOutcomes lists the outcomes on orders only (not carts or
// customers, not other keys), newest first, with a review as written;
// the double checks the batch request and its answer against orders.v3.
func TestOrderOutcomes(t *testing.T) {
	_, c, clock := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	if got, err := c.OrderOutcomes(ctx); err != nil || len(got) != 0 {
		t.Fatalf("empty store = %v, %v", got, err)
	}
	failed := bigcommerce.Outcome{Status: "completed", Reasons: []rulesets.Reason{{Code: "under_21"}}, EvaluatedAt: epoch, HeldFrom: 11}
	for _, w := range []struct {
		res bigcommerce.Resource
		o   bigcommerce.Outcome
	}{
		{bigcommerce.Order(101), failed},
		{bigcommerce.Cart(cartID), failed},
		{bigcommerce.Customer(7), failed},
		{bigcommerce.Order(102), bigcommerce.Outcome{Status: "completed", Pass: true, EvaluatedAt: epoch}},
	} {
		if err := c.SaveOutcome(ctx, w.res, w.o); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CreateMetafield(ctx, bigcommerce.Order(103), "other", "x", ""); err != nil {
		t.Fatal(err)
	}
	reviewed := failed
	reviewed.Review = &bigcommerce.Review{Approved: true, UserID: 42, At: clock.Now().UTC()}
	if err := c.SaveOutcome(ctx, bigcommerce.Order(101), reviewed); err != nil {
		t.Fatal(err)
	}
	got, err := c.OrderOutcomes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].OrderID != 102 || got[1].OrderID != 101 {
		t.Fatalf("outcomes = %+v, want orders 102 then 101", got)
	}
	if !got[0].Outcome.Pass || got[1].Outcome.Pass || got[1].Outcome.HeldFrom != 11 || got[1].Outcome.Reasons[0].Code != "under_21" {
		t.Errorf("outcomes = %+v", got)
	}
	if r := got[1].Outcome.Review; r == nil || !r.Approved || r.UserID != 42 || !r.At.Equal(clock.Now()) {
		t.Errorf("review = %+v", r)
	}
}

// More outcomes than one page holds: every page is read, none twice.
func TestOrderOutcomesPages(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{Quota: 10000})
	ctx := context.Background()
	const n = 260 // listLimit + 10
	for id := int64(1); id <= n; id++ {
		if err := c.SaveOutcome(ctx, bigcommerce.Order(id), bigcommerce.Outcome{Status: "completed", Pass: true, EvaluatedAt: epoch}); err != nil {
			t.Fatal(err)
		}
	}
	before := len(d.Requests())
	got, err := c.OrderOutcomes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n || got[0].OrderID != n || got[n-1].OrderID != 1 {
		t.Fatalf("%d outcomes, first %d, last %d; want %d, newest first", len(got), got[0].OrderID, got[len(got)-1].OrderID, n)
	}
	if reqs := len(d.Requests()) - before; reqs != 2 {
		t.Errorf("%d requests, want 2 pages", reqs)
	}
}
