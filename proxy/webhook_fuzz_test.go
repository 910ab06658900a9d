package proxy

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/cache/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// memPlatform keeps outcomes in memory by resource.
type memPlatform struct {
	mu       sync.Mutex
	outcomes map[string]bigcommerce.Outcome
}

func (p *memPlatform) LoadOutcome(_ context.Context, r bigcommerce.Resource) (bigcommerce.Outcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.outcomes[r.String()]
	if !ok {
		return o, bigcommerce.ErrNoOutcome
	}
	return o, nil
}

func (p *memPlatform) SaveOutcome(_ context.Context, r bigcommerce.Resource, o bigcommerce.Outcome) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.outcomes[r.String()] = o
	return nil
}

func (p *memPlatform) GetOrder(context.Context, int64) (bigcommerce.OrderSummary, error) {
	return bigcommerce.OrderSummary{}, bigcommerce.ErrNotFound
}

func (p *memPlatform) ShippingAddresses(context.Context, int64) ([]bigcommerce.ShipTo, error) {
	return nil, bigcommerce.ErrNotFound
}

func (p *memPlatform) HeldOrders(context.Context, string) ([]bigcommerce.OrderSummary, error) {
	return nil, nil
}

func (p *memPlatform) SetOrderStatus(context.Context, int64, int) error {
	return bigcommerce.ErrNotFound
}

func (p *memPlatform) GetCart(context.Context, string) (bigcommerce.CartSummary, error) {
	return bigcommerce.CartSummary{}, bigcommerce.ErrNotFound
}

type oneStore struct{ st *Store }

func (o oneStore) Store(_ context.Context, hash string) (*Store, error) {
	if hash != o.st.Hash {
		return nil, ErrUnknownStore
	}
	return o.st, nil
}

// A correctly signed delivery of any body never panics, and is either
// refused as invalid input or stores exactly the ruleset's decision.
func FuzzApplyWebhook(f *testing.F) {
	st := validStore()
	if err := st.Normalize(); err != nil {
		f.Fatal(err)
	}
	sealer := seal.Ephemeral()
	now := time.Unix(1_800_000_000, 0)
	ref, _ := SealRef(sealer, st.Hash, Shopper{CartID: "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01", CustomerID: 3})
	f.Add(`{"request_id":"5c7d3b8e-2f41-4c6a-9d0e-1a2b3c4d5e6f","external_id":"` + ref + `","verification":{"license_appears_real":true,"license_expired":false,"webcam_appears_live":true,"face_match_score":"likely_match","webcam_face_matches_license_photo":true}}`)
	f.Add(`{"request_id":"5c7d3b8e-2f41-4c6a-9d0e-1a2b3c4d5e6f","external_id":"` + ref + `","verification":{"manual_review_requested":true,"webcam_face_matches_license_photo":"undetermined"}}`)
	f.Add(`{"request_id":"x","external_id":"` + ref + `"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, body string) {
		p := &memPlatform{outcomes: map[string]bigcommerce.Outcome{}}
		svc := &Service{
			Stores: oneStore{&st}, Sealer: sealer, Cache: memory.New(func() time.Time { return now }),
			NewPlatform: func(*Store) (Platform, error) { return p, nil }, Now: func() time.Time { return now },
		}
		sig := "t=" + strconv.FormatInt(now.Unix(), 10) + ",v1=" + hmacHex(string(st.WebhookSecret), strconv.FormatInt(now.Unix(), 10)+"."+body)
		res, err := svc.ApplyWebhook(context.Background(), st.Hash, Delivery{HeaderValue: string(st.WebhookHeaderValue), Signature: sig, Body: []byte(body)})
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) && !errors.Is(err, ErrMalformedJSON) {
				t.Fatalf("signed delivery failed with %v", err)
			}
			return
		}
		o, lerr := p.LoadOutcome(context.Background(), bigcommerce.Cart("0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01"))
		if lerr != nil || o.Pass != st.Ruleset.Evaluate([]byte(body)).Pass || o.Pass != res.Pass || o.VerificationID != res.VerificationID {
			t.Fatalf("stored %+v (%v) for answer %+v", o, lerr, res)
		}
	})
}
