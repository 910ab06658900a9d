package sqlstore

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/idgate/idgate/verifier"
)

// On PostgreSQL, concurrent GetVerification calls (the API's GET
// /verification, which integrations poll until a verification completes)
// are read together: while one batch's statement is at the server, the
// calls that arrive queue, and when it returns the next queued call runs
// them all as one statement (the dialect's getVerifications: a primary-key
// probe per ID). A statement costs PostgreSQL and database/sql far more
// than a row does, so under load a GET no longer pays for one of its own
// (measured on 8,400 rows).
//
// Measured in bench/lifecycle on the 2-core machine (2026-11-28,
// alternated runs), at concurrency 32: without, a GET cost 134-138 µs of
// CPU, PostgreSQL's 59 of it, a statement per GET (0.35× the raw SELECT).
// With batches, 56-69 µs, PostgreSQL's 12-15, a statement per 8-9 GETs:
//   - one batch in flight, a second only when a full batch waited: 0.59-0.62×
//     in 32,000-GET runs (0.65-0.76 in 8,000-GET ones), the CPU a fifth idle
//     while the batch was at the server;
//   - a second batch when half a batch waits (as now): 0.64-0.77×, by CPU
//     0.68-0.81 (six runs; a quarter or a third of a batch gave 0.51-0.72);
//   - two batches always free: 80-96 µs per GET, smaller batches.
//
// The price is at low load: at concurrency 4 a GET that arrives during
// another's statement waits for it, so the p50 went from 259 µs to 410-520
// (the p99 from 1.27 ms to 0.8-1.4) and the CPU per GET from 134 to
// 147-172 µs (parked callers are woken). Reading the batch with pgx's own
// Query on the pool's connection (database/sql's Conn.Raw) instead of
// database/sql saved 0-6 µs per GET, inside the noise: not kept.
//
// What a caller sees does not change:
//   - Every call's statement starts after the call arrived (a call joins
//     only batches not yet taken), so a GET sees every write committed
//     before it was sent, as it did with a statement of its own.
//   - A lone call, with nothing in flight, runs at once on the single-row
//     statement: no wait when the service is idle.
//   - A call whose context ends while it is queued leaves the queue with
//     its context's error; one already in a batch of several waits for it
//     (bounded by getBatchTimeout), and a call alone runs under its own.
//   - The statement's error, if any (PostgreSQL restarting: 503), is every
//     call's in the batch; a row that cannot be scanned is not: the calls
//     are then read one by one, so only the one that asked for that row
//     gets the error.
//
// A batch waits for the one in flight unless half a batch queues behind
// it; then another flies, up to getBatchInFlight, so a slow statement (a
// cold page, a stalled disk) holds up at most a few batches of GETs.
const (
	getBatchMax      = 32
	getBatchInFlight = 4
	// getBatchTimeout bounds a batch's statement, which no single caller's
	// context may cancel (the others wait on it).
	getBatchTimeout = 10 * time.Second
)

// getCall is one GetVerification call, in a queue or a batch.
type getCall struct {
	id, account string
	v           verifier.Verification
	err         error
	// wake (buffered, 1) receives nil when the call's batch has run, or a
	// batch (with the call in it) for the call's goroutine to run.
	wake chan []*getCall
}

// getBatcher queues calls and runs them in batches; run reads a batch and
// sets each call's v or err.
type getBatcher struct {
	run func(ctx context.Context, batch []*getCall)

	mu       sync.Mutex
	queue    []*getCall
	inFlight int
}

// get returns when c's v or err is set.
func (b *getBatcher) get(ctx context.Context, c *getCall) {
	c.wake = make(chan []*getCall, 1)
	b.mu.Lock()
	b.queue = append(b.queue, c)
	if b.inFlight == 0 || (len(b.queue) >= getBatchMax/2 && b.inFlight < getBatchInFlight) {
		b.inFlight++
		batch := b.take()
		b.mu.Unlock()
		b.lead(ctx, c, batch)
		return
	}
	b.mu.Unlock()
	var batch []*getCall
	select {
	case batch = <-c.wake:
	case <-ctx.Done():
		if b.leave(c) {
			c.err = ctx.Err()
			return
		}
		batch = <-c.wake // in a batch already, or handed one to run
	}
	if batch != nil {
		b.lead(ctx, c, batch)
	}
}

// leave takes c out of the queue; false if a batch has taken it.
func (b *getBatcher) leave(c *getCall) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, q := range b.queue {
		if q == c {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			return true
		}
	}
	return false
}

// take removes up to getBatchMax calls from the queue; b.mu held.
func (b *getBatcher) take() []*getCall {
	batch := make([]*getCall, min(len(b.queue), getBatchMax))
	copy(batch, b.queue)
	b.queue = append(b.queue[:0], b.queue[len(batch):]...)
	return batch
}

// lead runs batch on self's goroutine, wakes the others in it and hands
// what queued meanwhile to the first of those calls, or ends the flight;
// if run panics, the others are woken with errBatchPanicked and the flight
// goes on before the panic does (the HTTP server recovers it), so no call
// waits for good. A batch of self alone runs under self's context; one of
// several under none of theirs.
func (b *getBatcher) lead(ctx context.Context, self *getCall, batch []*getCall) {
	for _, c := range batch {
		c.err = errBatchPanicked // run sets every call's answer
	}
	defer b.finish(self, batch)
	qctx := ctx
	if len(batch) > 1 {
		var cancel context.CancelFunc
		qctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), getBatchTimeout)
		defer cancel()
	}
	b.run(qctx, batch)
}

// errBatchPanicked is the answer of a call whose batch's run panicked.
var errBatchPanicked = errors.New("batched read panicked")

// finish is lead's end: the others woken, then the next batch handed on.
func (b *getBatcher) finish(self *getCall, batch []*getCall) {
	for _, c := range batch {
		if c != self {
			c.wake <- nil
		}
	}
	b.mu.Lock()
	if len(b.queue) == 0 {
		b.inFlight--
		b.mu.Unlock()
		return
	}
	next := b.take()
	b.mu.Unlock()
	next[0].wake <- next
}
