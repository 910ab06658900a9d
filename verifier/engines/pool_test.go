package engines_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
)

// With its one worker held, the engines refuse within the queue wait
// (ErrBusy), refuse at once past MaxWaiting, give up a wait when the
// caller does, and serve again once the worker is free.
func TestPoolSaturated(t *testing.T) {
	loaded(t) // skips without models
	e, err := engines.Load(engines.Config{Workers: 1, QueueWait: 50 * time.Millisecond, MaxWaiting: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, photo := frontSceneShot(t)
	release, err := e.Hold()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := e.Front(context.Background(), photo); !errors.Is(err, flow.ErrBusy) {
		t.Fatalf("front with the pool held: %v", err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond || waited > 2*time.Second {
		t.Errorf("waited %v for a 50 ms queue wait", waited)
	}
	// One request waits (MaxWaiting 1): the next is refused at once.
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan error, 1)
	go func() { _, err := e.Back(ctx, photo); waiting <- err }()
	time.Sleep(10 * time.Millisecond)
	start = time.Now()
	if _, err := e.Back(context.Background(), photo); !errors.Is(err, flow.ErrBusy) || time.Since(start) > 20*time.Millisecond {
		t.Errorf("past MaxWaiting: %v after %v", err, time.Since(start))
	}
	cancel()
	if err := <-waiting; !errors.Is(err, context.Canceled) || errors.Is(err, flow.ErrBusy) {
		t.Errorf("canceled wait: %v", err)
	}
	release()
	if rep, err := e.Front(context.Background(), photo); err != nil || len(rep.Problems) != 0 {
		t.Fatalf("after release: %v %v", err, rep.Problems)
	}
}

// A canceled context stops the work: before a worker is taken, and
// between liveness frames.
func TestCanceled(t *testing.T) {
	e := loaded(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, photo := frontSceneShot(t)
	if _, err := e.Front(ctx, photo); !errors.Is(err, context.Canceled) {
		t.Errorf("front: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	frames := foreman(t, 36, 96)
	start := time.Now()
	_, err := e.Liveness(ctx, challengeOf(t, e, now, liveness.Blink, liveness.TurnLeft, liveness.TurnRight), frames, now)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("liveness: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("liveness ran %v past a 30 ms deadline", d)
	}
}
