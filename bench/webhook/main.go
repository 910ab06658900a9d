// Command webhook measures webhook delivery through the real verifier
// store path — UpdateVerification moving a started verification to
// completed enqueues the delivery in its transaction and calls the store's
// wake hook — and the real outbox, worker and sender (signing with the
// account's sealed secret) to a local HTTPS receiver, on the embedded SQLite
// backend and on PostgreSQL (IDGATE_TEST_DATABASE_URL or the local server;
// skipped with a note when unreachable):
//
//   - throughput: deliveries per second, from the first completion until
//     every delivery is recorded as delivered (target ≥ 500/s);
//   - latency: delay from UpdateVerification's return (the commit) to the
//     receiver getting the first POST, at a steady 200 completions/s, with
//     the store's wake hook (one instance) and with polling only (another
//     instance completed it; Poll 100 ms). Target p99 < 200 ms.
//
// The verifications are created and started before the clock runs. The
// whole run is bounded by a 100-second deadline.
package main

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
)

const (
	throughputN = 3000
	latencyRate = 200 // completions per second in the latency phases
	latencyN    = 600
	concurrency = 32
	poll        = 100 * time.Millisecond
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench/webhook:", err)
		os.Exit(1)
	}
}

// backend is one verifier store with an account whose verifications
// deliver to the receiver.
type backend struct {
	name    string
	s       *sqlstore.DB
	account verifier.Account
	rcv     *receiver
}

func run(ctx context.Context) error {
	rcv := newReceiver()
	defer rcv.srv.Close()

	dir, err := os.MkdirTemp("", "bench-webhook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	lite, err := sqlstore.Open(ctx, filepath.Join(dir, "idgate.db")) // migrates
	if err != nil {
		return err
	}
	defer lite.Close()
	if err := measure(ctx, "sqlite", lite, rcv); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}

	pg, closePG, err := openPostgres(ctx)
	if err != nil {
		fmt.Printf("postgres: skipped (%v)\n", err)
		return nil
	}
	defer closePG()
	if err := measure(ctx, "postgres", pg, rcv); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return nil
}

func measure(ctx context.Context, name string, s *sqlstore.DB, rcv *receiver) error {
	b := backend{name: name, s: s, rcv: rcv}
	var err error
	if b.account, err = verifier.NewAccount(name+"@bench.example", "bench password 1234", time.Now()); err != nil {
		return err
	}
	if err := s.CreateAccount(ctx, b.account); err != nil {
		return err
	}
	sealer := seal.Ephemeral()
	secrets := verifier.WebhookSecrets{Store: s, Sealer: sealer, Now: time.Now}
	if _, _, err := secrets.Rotate(ctx, b.account.ID); err != nil {
		return err
	}
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: rcv.pool, Secrets: secrets})
	w := webhook.NewWorker(s, sender, webhook.WorkerOptions{Concurrency: concurrency, Poll: poll,
		Log: slog.New(slog.DiscardHandler)})

	// Throughput: 8 writers complete a backlog while one worker drains it.
	started, err := b.started(ctx, throughputN)
	if err != nil {
		return err
	}
	rcv.reset()
	s.OnWebhookEnqueued(w.Wake)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < throughputN; i += 8 {
				if err := b.complete(ctx, started[i]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		stop()
		return fmt.Errorf("complete: %w", err)
	}
	if err := rcv.waitFor(ctx, throughputN); err != nil {
		stop()
		return err
	}
	last, err := b.lastRecorded(ctx, started)
	if err != nil {
		stop()
		return err
	}
	elapsed := last.Sub(start)
	rate := float64(throughputN) / elapsed.Seconds()
	fmt.Printf("%-8s throughput: %d completions delivered in %v = %.0f deliveries/s (target >= 500/s: %s)\n",
		name, throughputN, elapsed.Round(time.Millisecond), rate, verdict(rate >= 500))

	// Latency with the store's wake hook (this instance completed it).
	p50, p99, max, err := b.latency(ctx)
	if err != nil {
		stop()
		return err
	}
	fmt.Printf("%-8s commit -> first POST, wake hook: p50 %v p99 %v max %v (target p99 < 200ms: %s)\n",
		name, p50, p99, max, verdict(p99 < 200*time.Millisecond))
	// Latency when another instance completed it: poll only.
	s.OnWebhookEnqueued(nil)
	p50, p99, max, err = b.latency(ctx)
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		return fmt.Errorf("worker: %w", err)
	}
	if err != nil {
		return err
	}
	fmt.Printf("%-8s commit -> first POST, poll only (%v): p50 %v p99 %v max %v (target p99 < 200ms: %s)\n",
		name, poll, p50, p99, max, verdict(p99 < 200*time.Millisecond))
	return nil
}

// started creates n verifications delivering to the receiver and starts
// them, outside the measured time.
func (b backend) started(ctx context.Context, n int) ([]string, error) {
	ids := make([]string, n)
	for i := range ids {
		now := time.Now()
		v := verifier.Verification{ID: uuid.NewString(), AccountID: b.account.ID, TokenHash: []byte(uuid.NewString()),
			Status: verifier.StatusPending, Type: verifier.TypeCore, WebhookURL: b.rcv.srv.URL + "/hook",
			WebhookHeaders: map[string]string{"Authorization": "Bearer bench"}, LifetimeDays: 14,
			ExpiresAt: now.Add(14 * 24 * time.Hour), CreatedAt: now, UpdatedAt: now}
		if err := b.s.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
			return nil, err
		}
		if _, err := b.s.UpdateVerification(ctx, b.account.ID, v.ID, func(x *verifier.Verification) error {
			x.Status, x.StartedAt, x.UpdatedAt = verifier.StatusStarted, now, now
			return nil
		}); err != nil {
			return nil, err
		}
		ids[i] = v.ID
	}
	return ids, nil
}

// complete is the state change that enqueues: started → completed with a
// result, as the end-user flow's last step does.
func (b backend) complete(ctx context.Context, id string) error {
	_, err := b.s.UpdateVerification(ctx, b.account.ID, id, func(x *verifier.Verification) error {
		now := time.Now()
		x.Status, x.CompletedAt, x.UpdatedAt = verifier.StatusCompleted, now, now
		x.Result = json.RawMessage(fmt.Sprintf(`{"request_id":%q,"verification":{"license_appears_real":true,"over_18":true,"over_21":true,"face_match_score":"definite_match","face_match_confidence":0.97}}`, id))
		return nil
	})
	return err
}

// lastRecorded waits until every verification's webhook_status is
// delivered and returns when the last attempt was recorded as such (its
// start plus duration), read from the delivery log.
func (b backend) lastRecorded(ctx context.Context, ids []string) (time.Time, error) {
	var last time.Time
	for _, id := range ids {
		for {
			h, err := b.s.History(ctx, id)
			if err != nil {
				return time.Time{}, err
			}
			if len(h) == 1 && h[0].State == webhook.StateDelivered {
				a := h[0].Attempts[len(h[0].Attempts)-1]
				if end := a.StartedAt.Add(a.Duration); end.After(last) {
					last = end
				}
				break
			}
			select {
			case <-ctx.Done():
				return time.Time{}, fmt.Errorf("delivery of %s not recorded: %w", id, ctx.Err())
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	return last, nil
}

// latency completes latencyN fresh verifications at latencyRate and returns
// percentiles of the delay from each UpdateVerification's return to the
// receiver's first POST of that verification's delivery.
func (b backend) latency(ctx context.Context) (p50, p99, max time.Duration, err error) {
	ids, err := b.started(ctx, latencyN)
	if err != nil {
		return 0, 0, 0, err
	}
	b.rcv.reset()
	committed := make(map[string]time.Time, latencyN)
	tick := time.NewTicker(time.Second / latencyRate)
	defer tick.Stop()
	for _, id := range ids {
		<-tick.C
		if err := b.complete(ctx, id); err != nil {
			return 0, 0, 0, fmt.Errorf("complete: %w", err)
		}
		committed[id] = time.Now()
	}
	if err := b.rcv.waitFor(ctx, latencyN); err != nil {
		return 0, 0, 0, err
	}
	delays := make([]time.Duration, 0, latencyN)
	for id, at := range b.rcv.firstPOSTs() {
		if c, ok := committed[id]; ok {
			delays = append(delays, at.Sub(c))
		}
	}
	if len(delays) != latencyN {
		return 0, 0, 0, fmt.Errorf("matched %d of %d deliveries", len(delays), latencyN)
	}
	slices.Sort(delays)
	pct := func(p float64) time.Duration {
		return delays[int(p*float64(len(delays)-1))].Round(100 * time.Microsecond)
	}
	return pct(0.50), pct(0.99), delays[len(delays)-1].Round(100 * time.Microsecond), nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// receiver is the local HTTPS endpoint; it records when the first POST for
// each verification (the payload's request_id) arrived.
type receiver struct {
	srv  *httptest.Server
	pool *x509.CertPool
	mu   sync.Mutex
	seen map[string]time.Time
	more chan struct{}
}

func newReceiver() *receiver {
	r := &receiver{seen: map[string]time.Time{}, more: make(chan struct{}, 1)}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		var p struct {
			RequestID string `json:"request_id"`
		}
		body, _ := io.ReadAll(req.Body)
		_ = json.Unmarshal(body, &p)
		id := p.RequestID
		r.mu.Lock()
		if _, dup := r.seen[id]; !dup {
			r.seen[id] = at
		}
		r.mu.Unlock()
		select {
		case r.more <- struct{}{}:
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	r.pool = x509.NewCertPool()
	r.pool.AddCert(r.srv.Certificate())
	return r
}

func (r *receiver) reset() {
	r.mu.Lock()
	r.seen = map[string]time.Time{}
	r.mu.Unlock()
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

func (r *receiver) firstPOSTs() map[string]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.seen)
}

func (r *receiver) waitFor(ctx context.Context, n int) error {
	for r.count() < n {
		select {
		case <-r.more:
		case <-ctx.Done():
			return fmt.Errorf("receiver got %d of %d: %w", r.count(), n, ctx.Err())
		}
	}
	return nil
}

// openPostgres makes a schema of its own on the test server, dropped at the
// end, and opens the verifier store on it.
func openPostgres(ctx context.Context) (*sqlstore.DB, func(), error) {
	base := os.Getenv("IDGATE_TEST_DATABASE_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	admin, err := pgx.Connect(cctx, base)
	if err != nil {
		return nil, nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "bench_webhook_" + hex.EncodeToString(b)
	if _, err := admin.Exec(cctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		return nil, nil, err
	}
	drop := func() {
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return nil, nil, err
	}
	qs := u.Query()
	qs.Set("search_path", schema)
	qs.Set("pool_max_conns", "40")
	u.RawQuery = qs.Encode()
	s, err := sqlstore.Open(ctx, u.String()) // migrates
	if err != nil {
		drop()
		return nil, nil, err
	}
	return s, func() { s.Close(); drop() }, nil
}
