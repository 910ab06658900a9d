// Command flow measures one whole end-user verification through the flow
// (verifier/flow on the real engines and a real SQLite store): a 12 MP
// license front, a 12 MP license back, a 30-frame liveness answer and the
// submit with its face match and completion. It prints the wall and
// process CPU time of one verification run alone, how many complete per
// minute with every engine worker busy, and the process's peak RSS,
// against the targets in docs/testing.md (< 2 s CPU per verification, RSS
// < 400 MB with the pool busy).
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/sqlstore"
)

const (
	alone      = 3  // verifications timed one at a time
	underLoad  = 12 // verifications run with the pool full
	frameWidth = 4000
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/flow:", err)
		os.Exit(1)
	}
}

// inputs are one verification's uploads.
type inputs struct {
	front, back []byte
	frames      []liveness.Frame
}

// clock is the flow's clock: real time plus the capture time the bench
// skips (an end user takes seconds to answer a challenge).
type clock struct{ skew atomic.Int64 }

func (c *clock) Now() time.Time { return time.Now().Add(time.Duration(c.skew.Load())) }

func run() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return errors.New("run from the module root (scripts/bench.sh does)")
	}
	in, err := makeInputs(flowtest.Data{Repo: root})
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "bench-flow")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "idgate.db"))
	if err != nil {
		return err
	}
	defer store.Close()
	loadStart := time.Now()
	eng, err := engines.Load(engines.Config{})
	if err != nil {
		return err
	}
	// The process runs as serve runs it: under the engines' memory limit
	// unless GOMEMLIMIT sets one.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(eng.MemoryLimit())
	}
	fmt.Printf("engines loaded in %v, %d workers (GOMAXPROCS), memory limit %d MB\n", time.Since(loadStart).Round(time.Millisecond),
		runtime.GOMAXPROCS(0), debug.SetMemoryLimit(-1)>>20)
	sealer := seal.Ephemeral()
	clk := &clock{}
	f := &flow.Flow{Engines: eng, Store: store, Verifications: store, Sealer: flow.SealWith(sealer), Now: clk.Now,
		Limits: flow.DefaultLimits, Rand: &flowtest.OrderedRand{}}
	acct, err := verifier.NewAccount("bench-flow@example.com", "correct horse battery staple", time.Now())
	if err != nil {
		return err
	}
	if err := store.CreateAccount(ctx, acct); err != nil {
		return err
	}
	b := bench{f: f, store: store, clk: clk, acct: acct, in: in}

	fmt.Printf("inputs: front %d KB, back %d KB (%d px wide), %d frames (%d KB)\n",
		len(in.front)>>10, len(in.back)>>10, frameWidth, len(in.frames), framesBytes(in.frames)>>10)
	// Rendering the inputs is not the service's memory: return it and
	// restart the peak.
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		return err
	}
	if _, err := b.verify(ctx); err != nil { // warm-up: first-use allocations
		return err
	}
	var walls, cpus []time.Duration
	for range alone {
		c0 := cpuTime()
		t0 := time.Now()
		if _, err := b.verify(ctx); err != nil {
			return err
		}
		walls, cpus = append(walls, time.Since(t0)), append(cpus, cpuTime()-c0)
	}
	fmt.Printf("one verification alone (median of %d): wall %v, CPU %v (target < 2s CPU), peak RSS %d MB\n",
		alone, median(walls).Round(time.Millisecond), median(cpus).Round(time.Millisecond), peakRSSMB())
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		return err
	}

	// The pool full: twice as many verifications in flight as workers.
	inFlight := 2 * runtime.GOMAXPROCS(0)
	var next atomic.Int64
	var busy atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, inFlight)
	c0, t0 := cpuTime(), time.Now()
	for range inFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= underLoad {
				n, err := b.verify(ctx)
				busy.Add(int64(n))
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	wall, cpu := time.Since(t0), cpuTime()-c0
	fmt.Printf("pool full (%d in flight, %d verifications): %.1f completions/minute, CPU %v per verification, %d busy answers retried\n",
		inFlight, underLoad, float64(underLoad)/wall.Minutes(), (cpu / underLoad).Round(time.Millisecond), busy.Load())
	fmt.Printf("peak RSS with the pool full %d MB (target < 400 MB)\n", peakRSSMB())
	return nil
}

type bench struct {
	f     *flow.Flow
	store *sqlstore.DB
	clk   *clock
	acct  verifier.Account
	in    inputs
}

// verify runs one verification from a fresh link to completed and returns
// how many ErrBusy answers it retried.
func (b bench) verify(ctx context.Context) (int, error) {
	tok, err := b.link(ctx)
	if err != nil {
		return 0, err
	}
	busy := 0
	retry := func(step func() error) error {
		for {
			err := step()
			if !errors.Is(err, flow.ErrBusy) {
				return err
			}
			busy++
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err := retry(func() error { _, err := b.f.Front(ctx, tok, b.in.front); return err }); err != nil {
		return busy, fmt.Errorf("front: %w", err)
	}
	if err := retry(func() error { _, err := b.f.Back(ctx, tok, b.in.back, "203.0.113.7"); return err }); err != nil {
		return busy, fmt.Errorf("back: %w", err)
	}
	ch, err := b.f.NewChallenge(ctx, tok)
	if err != nil {
		return busy, err
	}
	// Let the challenge's capture time pass on the flow's clock: frames
	// answered at once would be longer than the time since the challenge.
	b.clk.skew.Add(int64(3 * time.Second))
	var ans flow.LivenessAnswer
	if err := retry(func() error { ans, err = b.f.Liveness(ctx, tok, ch.ChallengeID, b.in.frames); return err }); err != nil {
		return busy, fmt.Errorf("liveness: %w", err)
	}
	if !ans.Passed {
		return busy, fmt.Errorf("liveness failed: %v %+v", ans.Failures, ans.Steps)
	}
	done, err := b.f.Submit(ctx, tok, "203.0.113.7")
	if err != nil {
		return busy, fmt.Errorf("submit: %w", err)
	}
	if done.Status != string(verifier.StatusCompleted) {
		return busy, fmt.Errorf("submit answered %s, want completed", done.Status)
	}
	return busy, nil
}

// link stores a pending verification and returns its link token.
func (b bench) link(ctx context.Context) (string, error) {
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	tok := base64.RawURLEncoding.EncodeToString(raw)
	now := b.clk.Now().UTC().Truncate(time.Microsecond)
	v := verifier.Verification{ID: uuid.NewString(), AccountID: b.acct.ID, TokenHash: verifier.HashLinkToken(tok),
		Status: verifier.StatusPending, Type: verifier.TypeFull, LifetimeDays: 14,
		Options:   []byte(`{"requested_fields":["first_names","dob"],"include_license_photo":true,"encryption_key_mode":"none"}`),
		ExpiresAt: now.Add(14 * 24 * time.Hour), CreatedAt: now, UpdatedAt: now}
	return tok, b.store.CreateVerification(ctx, v, verifier.Allowance{Limit: -1})
}

func makeInputs(d flowtest.Data) (inputs, error) {
	face, err := d.ForemanFace()
	if err != nil {
		return inputs{}, err
	}
	front, err := flowtest.FrontPhoto(face, frameWidth, 1)
	if err != nil {
		return inputs{}, err
	}
	back, _, err := flowtest.BackPhoto(5, frameWidth, 8)
	if err != nil {
		return inputs{}, err
	}
	frames, err := d.ForemanAnswer(38, 96) // 30 frames: the blink and both turns
	if err != nil {
		return inputs{}, err
	}
	return inputs{front: front, back: back, frames: frames}, nil
}

func framesBytes(frames []liveness.Frame) int {
	n := 0
	for _, f := range frames {
		n += len(f.Data)
	}
	return n
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS restarts VmHWM (Linux: clear_refs 5).
func resetPeakRSS() error {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("reset peak RSS: %w", err)
	}
	return nil
}

// peakRSSMB is VmHWM from /proc/self/status (getrusage's ru_maxrss is not
// reset by clear_refs).
func peakRSSMB() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb >> 10
		}
	}
	return -1
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
