package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Deliverer performs one attempt; *Sender is the real one.
type Deliverer interface {
	Deliver(ctx context.Context, d Delivery) AttemptResult
}

// WorkerOptions configure NewWorker; zero fields take the defaults below.
type WorkerOptions struct {
	Now func() time.Time // time.Now if nil
	// Lease is how long a claim keeps other workers off a delivery. It must
	// exceed Timeout, or a slow attempt could be claimed again while it is
	// still running. Default DefaultLease.
	Lease time.Duration
	// Concurrency is how many attempts run at once. Default 32.
	Concurrency int
	// Poll is how often Run looks for due deliveries when not woken (retries
	// falling due, deliveries enqueued by other instances). Default 100 ms.
	Poll time.Duration
	// Retention is how long a delivered delivery keeps its payload and
	// custom headers before Run empties them (Purge). Default
	// DefaultRetention.
	Retention time.Duration
	Log       *slog.Logger // slog.Default() if nil
}

// DefaultRetention: a day of delivered payloads for support questions;
// after that only the attempt log remains.
const DefaultRetention = 24 * time.Hour

// purgeEvery is how often Run purges; purgeBatch bounds one statement.
const (
	purgeEvery = 10 * time.Minute
	purgeBatch = 1000
)

// DefaultLease is Timeout plus a margin for recording the outcome.
const DefaultLease = Timeout + 20*time.Second

// Worker claims due deliveries from a Queue, attempts them and records the
// outcomes. Several workers (in one process or many) may share a queue: the
// claim lease keeps each delivery to one attempt at a time.
//
// Delivery is at least once: if a process dies after the receiver answered
// but before the outcome was committed, the lease expires and the same
// attempt (same Idgate-Delivery-Id and Idgate-Attempt) is made again.
// A recorded success is never sent again.
type Worker struct {
	queue       Queue
	sender      Deliverer
	now         func() time.Time
	lease       time.Duration
	concurrency int
	poll        time.Duration
	retention   time.Duration
	log         *slog.Logger
	wake        chan struct{}
}

// NewWorker returns a worker over q sending through s.
func NewWorker(q Queue, s Deliverer, o WorkerOptions) *Worker {
	w := &Worker{queue: q, sender: s, now: o.Now, lease: o.Lease, concurrency: o.Concurrency,
		poll: o.Poll, retention: o.Retention, log: o.Log, wake: make(chan struct{}, 1)}
	if w.now == nil {
		w.now = time.Now
	}
	if w.lease <= 0 {
		w.lease = DefaultLease
	}
	if w.concurrency <= 0 {
		w.concurrency = 32
	}
	if w.poll <= 0 {
		w.poll = 100 * time.Millisecond
	}
	if w.retention <= 0 {
		w.retention = DefaultRetention
	}
	if w.log == nil {
		w.log = slog.Default()
	}
	return w
}

// Wake makes Run look for due deliveries now; call it after committing a
// transaction that enqueued one, so the first attempt does not wait for the
// next poll. It never blocks.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// RunOnce claims the deliveries due at Now (up to Concurrency), attempts
// them concurrently, records every outcome and returns how many it
// attempted. Tests drive the schedule with it and an injected clock.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	ds, err := w.queue.Claim(ctx, w.now(), w.concurrency, w.lease)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Go(func() { w.attempt(ctx, d) })
	}
	wg.Wait()
	return len(ds), nil
}

// Run attempts deliveries as they fall due until ctx is canceled. Attempts
// in flight then finish (within Timeout) and are recorded before Run
// returns ctx's error.
func (w *Worker) Run(ctx context.Context) error {
	slots := make(chan struct{}, w.concurrency)
	freed := make(chan struct{}, 1)
	var wg sync.WaitGroup
	defer wg.Wait()
	// Attempts outlive a shutdown request so their outcomes get recorded.
	attemptCtx := context.WithoutCancel(ctx)
	timer := time.NewTimer(w.poll)
	defer timer.Stop()
	var purged time.Time
	for {
		if now := w.now(); now.Sub(purged) >= purgeEvery {
			if _, err := w.Purge(ctx); err != nil && ctx.Err() == nil {
				w.log.Error("webhook purge", "err", err)
			}
			purged = now
		}
		free := cap(slots) - len(slots)
		if free == 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-freed:
			}
			continue
		}
		ds, err := w.queue.Claim(ctx, w.now(), free, w.lease)
		if err != nil && ctx.Err() == nil {
			w.log.Error("webhook claim", "err", err)
		}
		for _, d := range ds {
			slots <- struct{}{}
			wg.Go(func() {
				w.attempt(attemptCtx, d)
				<-slots
				select {
				case freed <- struct{}{}:
				default:
				}
			})
		}
		if len(ds) == free {
			continue // a full claim: more may be due
		}
		timer.Reset(w.poll)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.wake:
		case <-timer.C:
		}
	}
}

// Purge empties the payloads and custom headers of deliveries delivered
// more than Retention ago (Run does it every ten minutes) and returns how
// many it emptied.
func (w *Worker) Purge(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := w.queue.Purge(ctx, w.now().Add(-w.retention), purgeBatch)
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// attempt makes one attempt of d and records it. Failures to record are
// logged: the lease then expires and the attempt is made again.
func (w *Worker) attempt(ctx context.Context, d Delivery) {
	res := w.sender.Deliver(ctx, d)
	out := outcomeOf(res, w.now())
	if res.Err != nil {
		w.log.Warn("webhook attempt failed", "delivery_id", d.ID, "verification_id", d.VerificationID,
			"attempt", d.Attempt, "status", res.StatusCode, "err", res.Err, "state", out.State)
	}
	if err := w.queue.Record(ctx, d, res, out); err != nil {
		level := slog.LevelError
		if errors.Is(err, ErrLeaseLost) {
			level = slog.LevelWarn
		}
		w.log.Log(ctx, level, "webhook record", "delivery_id", d.ID, "attempt", d.Attempt, "err", err)
	}
}
