package sqlstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// fakeRuns is a getBatcher's run that answers each call with its own ID,
// records the batch sizes and, while hold is set, waits for release.
type fakeRuns struct {
	mu      sync.Mutex
	sizes   []int
	hold    atomic.Bool
	release chan struct{}
	now     atomic.Int32 // batches running
	most    atomic.Int32 // most batches ever running at once
}

func newFakeRuns() *fakeRuns { return &fakeRuns{release: make(chan struct{})} }

func (f *fakeRuns) run(_ context.Context, batch []*getCall) {
	n := f.now.Add(1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	f.mu.Lock()
	f.sizes = append(f.sizes, len(batch))
	f.mu.Unlock()
	if f.hold.Load() {
		<-f.release
	}
	for _, c := range batch {
		c.v.ID, c.err = c.id, nil
	}
	f.now.Add(-1)
}

func (f *fakeRuns) batchSizes() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.sizes...)
}

// waitFor polls cond (under b.mu) until it holds.
func waitFor(t *testing.T, b *getBatcher, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		ok := cond()
		b.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// goGet starts a get of id and returns the call, done when the channel closes.
func goGet(ctx context.Context, b *getBatcher, id string) (*getCall, chan struct{}) {
	c, done := &getCall{id: id}, make(chan struct{})
	go func() {
		defer close(done)
		b.get(ctx, c)
	}()
	return c, done
}

// heldFlight is a batcher with a first call's batch in flight, held
// until f.release closes; firstDone closes when that call returns.
func heldFlight(t *testing.T) (b *getBatcher, f *fakeRuns, firstDone chan struct{}) {
	t.Helper()
	f = newFakeRuns()
	b = &getBatcher{run: f.run}
	f.hold.Store(true)
	_, firstDone = goGet(context.Background(), b, "first")
	waitFor(t, b, "the first batch in flight", func() bool { return b.inFlight == 1 })
	return b, f, firstDone
}

func TestGetBatchQueuesBehindTheFlight(t *testing.T) {
	b, f, firstDone := heldFlight(t)
	var calls []*getCall
	var dones []chan struct{}
	for i := range 5 {
		c, d := goGet(context.Background(), b, string(rune('a'+i)))
		calls, dones = append(calls, c), append(dones, d)
	}
	waitFor(t, b, "five queued", func() bool { return len(b.queue) == 5 })
	f.hold.Store(false)
	close(f.release)
	<-firstDone
	for _, d := range dones {
		<-d
	}
	if got := f.batchSizes(); len(got) != 2 || got[0] != 1 || got[1] != 5 {
		t.Fatalf("batches %v, want [1 5]: the five that queued behind the first run as one", got)
	}
	for _, c := range calls {
		if c.err != nil || c.v.ID != c.id {
			t.Errorf("call %s got %q, %v", c.id, c.v.ID, c.err)
		}
	}
	if b.inFlight != 0 || len(b.queue) != 0 {
		t.Errorf("after: %d in flight, %d queued", b.inFlight, len(b.queue))
	}
}

func TestGetBatchQueuedCallLeavesOnCancel(t *testing.T) {
	b, f, firstDone := heldFlight(t)
	ctx, cancel := context.WithCancel(context.Background())
	c, done := goGet(ctx, b, "gone")
	waitFor(t, b, "one queued", func() bool { return len(b.queue) == 1 })
	cancel()
	<-done // returns while the first batch still runs
	if !errors.Is(c.err, context.Canceled) {
		t.Fatalf("canceled call: %v, want context.Canceled", c.err)
	}
	f.hold.Store(false)
	close(f.release)
	<-firstDone
	if got := f.batchSizes(); len(got) != 1 {
		t.Fatalf("batches %v: the canceled call was read anyway", got)
	}
}

// Half a batch waiting does not wait for the flight before it.
func TestGetBatchHalfBatchFliesAlongside(t *testing.T) {
	b, f, firstDone := heldFlight(t)
	var dones []chan struct{}
	for i := range getBatchMax/2 - 1 {
		_, d := goGet(context.Background(), b, strings.Repeat("x", i+1))
		dones = append(dones, d)
	}
	waitFor(t, b, "a call short of half a batch queued", func() bool { return len(b.queue) == getBatchMax/2-1 })
	f.hold.Store(false) // the next batch runs through
	_, d := goGet(context.Background(), b, "half")
	for _, d := range append(dones, d) {
		<-d
	}
	if got := f.batchSizes(); len(got) != 2 || got[1] != getBatchMax/2 {
		t.Fatalf("batches %v, want one of %d beside the held first", got, getBatchMax/2)
	}
	close(f.release)
	<-firstDone
}

// Under a storm of calls, some canceled, every call ends with its own
// answer or its context's error, and no more than getBatchInFlight
// batches ever run at once (run with -race).
func TestGetBatchStorm(t *testing.T) {
	f := newFakeRuns()
	b := &getBatcher{run: func(ctx context.Context, batch []*getCall) {
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
		f.run(ctx, batch)
	}}
	var wg sync.WaitGroup
	var answered, canceled atomic.Int64
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				ctx, cancel := context.WithCancel(context.Background())
				if i%7 == g%7 {
					time.AfterFunc(time.Duration(rand.IntN(100))*time.Microsecond, cancel)
				}
				c := &getCall{id: uuid.NewString()}
				b.get(ctx, c)
				cancel()
				switch {
				case c.err == nil && c.v.ID == c.id:
					answered.Add(1)
				case errors.Is(c.err, context.Canceled):
					canceled.Add(1)
				default:
					t.Errorf("call %s: got %q, %v", c.id, c.v.ID, c.err)
				}
			}
		}()
	}
	wg.Wait()
	if n := answered.Load() + canceled.Load(); n != 6400 {
		t.Fatalf("%d calls ended, want 6400", n)
	}
	if m := f.most.Load(); m > getBatchInFlight {
		t.Errorf("%d batches ran at once, more than %d", m, getBatchInFlight)
	}
	sizes := f.batchSizes()
	biggest := 0
	for _, s := range sizes {
		biggest = max(biggest, s)
	}
	if biggest < 2 || biggest > getBatchMax {
		t.Errorf("largest batch %d (of %d batches): want 2..%d", biggest, len(sizes), getBatchMax)
	}
	t.Logf("%d answered, %d canceled, %d batches, largest %d", answered.Load(), canceled.Load(), len(sizes), biggest)
}

// On PostgreSQL, reads that queue behind a slow first batch run as one
// statement and each gets what a read alone gets (the conformance suite's
// ConcurrentGets checks the same through the Store, without knowing
// whether batches formed; here they must).
func TestGetBatchOnPostgres(t *testing.T) {
	ctx := context.Background()
	db := migrated(t, testkit.PostgresURL(t))
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var accounts [2]string
	for i := range accounts {
		a := verifier.Account{ID: uuid.NewString(), Email: uuid.NewString() + "@example.com", PasswordHash: "unused", CreatedAt: now, UpdatedAt: now}
		if err := db.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		accounts[i] = a.ID
	}
	var ids []string
	for i := range 6 {
		v := verifier.Verification{ID: uuid.NewString(), AccountID: accounts[i%2], TokenHash: []byte(uuid.NewString()),
			Status: verifier.StatusPending, Type: verifier.TypeCore, Options: []byte(`{}`), ExternalID: "ext-" + uuid.NewString(),
			LifetimeDays: 14, ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}
		if err := db.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	if err := db.DeleteVerification(ctx, accounts[0], ids[4], now); err != nil {
		t.Fatal(err)
	}
	type read struct {
		account, id string
		found       bool
	}
	reads := []read{
		{accounts[0], ids[0], true}, {accounts[1], ids[1], true}, {accounts[0], ids[2], true},
		{accounts[1], ids[0], false}, // another account's
		{accounts[0], ids[4], false}, // deleted
		{accounts[0], uuid.NewString(), false},
		{accounts[0], strings.ToUpper(ids[2]), true}, // the uuid type's own equality
		{accounts[0], ids[0], true},                  // the same row twice in a batch
		{accounts[1], "not-a-uuid", false},           // alone: never in a batch
	}
	inner := db.gets.run
	hold := make(chan struct{})
	var first atomic.Bool
	var sizes []int
	var mu sync.Mutex
	db.gets.run = func(ctx context.Context, batch []*getCall) {
		mu.Lock()
		sizes = append(sizes, len(batch))
		mu.Unlock()
		if first.CompareAndSwap(false, true) {
			<-hold
		}
		inner(ctx, batch)
	}
	leadDone := make(chan error, 1)
	go func() { _, err := db.GetVerification(ctx, accounts[1], ids[3]); leadDone <- err }()
	waitFor(t, db.gets, "the first batch in flight", func() bool { return db.gets.inFlight == 1 })
	got := make([]error, len(reads))
	vs := make([]verifier.Verification, len(reads))
	var wg sync.WaitGroup
	for i, r := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vs[i], got[i] = db.GetVerification(ctx, r.account, r.id)
		}()
	}
	waitFor(t, db.gets, "the batchable reads queued", func() bool { return len(db.gets.queue) == len(reads)-1 })
	close(hold)
	wg.Wait()
	if err := <-leadDone; err != nil {
		t.Fatalf("first read: %v", err)
	}
	for i, r := range reads {
		switch {
		case r.found && (got[i] != nil || !strings.EqualFold(vs[i].ID, r.id) || vs[i].AccountID != r.account):
			t.Errorf("read %d (%s by %s): %q of %q, %v", i, r.id, r.account, vs[i].ID, vs[i].AccountID, got[i])
		case !r.found && !errors.Is(got[i], verifier.ErrNotFound):
			t.Errorf("read %d (%s by %s): %v, want ErrNotFound", i, r.id, r.account, got[i])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sizes) != 2 || sizes[1] != len(reads)-1 {
		t.Fatalf("batches %v, want [1 %d]", sizes, len(reads)-1)
	}
}
