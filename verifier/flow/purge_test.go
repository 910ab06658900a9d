package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// A completed verification keeps its license front and selfie for review,
// sealed under the server key (mode none): never in plain, each opening to
// what was captured. The scheduled purge leaves it alone until the
// retention has passed; then license_data, license_photo, the review
// images and the flow session go, the verdicts stay. (POST
// /verification/purge and the purged GET answer are verifier/http's
// TestPurgeEndpoint.)
func TestReviewImagesSealedAndPurged(t *testing.T) {
	parts.OnBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		r := newRig(t, open(t))
		ctx := context.Background()
		id, tok := r.create(`{"encryption_key_mode":"none","requested_fields":["first_names","last_name","dob"],"include_license_photo":true}`)
		front := r.front(r.foremanFace(), 1)
		r.licenseSteps(tok, front)
		if ans := r.answer(tok, r.foreman()); !ans.Passed {
			t.Fatalf("Foreman's answer failed: %+v", ans)
		}
		if done, err := r.flow.Submit(ctx, tok, "203.0.113.9"); err != nil || done.Status != string(verifier.StatusCompleted) {
			t.Fatalf("submit %+v, %v; want completed (Foreman on his card)", done, err)
		}

		imgs, err := r.store.ReviewImages(ctx, r.acct, id)
		if err != nil || len(imgs) != 2 {
			t.Fatalf("review images %d, %v", len(imgs), err)
		}
		if open, err := r.flow.OpenReviewImage(id, flow.ReviewLicenseFront, imgs[flow.ReviewLicenseFront]); err != nil || !bytes.Equal(open, front) {
			t.Errorf("the sealed license front does not open to the upload (%v)", err)
		}
		if bytes.Contains(imgs[flow.ReviewLicenseFront], front[:64]) {
			t.Error("the license front is stored in plain")
		}
		selfie, err := r.flow.OpenReviewImage(id, flow.ReviewSelfie, imgs[flow.ReviewSelfie])
		if err != nil || !bytes.HasPrefix(selfie, []byte{0xFF, 0xD8, 0xFF}) {
			t.Errorf("the selfie does not open to a JPEG (%v)", err)
		}

		r.now = r.now.Add(29 * 24 * time.Hour)
		if n, err := r.flow.PurgeDue(ctx, verifier.DefaultPIIRetention); err != nil || n != 0 {
			t.Fatalf("purge before retention: %d, %v", n, err)
		}
		r.now = r.now.Add(2 * 24 * time.Hour)
		if n, err := r.flow.PurgeDue(ctx, verifier.DefaultPIIRetention); err != nil || n != 1 {
			t.Fatalf("purge after retention: %d, %v", n, err)
		}
		v := r.verification(id)
		var after map[string]json.RawMessage
		if err := json.Unmarshal(v.Result, &after); err != nil {
			t.Fatal(err)
		}
		if !v.PIIPurgedAt.Equal(r.now) || string(after["license_data"]) != "{}" ||
			after["license_photo"] != nil || !bytes.Contains(after["verification"], []byte(`"webcam_appears_live":true`)) {
			t.Errorf("purged verification (purged at %v): %s", v.PIIPurgedAt, v.Result)
		}
		documented(t, v.Result)
		if imgs, err := r.store.ReviewImages(ctx, r.acct, id); err != nil || len(imgs) != 0 {
			t.Errorf("review images after the purge: %d, %v", len(imgs), err)
		}
		if _, err := r.store.GetFlowSession(ctx, id); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("session after the purge: %v", err)
		}
	})
}
