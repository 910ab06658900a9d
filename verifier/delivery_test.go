package verifier_test

import (
	"testing"

	"github.com/idgate/idgate/verifier"
)

func TestDeliveryFor(t *testing.T) {
	base := verifier.Verification{ID: "v1", AccountID: "a1", Status: verifier.StatusStarted,
		WebhookURL: "https://hooks.example.com/idgate", WebhookHeaders: map[string]string{"X-Token": "t"}}
	with := func(status verifier.Status, mod func(*verifier.Verification)) verifier.Verification {
		v := base
		v.Status, v.Result = status, []byte(`{"status":"`+string(status)+`"}`)
		if mod != nil {
			mod(&v)
		}
		return v
	}
	cases := []struct {
		name     string
		old, new verifier.Verification
		want     bool
	}{
		{"completed", base, with(verifier.StatusCompleted, nil), true},
		{"manual review", base, with(verifier.StatusManualReview, nil), true},
		{"decision after review", with(verifier.StatusManualReview, nil), with(verifier.StatusCompleted, nil), true},
		{"status kept", with(verifier.StatusCompleted, nil), with(verifier.StatusCompleted, nil), false},
		{"expired", base, with(verifier.StatusExpired, nil), false},
		{"canceled", base, with(verifier.StatusCanceled, nil), false},
		{"no url", base, with(verifier.StatusCompleted, func(v *verifier.Verification) { v.WebhookURL = "" }), false},
		{"no result", base, with(verifier.StatusCompleted, func(v *verifier.Verification) { v.Result = nil }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, ok := verifier.DeliveryFor(c.old, c.new)
			if ok != c.want {
				t.Fatalf("DeliveryFor: ok = %v, want %v", ok, c.want)
			}
			if !ok {
				return
			}
			if d.ID == "" || d.AccountID != "a1" || d.VerificationID != "v1" || d.URL != base.WebhookURL ||
				d.Headers["X-Token"] != "t" || string(d.Payload) != string(c.new.Result) {
				t.Fatalf("DeliveryFor = %+v", d)
			}
		})
	}
}
