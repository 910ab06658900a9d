package bigcommerce_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

var epoch = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

// setup starts a double and a client sharing one fake clock.
func setup(t *testing.T, opts bigcommercetest.Options, configure ...func(*bigcommerce.Config)) (*bigcommercetest.Double, *bigcommerce.Client, *bigcommercetest.Clock) {
	t.Helper()
	clock := bigcommercetest.NewClock(epoch)
	opts.Now = clock.Now
	d := bigcommercetest.Start(t, opts)
	cfg := bigcommerce.Config{
		StoreHash: d.StoreHash(), Token: bigcommercetest.DefaultToken, BaseURL: d.BaseURL(),
		Now: clock.Now, Sleep: clock.Sleep,
	}
	for _, f := range configure {
		f(&cfg)
	}
	c, err := bigcommerce.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d, c, clock
}

const cartID = "0b9f5a3e-8c1d-4a52-9a3e-6f2b1c7d8e90"

// TestMetafieldsLifecycle runs list, create, update, upsert and delete on
// each of the three resources, each answer checked by the double against
// its document.
func TestMetafieldsLifecycle(t *testing.T) {
	for _, tc := range []struct {
		res      bigcommerce.Resource
		kind, id string
	}{
		{bigcommerce.Cart(cartID), "cart", cartID},
		{bigcommerce.Customer(4927), "customer", "4927"},
		{bigcommerce.Order(218), "order", "218"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			d, c, _ := setup(t, bigcommercetest.Options{})
			ctx := context.Background()

			got, err := c.ListMetafields(ctx, tc.res, "")
			if err != nil || len(got) != 0 {
				t.Fatalf("empty list = %v, %v", got, err)
			}
			created, err := c.CreateMetafield(ctx, tc.res, "verification", `{"pass":true}`, "outcome")
			if err != nil {
				t.Fatal(err)
			}
			if created.ID == 0 || created.Key != "verification" || created.Value != `{"pass":true}` ||
				created.Namespace != bigcommerce.Namespace || created.PermissionSet != "app_only" || created.ResourceID != tc.id {
				t.Fatalf("created = %+v", created)
			}
			if _, err := c.CreateMetafield(ctx, tc.res, "verification", "again", ""); !errors.Is(err, bigcommerce.ErrConflict) {
				t.Fatalf("duplicate create: %v, want ErrConflict", err)
			}
			if _, err := c.CreateMetafield(ctx, tc.res, "other", "x", ""); err != nil {
				t.Fatal(err)
			}

			updated, err := c.UpdateMetafield(ctx, tc.res, created.ID, "verification", `{"pass":false}`, "outcome")
			if err != nil || updated.ID != created.ID || updated.Value != `{"pass":false}` {
				t.Fatalf("update = %+v, %v", updated, err)
			}
			one, err := c.ListMetafields(ctx, tc.res, "verification")
			if err != nil || len(one) != 1 || one[0].Value != `{"pass":false}` || one[0].ID != created.ID {
				t.Fatalf("list by key = %+v, %v", one, err)
			}
			all, err := c.ListMetafields(ctx, tc.res, "")
			if err != nil || len(all) != 2 {
				t.Fatalf("list = %+v, %v", all, err)
			}

			up, err := c.UpsertMetafield(ctx, tc.res, "verification", "v3", "")
			if err != nil || up.ID != created.ID || up.Value != "v3" {
				t.Fatalf("upsert existing = %+v, %v", up, err)
			}
			fresh, err := c.UpsertMetafield(ctx, tc.res, "new", "v1", "")
			if err != nil || fresh.ID == created.ID {
				t.Fatalf("upsert new = %+v, %v", fresh, err)
			}

			if err := c.DeleteMetafield(ctx, tc.res, created.ID); err != nil {
				t.Fatal(err)
			}
			if err := c.DeleteMetafield(ctx, tc.res, created.ID); !errors.Is(err, bigcommerce.ErrNotFound) {
				t.Fatalf("second delete: %v, want ErrNotFound", err)
			}
			stored := d.Metafields(tc.kind, tc.id)
			if len(stored) != 2 {
				t.Fatalf("stored after delete = %+v", stored)
			}
			for _, m := range stored {
				if m.Namespace != "idgate" || m.PermissionSet != "app_only" {
					t.Errorf("stored %+v outside our namespace or not app_only", m)
				}
			}
		})
	}
}

func TestMetafieldInputValidation(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	long := make([]byte, 65536)
	for i := range long {
		long[i] = 'a'
	}
	cases := []struct {
		name string
		res  bigcommerce.Resource
		key  string
		val  string
	}{
		{"cart id not a UUID", bigcommerce.Cart("../customers"), "k", "v"},
		{"empty cart id", bigcommerce.Cart(""), "k", "v"},
		{"customer id zero", bigcommerce.Customer(0), "k", "v"},
		{"negative order id", bigcommerce.Order(-4), "k", "v"},
		{"empty key", bigcommerce.Cart(cartID), "", "v"},
		{"long key", bigcommerce.Cart(cartID), string(long[:65]), "v"},
		{"empty value", bigcommerce.Cart(cartID), "k", ""},
		{"value too long", bigcommerce.Cart(cartID), "k", string(long)},
	}
	for _, tc := range cases {
		if _, err := c.CreateMetafield(ctx, tc.res, tc.key, tc.val, ""); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", tc.name, err)
		}
	}
	if n := len(d.Requests()); n != 0 {
		t.Errorf("%d requests reached the platform; invalid input must be refused locally", n)
	}
}

func TestOutcomeRoundTrip(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	res := bigcommerce.Customer(77)
	if _, err := c.LoadOutcome(ctx, res); !errors.Is(err, bigcommerce.ErrNoOutcome) {
		t.Fatalf("load before save: %v, want ErrNoOutcome", err)
	}
	pass := bigcommerce.Outcome{
		VerificationID: "5b3c1f9e-0000-4000-8000-000000000001", Status: "completed", Pass: true,
		EvaluatedAt: clock.Now(), ExpiresAt: clock.Now().Add(24 * time.Hour),
	}
	if err := c.SaveOutcome(ctx, res, pass); err != nil {
		t.Fatal(err)
	}
	got, err := c.LoadOutcome(ctx, res)
	if err != nil || got.VerificationID != pass.VerificationID || !got.Pass || !got.ExpiresAt.Equal(pass.ExpiresAt) || got.Reasons == nil {
		t.Fatalf("load = %+v, %v", got, err)
	}
	if !got.Verified(clock.Now()) || got.Verified(pass.ExpiresAt) {
		t.Fatalf("Verified: want true before expiry and false at it")
	}
	fail := bigcommerce.Outcome{VerificationID: "second", Status: "completed", Pass: false, EvaluatedAt: clock.Now()}
	if err := c.SaveOutcome(ctx, res, fail); err != nil {
		t.Fatal(err)
	}
	got, err = c.LoadOutcome(ctx, res)
	if err != nil || got.VerificationID != "second" || got.Verified(clock.Now()) {
		t.Fatalf("a later failing outcome must replace the pass: %+v, %v", got, err)
	}
	if n := len(d.Metafields("customer", "77")); n != 1 {
		t.Fatalf("%d metafields stored, want one outcome key", n)
	}
	if v := d.Metafields("customer", "77")[0].Value; v != `{"verification_id":"second","status":"completed","pass":false,"reasons":[],"evaluated_at":"`+epoch.Format(time.RFC3339)+`"}` {
		t.Fatalf("stored value = %s", v)
	}
}
