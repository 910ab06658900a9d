package http

import (
	"fmt"
	"sync"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// TestQuota: each type has its own allowance; running out is 402 with the
// type; GET /quota shows limits and use; unlimited shows null.
func TestQuota(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		plan := verifier.Plan{verifier.TypeCore: -1, verifier.TypeBasic: 1, verifier.TypeFull: 2}
		h := newHarnessOn(t, open(t), func(d *Deps) { d.Config.Plan = plan })
		_, bearer := h.owner()
		_, other := h.owner()
		full := `{"address_verification":true}`
		h.create(bearer, full)
		h.create(bearer, full)
		e := expectError(t, h.do("POST", "/verification", full, "Authorization", bearer), 402, httperr.QuotaExceeded)
		if e.VerificationType != "full" {
			t.Fatalf("%+v", e)
		}
		h.create(bearer, `{"location_consistency":true}`)
		e = expectError(t, h.do("POST", "/verification", `{"location_consistency":true}`, "Authorization", bearer), 402, httperr.QuotaExceeded)
		if e.VerificationType != "basic" {
			t.Fatalf("%+v", e)
		}
		for i := 0; i < 3; i++ {
			h.create(bearer, `{}`) // Core is unlimited
		}
		h.create(other, full) // allowances are per account

		r := h.do("GET", "/quota", "", "Authorization", bearer)
		var q quotaResponse
		r.json(t, &q)
		if r.status != 200 || !q.PeriodStart.Equal(verifier.PeriodStart(t0)) || !q.PeriodEnd.Equal(q.PeriodStart.AddDate(0, 1, 0)) {
			t.Fatalf("%d %s", r.status, r.body)
		}
		c, b, f := q.Allowances["core"], q.Allowances["basic"], q.Allowances["full"]
		if c.Limit != nil || c.Remaining != nil || c.Used != 3 || *b.Limit != 1 || b.Used != 1 || *b.Remaining != 0 ||
			*f.Limit != 2 || f.Used != 2 || *f.Remaining != 0 {
			t.Fatalf("quota %s", r.body)
		}
	})
}

// TestQuotaUnderConcurrency: N parallel creates through the API against the
// last K slots give exactly K successes, on both backends.
func TestQuotaUnderConcurrency(t *testing.T) {
	const n, k = 24, 5
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t), func(d *Deps) {
			d.Config.Plan = verifier.Plan{verifier.TypeCore: 0, verifier.TypeBasic: 0, verifier.TypeFull: 10}
		})
		_, bearer := h.owner()
		for i := 0; i < 10-k; i++ {
			h.create(bearer, `{"include_license_photo":true,"encryption_key_mode":"none"}`)
		}
		statuses := make(chan int, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				r := h.do("POST", "/verification", fmt.Sprintf(`{"include_license_photo":true,"encryption_key_mode":"none","external_id":"race-%d"}`, i), "Authorization", bearer)
				statuses <- r.status
			}(i)
		}
		h.url()
		close(start)
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[201] != k || count[402] != n-k {
			t.Fatalf("statuses %v, want %d×201 and %d×402", count, k, n-k)
		}
	})
}

// TestCreateRateLimit: 100 creates per hour per account (spec), then 429.
func TestCreateRateLimit(t *testing.T) {
	h := newHarness(t, func(d *Deps) {
		d.Config.CreateLimit, d.Config.GetLimit = DefaultCreateLimit, DefaultGetLimit
		d.Config.Plan = verifier.UnlimitedPlan
	})
	_, bearer := h.owner()
	var last verificationResponse
	for i := 0; i < DefaultCreateLimit.Rate; i++ {
		last = h.create(bearer, `{}`)
	}
	if r := h.do("POST", "/verification", `{}`, "Authorization", bearer); r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Fatalf("101st create: %d %v", r.status, r.header)
	}
	g := h.do("GET", "/verification?id="+last.ID, "", "Authorization", bearer)
	if g.status != 200 || g.header.Get("RateLimit-Limit") != "300" || g.header.Get("RateLimit-Remaining") != "299" {
		t.Fatalf("get limit headers: %d %v", g.status, g.header)
	}
}
