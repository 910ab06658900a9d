package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/openapi"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// rig is the flow on the real engines and a real store, with an account,
// the lifecycle service that creates its links and a clock the test
// moves: the flow's behaviour without HTTP (verifier/http tests what the
// API adds: status codes, headers, multipart bodies, the document).
type rig struct {
	t     *testing.T
	flow  *flow.Flow
	store *sqlstore.DB
	vs    *verifier.Verifications
	acct  string
	now   time.Time
	data  flowtest.Data
}

// newRig runs the flow on store (parts.OpenSQLite, or each of
// parts.Backends).
func newRig(t *testing.T, store *sqlstore.DB) *rig {
	t.Helper()
	// Two workers, as verifier/http's tests have: the tests on both
	// backends run in parallel, and a request waits for a free worker only
	// engines.DefaultQueueWait before it is refused as busy.
	// Memoized: a photo or answer judged once is not judged again (enginestest.Memo).
	eng := enginestest.Memoized(t, 2) // skips (or fails under CI) without the models
	r := &rig{t: t, store: store, now: time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC), data: flowtest.DataFor(t)}
	clock := func() time.Time { return r.now }
	r.acct = parts.Account(t, store, "owner@example.com", "correct horse battery staple", r.now).ID
	r.vs = &verifier.Verifications{Store: store, Now: clock, Plan: verifier.UnlimitedPlan}
	r.flow = parts.Flow(&flow.Flow{Engines: eng, Rand: &flowtest.OrderedRand{}}, store, seal.Ephemeral(), clock)
	return r
}

// create makes a verification from a POST /verification body and returns
// its id and link token.
func (r *rig) create(body string) (string, string) {
	r.t.Helper()
	var req verifier.CreateRequest
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		r.t.Fatal(err)
	}
	c, err := r.vs.Create(context.Background(), r.acct, req)
	if err != nil {
		r.t.Fatal(err)
	}
	return c.ID, c.Token
}

// front is a 1600 px photo of a license front carrying face.
func (r *rig) front(face image.Image, seed uint64) []byte {
	r.t.Helper()
	front, err := flowtest.FrontPhoto(face, 1600, seed)
	if err != nil {
		r.t.Fatal(err)
	}
	return front
}

// foremanFace is Foreman's head as a card prints it.
func (r *rig) foremanFace() image.Image {
	r.t.Helper()
	face, err := r.data.ForemanFace()
	if err != nil {
		r.t.Fatal(err)
	}
	return face
}

// labeledFace is a face of the labelled set (testdata/faces/labeled/path),
// someone other than Foreman.
func (r *rig) labeledFace(path string) image.Image {
	r.t.Helper()
	f, err := os.Open(testkit.Data(r.t, "testdata", "faces", "labeled", path))
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	face, err := png.Decode(f)
	if err != nil {
		r.t.Fatal(err)
	}
	return face
}

// delivered is the verification's one webhook delivery, due with its
// result's bytes (the worker and its sender are verifier/webhook's tests).
func (r *rig) delivered(id string) {
	r.t.Helper()
	v := r.verification(id)
	hist, err := r.store.History(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	if len(hist) != 1 || !bytes.Equal(hist[0].Payload, v.Result) || hist[0].URL != v.WebhookURL {
		r.t.Fatalf("deliveries of %s %+v, want one of its result", v.Status, hist)
	}
}

// documented fails the test unless result matches the OpenAPI document's
// Result schema (what GET /verification and the webhook carry).
func documented(t *testing.T, result []byte) {
	t.Helper()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(result, &m); err != nil {
		t.Fatal(err)
	}
	if err := doc.Components.Schemas["Result"].Value.VisitJSON(m); err != nil {
		t.Errorf("result does not match the OpenAPI document: %v\n%s", err, result)
	}
}

// licenseSteps passes the front (front) and the back (a rendered PDF417,
// seed 5) from the client 203.0.113.9; it returns the license on the back.
func (r *rig) licenseSteps(tok string, front []byte) license.License {
	r.t.Helper()
	back, lic, err := flowtest.BackPhoto(5, 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx := context.Background()
	if a, err := r.flow.Front(ctx, tok, front); err != nil || !a.Accepted {
		r.t.Fatalf("front %+v, %v", a, err)
	}
	if a, err := r.flow.Back(ctx, tok, back, "203.0.113.9"); err != nil || !a.Accepted {
		r.t.Fatalf("back %+v, %v", a, err)
	}
	return lic
}

// licensed creates a verification with a webhook that asks for license
// data and photo, and passes its license steps with Foreman's card; it
// returns the verification's id, its link token and the license on the
// back.
func (r *rig) licensed() (string, string, license.License) {
	r.t.Helper()
	id, tok := r.create(`{"encryption_key_mode":"none","requested_fields":["last_name","dob"],"include_license_photo":true,
		"webhook_url":"https://hooks.example.com/idgate"}`)
	return id, tok, r.licenseSteps(tok, r.front(r.foremanFace(), 1))
}

// foreman is Foreman's answer (frames 36–96: blink, turn to his left, to
// his right), which passes the challenges OrderedRand draws.
func (r *rig) foreman() []liveness.Frame {
	r.t.Helper()
	frames, err := r.data.ForemanAnswer(36, 96)
	if err != nil {
		r.t.Fatal(err)
	}
	return frames
}

// answer answers a new challenge with frames, 5 s after it was issued.
func (r *rig) answer(tok string, frames []liveness.Frame) flow.LivenessAnswer {
	r.t.Helper()
	ctx := context.Background()
	ch, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		r.t.Fatal(err)
	}
	r.now = r.now.Add(5 * time.Second)
	ans, err := r.flow.Liveness(ctx, tok, ch.ChallengeID, frames)
	if err != nil {
		r.t.Fatal(err)
	}
	return ans
}

func (r *rig) verification(id string) verifier.Verification {
	r.t.Helper()
	v, err := r.store.GetVerification(context.Background(), r.acct, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}
