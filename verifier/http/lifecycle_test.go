package http

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// finish moves a started verification to status through the domain's one
// transition function (the end-user flow that will do this is a later
// issue).
func finish(t *testing.T, h *harness, accountID, id string, to verifier.Status, result string) {
	t.Helper()
	_, err := h.srv.verifications.Transition(context.Background(), accountID, id, func(v *verifier.Verification, now time.Time) (verifier.Status, error) {
		v.CompletedAt, v.Result = now, json.RawMessage(result)
		return to, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// begin is the end user's first successful step, as the flow records it
// (opening the link starts nothing): pending → started with started_at.
func begin(t *testing.T, h *harness, accountID, id string) {
	t.Helper()
	_, err := h.srv.verifications.Transition(context.Background(), accountID, id, func(v *verifier.Verification, now time.Time) (verifier.Status, error) {
		v.StartedAt = now
		return verifier.StatusStarted, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGetShapePerStatus walks one verification per status and checks what
// GET /verification shows for each, and that another account sees 404.
func TestGetShapePerStatus(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		b, other := h.owner()
		mk := func() verificationResponse { return h.create(bearer, `{"external_id":"ref-1","lifetime_days":1}`) }

		pending := mk()
		if g := h.get(bearer, pending.ID); g.Status != verifier.StatusPending || g.StartedAt != nil || g.URL != "" || g.ExternalID != "ref-1" {
			t.Fatalf("pending: %+v", g)
		}
		started := mk()
		h.clock.Advance(time.Minute)
		if r := h.do("GET", "/v/"+token(t, started), ""); r.status != 200 {
			t.Fatalf("open: %d", r.status)
		}
		if g := h.get(bearer, started.ID); g.Status != verifier.StatusPending || g.StartedAt != nil {
			t.Fatalf("opening the page started it: %+v", g)
		}
		begin(t, h, a.ID, started.ID)
		if g := h.get(bearer, started.ID); g.Status != verifier.StatusStarted || g.StartedAt == nil || !g.StartedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("started: %+v", g)
		}
		result := `{"request_id":"x","verification":{"over_21":true},"license_data":{}}`
		for _, to := range []verifier.Status{verifier.StatusCompleted, verifier.StatusManualReview} {
			v := mk()
			begin(t, h, a.ID, v.ID)
			finish(t, h, a.ID, v.ID, to, result)
			g := h.get(bearer, v.ID)
			if g.Status != to || string(g.Result) != result || g.CompletedAt == nil || g.StartedAt == nil || g.PIIPurgedAt != nil {
				t.Fatalf("%s: %+v", to, g)
			}
		}
		canceled := mk()
		h.do("GET", "/v/"+token(t, canceled), "")
		if r := h.do("POST", "/verification/cancel?id="+canceled.ID, "", "Authorization", bearer); r.status != 200 {
			t.Fatalf("cancel: %d %s", r.status, r.body)
		}
		if g := h.get(bearer, canceled.ID); g.Status != verifier.StatusCanceled || g.StartedAt != nil || g.Result != nil {
			t.Fatalf("canceled: %+v", g)
		}
		h.clock.Advance(24 * time.Hour)
		bearer, other = h.resign(a), h.resign(b)
		n, err := verifier.Sweeper{Store: h.srv.verifications.Store, Now: h.clock.Now}.Sweep(t.Context())
		if err != nil || n != 2 { // pending and started
			t.Fatalf("sweep: %d %v", n, err)
		}
		for _, id := range []string{pending.ID, started.ID} {
			if g := h.get(bearer, id); g.Status != verifier.StatusExpired || g.StartedAt != nil || g.Result != nil {
				t.Fatalf("expired: %+v", g)
			}
		}
		// Tenant isolation: 404 for the other account, never 403.
		for _, p := range []string{"GET /verification", "POST /verification/cancel", "DELETE /verification"} {
			method, path, _ := strings.Cut(p, " ")
			expectError(t, h.do(method, path+"?id="+pending.ID, "", "Authorization", other), 404, httperr.NotFound)
		}
		expectError(t, h.do("GET", "/verification?id=not-a-uuid", "", "Authorization", bearer), 404, httperr.NotFound)
		if codes := validationCodes(t, h.do("GET", "/verification", "", "Authorization", bearer)); codes["id"] != "required" {
			t.Fatalf("%v", codes)
		}
		expectError(t, h.do("GET", "/verification?id="+pending.ID, "", "Authorization", bearer, "X-API-Key", "idgk_x"), 403, httperr.Forbidden)
		expectError(t, h.do("GET", "/verification?id="+pending.ID, ""), 401, httperr.Unauthenticated)
	})
}

// TestCancelAndDelete: cancel only from pending or started (409 after),
// delete hides the verification and releases an unfinished one's slot.
func TestCancelAndDelete(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t), func(d *Deps) {
			d.Config.Plan = verifier.Plan{verifier.TypeCore: 1, verifier.TypeBasic: 0, verifier.TypeFull: 0}
		})
		a, bearer := h.owner()
		v := h.create(bearer, `{}`)
		r := h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", bearer)
		var got verificationResponse
		r.json(t, &got)
		if r.status != 200 || got.Status != verifier.StatusCanceled {
			t.Fatalf("cancel: %d %s", r.status, r.body)
		}
		expectError(t, h.do("POST", "/verification/cancel?id="+v.ID, "", "Authorization", bearer), 409, httperr.Conflict)

		// The slot came back: the one Core slot is free again.
		w := h.create(bearer, `{}`)
		begin(t, h, a.ID, w.ID)
		finish(t, h, a.ID, w.ID, verifier.StatusCompleted, `{"request_id":"r","verification":{}}`)
		expectError(t, h.do("POST", "/verification/cancel?id="+w.ID, "", "Authorization", bearer), 409, httperr.Conflict)

		if r := h.do("DELETE", "/verification?id="+w.ID, "", "Authorization", bearer); r.status != 204 {
			t.Fatalf("delete: %d %s", r.status, r.body)
		}
		expectError(t, h.do("GET", "/verification?id="+w.ID, "", "Authorization", bearer), 404, httperr.NotFound)
		expectError(t, h.do("DELETE", "/verification?id="+w.ID, "", "Authorization", bearer), 404, httperr.NotFound)
		// A deleted completed verification still used its allowance.
		e := expectError(t, h.do("POST", "/verification", `{}`, "Authorization", bearer), 402, httperr.QuotaExceeded)
		if e.VerificationType != "core" {
			t.Fatalf("%+v", e)
		}
		// Deleting an unfinished one releases its slot.
		h.clock.Advance(40 * 24 * time.Hour) // next month: a fresh allowance
		bearer = h.resign(a)
		x := h.create(bearer, `{}`)
		expectError(t, h.do("POST", "/verification", `{}`, "Authorization", bearer), 402, httperr.QuotaExceeded)
		if r := h.do("DELETE", "/verification?id="+x.ID, "", "Authorization", bearer); r.status != 204 {
			t.Fatal(r.status)
		}
		h.create(bearer, `{}`)
		// The deleted link is unknown to the end user.
		expectLinkPage(t, h, token(t, x), 404, "Link not found")
	})
}

func expectLinkPage(t *testing.T, h *harness, tok string, status int, title string) response {
	t.Helper()
	r := h.do("GET", "/v/"+tok, "")
	if r.status != status || !strings.Contains(string(r.body), "<h1>"+title+"</h1>") ||
		!strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || r.header.Get("Cache-Control") != "no-store" ||
		r.header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("link page: %d %v %s", r.status, r.header, r.body)
	}
	return r
}

// TestLinkOpen: opening the page starts nothing (the end user's first
// successful step does, as through the API: docs/end-user-flow.md), nor
// does it move started_at later; expired, canceled, finished and unknown
// links get pages.
func TestLinkOpen(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		v := h.create(bearer, `{"message":"Verify <b>now</b>","lifetime_days":2}`)
		h.clock.Advance(time.Hour)
		r := expectLinkPage(t, h, token(t, v), 200, "Verify your identity")
		// A live link gets the app (its message comes through the session
		// API, never into the HTML), under a CSP that allows no inline code
		// (WebAssembly only, for the liveness step's face tracker).
		if !strings.Contains(string(r.body), `<script defer src="/assets/flow-`) || strings.Contains(string(r.body), "now") ||
			!strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self' 'wasm-unsafe-eval';") {
			t.Fatalf("page: %v %s", r.header, r.body)
		}
		if r := h.do("GET", "/v/"+token(t, v)+"/qr.svg", ""); r.status != 200 {
			t.Fatalf("qr: %d %s", r.status, r.body)
		}
		if g := h.get(bearer, v.ID); g.Status != verifier.StatusPending || g.StartedAt != nil {
			t.Fatalf("opening the page or its QR code started it: %+v", g)
		}
		begin(t, h, a.ID, v.ID)
		h.clock.Advance(time.Hour)
		expectLinkPage(t, h, token(t, v), 200, "Verify your identity")
		bearer = h.resign(a)
		if g := h.get(bearer, v.ID); g.Status != verifier.StatusStarted || !g.StartedAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("a later open moved started_at: %+v", g)
		}
		// Past its lifetime, before any sweep: expired on the spot.
		h.clock.Advance(2 * 24 * time.Hour)
		bearer = h.resign(a)
		expectLinkPage(t, h, token(t, v), 410, "Link expired")
		if g := h.get(bearer, v.ID); g.Status != verifier.StatusExpired {
			t.Fatalf("%+v", g)
		}
		c := h.create(bearer, `{}`)
		h.do("POST", "/verification/cancel?id="+c.ID, "", "Authorization", bearer)
		expectLinkPage(t, h, token(t, c), 410, "Verification canceled")
		if g := h.get(bearer, c.ID); g.StartedAt != nil {
			t.Fatal("opening a canceled link started it")
		}
		d := h.create(bearer, `{}`)
		begin(t, h, a.ID, d.ID)
		finish(t, h, a.ID, d.ID, verifier.StatusCompleted, `{"request_id":"r","verification":{}}`)
		expectLinkPage(t, h, token(t, d), 200, "Verification complete")
		expectLinkPage(t, h, strings.Repeat("A", 43), 404, "Link not found")
		expectLinkPage(t, h, "short", 404, "Link not found")
	})
}

// TestSweeperIsIdempotentAndShared: due links expire exactly once however
// many sweepers run at once, and their slots are released.
func TestSweeperIsIdempotentAndShared(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t), func(d *Deps) {
			d.Config.Plan = verifier.Plan{verifier.TypeCore: 30, verifier.TypeBasic: 0, verifier.TypeFull: 0}
		})
		a, bearer := h.owner()
		for i := 0; i < 30; i++ {
			lifetime := 1 + i%2 // half due after 1 day, half after 2
			h.create(bearer, fmt.Sprintf(`{"lifetime_days":%d}`, lifetime))
		}
		expectError(t, h.do("POST", "/verification", `{}`, "Authorization", bearer), 402, httperr.QuotaExceeded)
		h.clock.Advance(24 * time.Hour)
		bearer = h.resign(a)
		var mu sync.Mutex
		total := 0
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := verifier.Sweeper{Store: h.srv.verifications.Store, Now: h.clock.Now, Batch: 4}.Sweep(context.Background())
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 15 {
			t.Fatalf("4 concurrent sweepers expired %d, want 15", total)
		}
		if n, _ := (verifier.Sweeper{Store: h.srv.verifications.Store, Now: h.clock.Now}).Sweep(t.Context()); n != 0 {
			t.Fatalf("second sweep expired %d", n)
		}
		var q quotaResponse
		h.do("GET", "/quota", "", "Authorization", bearer).json(t, &q)
		if q.Allowances["core"].Used != 15 || *q.Allowances["core"].Remaining != 15 {
			t.Fatalf("quota after sweep: %+v", q.Allowances["core"])
		}
		h.create(bearer, `{}`)
	})
}
