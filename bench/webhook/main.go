// Command webhook measures webhook delivery through the real outbox and
// worker to a local HTTPS receiver, on the embedded SQLite backend and on
// PostgreSQL (IDGATE_TEST_DATABASE_URL or the local server; skipped with a
// note when unreachable):
//
//   - throughput: deliveries per second, from the first enqueue until every
//     delivery is recorded as delivered (target ≥ 500/s);
//   - latency: delay from the commit of the state-change transaction that
//     enqueued a delivery to the receiver getting its first POST, at a
//     steady 200 enqueues/s, with the in-process Wake after commit (one
//     instance) and with polling only (another instance enqueued; Poll
//     100 ms). Target p99 < 200 ms.
//
// Each backend takes about ten seconds; the whole run is bounded by a
// 55-second deadline.
package main

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"database/sql"
	"encoding/hex"
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
	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite"

	vpostgres "github.com/idgate/idgate/verifier/postgres"
	vsqlite "github.com/idgate/idgate/verifier/sqlite"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/postgres"
	"github.com/idgate/idgate/verifier/webhook/sqlite"
)

const (
	throughputN = 3000
	latencyRate = 200 // enqueues per second in the latency phases
	latencyN    = 600
	concurrency = 32
	poll        = 100 * time.Millisecond
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Second)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench/webhook:", err)
		os.Exit(1)
	}
}

// backend is one outbox: its queue, how to enqueue one delivery in its own
// transaction, and how many deliveries are not yet delivered.
type backend struct {
	name    string
	queue   webhook.Queue
	enqueue func(ctx context.Context, d webhook.Delivery) error
	pending func(ctx context.Context) (int, error)
}

func run(ctx context.Context) error {
	rcv := newReceiver()
	defer rcv.srv.Close()

	dir, err := os.MkdirTemp("", "bench-webhook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	lite, closeLite, err := openSQLite(ctx, filepath.Join(dir, "idgate.db"))
	if err != nil {
		return err
	}
	defer closeLite()
	if err := measure(ctx, lite, rcv); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}

	pg, closePG, err := openPostgres(ctx)
	if err != nil {
		fmt.Printf("postgres: skipped (%v)\n", err)
		return nil
	}
	defer closePG()
	if err := measure(ctx, pg, rcv); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return nil
}

func measure(ctx context.Context, b backend, rcv *receiver) error {
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: rcv.pool,
		Secrets: staticSecrets{}})
	newWorker := func() *webhook.Worker {
		return webhook.NewWorker(b.queue, sender, webhook.WorkerOptions{Concurrency: concurrency, Poll: poll,
			Log: slog.New(slog.DiscardHandler)})
	}

	// Throughput: a backlog enqueued by 8 writers while one worker drains it.
	rcv.reset()
	w := newWorker()
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < throughputN; i += 8 {
				if err := b.enqueue(ctx, rcv.delivery()); err != nil {
					errs <- err
					return
				}
				w.Wake()
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		stop()
		return fmt.Errorf("enqueue: %w", err)
	}
	for {
		n, err := b.pending(ctx)
		if err != nil {
			stop()
			return err
		}
		if n == 0 {
			break
		}
		select {
		case <-ctx.Done():
			stop()
			return fmt.Errorf("throughput: %d deliveries still pending: %w", n, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	elapsed := time.Since(start)
	if got := rcv.count(); got < throughputN {
		stop()
		return fmt.Errorf("receiver got %d of %d", got, throughputN)
	}
	rate := float64(throughputN) / elapsed.Seconds()
	fmt.Printf("%-8s throughput: %d deliveries in %v = %.0f deliveries/s (target >= 500/s: %s)\n",
		b.name, throughputN, elapsed.Round(time.Millisecond), rate, verdict(rate >= 500))

	// Latency with the in-process Wake after commit.
	p50, p99, max, err := latency(ctx, b, rcv, w.Wake)
	if err != nil {
		stop()
		return err
	}
	fmt.Printf("%-8s commit -> first POST, Wake after commit: p50 %v p99 %v max %v (target p99 < 200ms: %s)\n",
		b.name, p50, p99, max, verdict(p99 < 200*time.Millisecond))
	// Latency when the delivery was enqueued by another instance: poll only.
	p50, p99, max, err = latency(ctx, b, rcv, func() {})
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		return fmt.Errorf("worker: %w", err)
	}
	if err != nil {
		return err
	}
	fmt.Printf("%-8s commit -> first POST, poll only (%v):  p50 %v p99 %v max %v (target p99 < 200ms: %s)\n",
		b.name, poll, p50, p99, max, verdict(p99 < 200*time.Millisecond))
	return nil
}

// latency enqueues latencyN deliveries at latencyRate, one transaction each,
// calling wake after each commit, and returns percentiles of the delay from
// commit to the receiver's first POST of that delivery.
func latency(ctx context.Context, b backend, rcv *receiver, wake func()) (p50, p99, max time.Duration, err error) {
	rcv.reset()
	committed := make(map[string]time.Time, latencyN)
	tick := time.NewTicker(time.Second / latencyRate)
	defer tick.Stop()
	for range latencyN {
		<-tick.C
		d := rcv.delivery()
		if err := b.enqueue(ctx, d); err != nil {
			return 0, 0, 0, fmt.Errorf("enqueue: %w", err)
		}
		committed[d.ID] = time.Now()
		wake()
	}
	if err := rcv.waitFor(ctx, latencyN); err != nil {
		return 0, 0, 0, err
	}
	delays := make([]time.Duration, 0, latencyN)
	for id, at := range rcv.firstPOSTs() {
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

// receiver is the local HTTPS endpoint; it records when each delivery ID
// first arrived.
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
		_, _ = io.Copy(io.Discard, req.Body)
		id := req.Header.Get(webhook.HeaderDeliveryID)
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

func (r *receiver) delivery() webhook.Delivery {
	vid := uuid.NewString()
	return webhook.Delivery{ID: uuid.NewString(), AccountID: "bench", VerificationID: vid, URL: r.srv.URL + "/hook",
		Headers: map[string]string{"Authorization": "Bearer bench"},
		Payload: fmt.Appendf(nil, `{"request_id":%q,"verification":{"license_appears_real":true,"over_18":true,"over_21":true,"face_match_score":"definite_match","face_match_confidence":0.97}}`, vid)}
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

type staticSecrets struct{}

func (staticSecrets) SigningSecrets(context.Context, string) ([][]byte, error) {
	return [][]byte{[]byte("whsec_bench")}, nil
}

// openSQLite opens the file as the verifier store does its writer: WAL, one
// connection, BEGIN IMMEDIATE, synchronous NORMAL.
func openSQLite(ctx context.Context, path string) (backend, func(), error) {
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Opaque: path, RawQuery: q.Encode()}).String())
	if err != nil {
		return backend{}, nil, err
	}
	db.SetMaxOpenConns(1)
	if err := migrateSQLite(ctx, path); err != nil {
		db.Close()
		return backend{}, nil, err
	}
	return backend{
		name:  "sqlite",
		queue: sqlite.New(db),
		enqueue: func(ctx context.Context, d webhook.Delivery) error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if err := sqlite.Enqueue(ctx, tx, d, time.Now()); err != nil {
				return err
			}
			return tx.Commit()
		},
		pending: func(ctx context.Context) (int, error) {
			var n int
			err := db.QueryRowContext(ctx, `SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'`).Scan(&n)
			return n, err
		},
	}, func() { db.Close() }, nil
}

// openPostgres makes a schema of its own on the test server, dropped at the
// end.
func openPostgres(ctx context.Context) (backend, func(), error) {
	base := os.Getenv("IDGATE_TEST_DATABASE_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	admin, err := pgx.Connect(cctx, base)
	if err != nil {
		return backend{}, nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "bench_webhook_" + hex.EncodeToString(b)
	if _, err := admin.Exec(cctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		return backend{}, nil, err
	}
	drop := func() {
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return backend{}, nil, err
	}
	qs := u.Query()
	qs.Set("search_path", schema)
	qs.Set("pool_max_conns", "40")
	u.RawQuery = qs.Encode()
	pool, err := pgxpool.New(ctx, u.String())
	if err != nil {
		drop()
		return backend{}, nil, err
	}
	if err := migratePostgres(ctx, u.String()); err != nil {
		pool.Close()
		drop()
		return backend{}, nil, err
	}
	return backend{
		name:  "postgres",
		queue: postgres.New(pool),
		enqueue: func(ctx context.Context, d webhook.Delivery) error {
			return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return postgres.Enqueue(ctx, tx, d, time.Now()) })
		},
		pending: func(ctx context.Context) (int, error) {
			var n int
			err := pool.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'`).Scan(&n)
			return n, err
		},
	}, func() { pool.Close(); drop() }, nil
}

// migrateSQLite and migratePostgres create the schema the way serve does:
// the verifier store's migrations, which hold the outbox tables.
func migrateSQLite(ctx context.Context, path string) error {
	st, err := vsqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Migrate(ctx)
}

func migratePostgres(ctx context.Context, url string) error {
	st, err := vpostgres.Open(ctx, url)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Migrate(ctx)
}
