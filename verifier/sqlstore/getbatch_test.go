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

// A batch of several runs under none of its callers' contexts: the one
// that leads may be canceled, the others still get their rows.
func TestGetBatchOutlivesItsLeadersContext(t *testing.T) {
	var sawErr error
	b := &getBatcher{run: func(ctx context.Context, batch []*getCall) {
		sawErr = ctx.Err()
		for _, c := range batch {
			c.v.ID, c.err = c.id, nil
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	self, other := &getCall{id: "self"}, &getCall{id: "other", wake: make(chan []*getCall, 1)}
	b.inFlight = 1
	b.lead(ctx, self, []*getCall{self, other})
	if sawErr != nil {
		t.Fatalf("the batch ran under the leader's canceled context: %v", sawErr)
	}
	if got := <-other.wake; got != nil || other.err != nil || other.v.ID != "other" {
		t.Fatalf("other: woken with %v, got %q, %v", got, other.v.ID, other.err)
	}
	// Alone, a call runs under its own context.
	b.inFlight = 1
	b.lead(ctx, self, []*getCall{self})
	if !errors.Is(sawErr, context.Canceled) {
		t.Fatalf("a call alone ran under %v, want its own canceled context", sawErr)
	}
	if b.inFlight != 0 {
		t.Fatalf("%d in flight after", b.inFlight)
	}
}

// A run that panics wakes its batch with an error and ends its flight, so
// the calls after it are served (the HTTP server recovers the panic).
func TestGetBatchSurvivesAPanickingRun(t *testing.T) {
	f := newFakeRuns()
	var panicked atomic.Bool
	b := &getBatcher{}
	b.run = func(ctx context.Context, batch []*getCall) {
		if len(batch) > 1 && panicked.CompareAndSwap(false, true) {
			panic("boom")
		}
		f.run(ctx, batch)
	}
	f.hold.Store(true)
	first, firstDone := goGet(context.Background(), b, "first")
	waitFor(t, b, "the first batch in flight", func() bool { return b.inFlight == 1 })
	// Two queue; the first of them will lead their batch, and it panics.
	recovered := make(chan any, 1)
	leader := &getCall{id: "leader"}
	go func() {
		defer func() { recovered <- recover() }()
		b.get(context.Background(), leader)
	}()
	waitFor(t, b, "the leader queued", func() bool { return len(b.queue) == 1 })
	follower, followerDone := goGet(context.Background(), b, "follower")
	waitFor(t, b, "two queued", func() bool { return len(b.queue) == 2 })
	f.hold.Store(false)
	close(f.release)
	<-firstDone
	if r := <-recovered; r != "boom" {
		t.Fatalf("the leader's goroutine recovered %v, want the panic", r)
	}
	<-followerDone
	if first.err != nil || !errors.Is(follower.err, errBatchPanicked) {
		t.Fatalf("first %v, follower %v; want nil and errBatchPanicked", first.err, follower.err)
	}
	after, done := goGet(context.Background(), b, "after")
	<-done
	if after.err != nil || after.v.ID != "after" || b.inFlight != 0 {
		t.Fatalf("after the panic: %q, %v, %d in flight", after.v.ID, after.err, b.inFlight)
	}
}

func TestCanonicalUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"6a1f0c3e-0000-4000-8000-000000000001":   true,
		"6A1F0C3E-ABCD-4000-8000-00000000000F":   true,
		"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz":   false, // 36 characters, not hex
		"6a1f0c3e0-000-4000-8000-000000000001":   false, // a hyphen out of place
		"6a1f0c3e-0000-4000-8000-00000000000g":   false,
		"{6a1f0c3e-0000-4000-8000-000000000001}": false, // PostgreSQL's other spellings go alone
		"6a1f0c3e000040008000000000000001":       false,
		"":                                       false,
	} {
		if got := canonicalUUID(s); got != want {
			t.Errorf("canonicalUUID(%q) = %v, want %v", s, got, want)
		}
	}
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
		{accounts[0], strings.ToUpper(ids[2]), true},                 // the uuid type's own equality
		{accounts[0], ids[0], true},                                  // the same row twice in a batch
		{accounts[1], "not-a-uuid", false},                           // alone: never in a batch
		{accounts[1], "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz", false}, // 36 characters, alone too
	}
	calls := make([][2]string, len(reads))
	for i, r := range reads {
		calls[i] = [2]string{r.account, r.id}
	}
	vs, errs, sizes := heldReads(t, db, calls, false, nil)
	for i, r := range reads {
		switch {
		case r.found && (errs[i] != nil || !strings.EqualFold(vs[i].ID, r.id) || vs[i].AccountID != r.account):
			t.Errorf("read %d (%s by %s): %q of %q, %v", i, r.id, r.account, vs[i].ID, vs[i].AccountID, errs[i])
		case !r.found && !errors.Is(errs[i], verifier.ErrNotFound):
			t.Errorf("read %d (%s by %s): %v, want ErrNotFound", i, r.id, r.account, errs[i])
		}
	}
	if len(sizes) != 2 || sizes[1] != len(reads)-2 {
		t.Fatalf("batches %v, want [1 %d]", sizes, len(reads)-2)
	}

	// A row that cannot be read (headers the API would never store) is
	// its owner's error alone: another account is told it is not found,
	// and the rest of the batch gets its rows.
	if _, err := db.w.ExecContext(ctx, `UPDATE verifications SET webhook_headers = '{"a": 1}' WHERE id = $1`, ids[5]); err != nil {
		t.Fatal(err)
	}
	vs, errs, _ = heldReads(t, db, [][2]string{{accounts[1], ids[5]}, {accounts[0], ids[5]}, {accounts[0], ids[0]}, {accounts[1], ids[1]}}, false, nil)
	if errs[0] == nil || errors.Is(errs[0], verifier.ErrNotFound) {
		t.Errorf("the owner's unreadable row: %v, want a read error", errs[0])
	}
	if !errors.Is(errs[1], verifier.ErrNotFound) {
		t.Errorf("another account's unreadable row: %v, want ErrNotFound", errs[1])
	}
	if errs[2] != nil || vs[2].ID != ids[0] || errs[3] != nil || vs[3].ID != ids[1] {
		t.Errorf("the rest of the batch: %q %v, %q %v", vs[2].ID, errs[2], vs[3].ID, errs[3])
	}

	// Read after write: a statement already run when a write commits
	// serves none of the reads sent after it.
	write := func() {
		if _, err := db.UpdateVerification(ctx, accounts[0], ids[2], func(v *verifier.Verification) error {
			v.ExternalID = "written"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	vs, errs, _ = heldReads(t, db, [][2]string{{accounts[0], ids[2]}, {accounts[0], ids[2]}}, true, write)
	for i := range vs {
		if errs[i] != nil || vs[i].ExternalID != "written" {
			t.Errorf("read %d after the write: %q, %v", i, vs[i].ExternalID, errs[i])
		}
	}
}

// heldReads holds a first read's batch in flight (before its statement,
// or after it when after is set), runs between (if not nil), makes the
// calls (account, ID) while it is held and returns their answers and the
// batch sizes once it is released. The first read is calls[0]'s.
func heldReads(t *testing.T, db *DB, calls [][2]string, after bool, between func()) ([]verifier.Verification, []error, []int) {
	t.Helper()
	ctx := context.Background()
	inner := db.gets.run
	t.Cleanup(func() { db.gets.run = inner })
	hold, ran := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	var sizes []int
	var mu sync.Mutex
	db.gets.run = func(ctx context.Context, batch []*getCall) {
		mu.Lock()
		sizes = append(sizes, len(batch))
		mu.Unlock()
		held := first.CompareAndSwap(false, true)
		if held && !after {
			<-hold
		}
		inner(ctx, batch)
		if held && after {
			close(ran)
			<-hold
		}
	}
	leadDone := make(chan error, 1)
	go func() { _, err := db.GetVerification(ctx, calls[0][0], calls[0][1]); leadDone <- err }()
	waitFor(t, db.gets, "the first batch in flight", func() bool { return db.gets.inFlight == 1 })
	if between != nil {
		if after {
			<-ran // its statement has run
		}
		between()
	}
	vs, errs := make([]verifier.Verification, len(calls)), make([]error, len(calls))
	batchable := 0
	var wg sync.WaitGroup
	for i, c := range calls {
		if canonicalUUID(c[1]) {
			batchable++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			vs[i], errs[i] = db.GetVerification(ctx, c[0], c[1])
		}()
	}
	waitFor(t, db.gets, "the batchable reads queued", func() bool { return len(db.gets.queue) == batchable })
	close(hold)
	wg.Wait()
	<-leadDone
	mu.Lock()
	defer mu.Unlock()
	return vs, errs, sizes
}
