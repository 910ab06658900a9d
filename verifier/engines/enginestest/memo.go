package enginestest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
)

// Memo answers the engines' image and liveness work once per test binary
// for the same input: the same photo's bytes (per method), the same
// challenge, frames and time. Tests post the same rendered license, back
// and frames many times (every HTTP flow on both store backends; every
// browser walk that needs a license behind it), and the engines give the
// same answer to the same input (TestMemoAnswersAsTheEnginesDo checks it
// on the photos tests post), so the work after the first is the CPU CI
// does not have. Errors are not kept (ErrBusy and a cancelled context
// pass), and nor is anything NewChallenge or Compare answer: they are
// cheap, and a challenge must be fresh. Callers must not change what they
// are given (the flow never does).
func Memo(e flow.Engines) flow.Engines { return &memo{Engines: e} }

type memo struct {
	flow.Engines
	mu   sync.Mutex
	done map[[32]byte]*answer
}

type answer struct {
	ready chan struct{}
	v     any
	ok    bool
}

// once is fn's value for key, computed by the first caller (the others
// wait for it); a failed computation is forgotten, for the next caller to
// try again.
func once[T any](m *memo, key [32]byte, fn func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.done == nil {
		m.done = map[[32]byte]*answer{}
	}
	if a, ok := m.done[key]; ok {
		m.mu.Unlock()
		<-a.ready
		if a.ok {
			return a.v.(T), nil
		}
		return fn()
	}
	a := &answer{ready: make(chan struct{})}
	m.done[key] = a
	m.mu.Unlock()
	v, err := fn()
	if err == nil {
		a.v, a.ok = v, true
	} else {
		m.mu.Lock()
		delete(m.done, key)
		m.mu.Unlock()
	}
	close(a.ready)
	return v, err
}

func imageKey(method string, image []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write(image)
	return [32]byte(h.Sum(nil))
}

func (m *memo) Front(ctx context.Context, image []byte) (flow.FrontReport, error) {
	return once(m, imageKey("Front", image), func() (flow.FrontReport, error) { return m.Engines.Front(ctx, image) })
}

func (m *memo) FrontPrinted(ctx context.Context, image []byte) (flow.FrontReport, error) {
	return once(m, imageKey("FrontPrinted", image), func() (flow.FrontReport, error) { return m.Engines.FrontPrinted(ctx, image) })
}

func (m *memo) Back(ctx context.Context, image []byte) (flow.BackReport, error) {
	return once(m, imageKey("Back", image), func() (flow.BackReport, error) { return m.Engines.Back(ctx, image) })
}

func (m *memo) Passport(ctx context.Context, image []byte) (flow.PassportReport, error) {
	return once(m, imageKey("Passport", image), func() (flow.PassportReport, error) { return m.Engines.Passport(ctx, image) })
}

func (m *memo) PassportPrinted(ctx context.Context, image []byte) (flow.PassportReport, error) {
	return once(m, imageKey("PassportPrinted", image), func() (flow.PassportReport, error) { return m.Engines.PassportPrinted(ctx, image) })
}

func (m *memo) IDCardFrontPrinted(ctx context.Context, image []byte) (flow.FrontReport, error) {
	return once(m, imageKey("IDCardFrontPrinted", image), func() (flow.FrontReport, error) { return m.Engines.IDCardFrontPrinted(ctx, image) })
}

func (m *memo) IDCardBack(ctx context.Context, image []byte) (flow.IDCardBackReport, error) {
	return once(m, imageKey("IDCardBack", image), func() (flow.IDCardBackReport, error) { return m.Engines.IDCardBack(ctx, image) })
}

func (m *memo) Liveness(ctx context.Context, ch liveness.Challenge, frames []liveness.Frame, now time.Time) (flow.LivenessReport, error) {
	challenge, err := json.Marshal(ch)
	if err != nil {
		return m.Engines.Liveness(ctx, ch, frames, now)
	}
	digest := flow.FramesDigest(string(challenge), frames)
	h := sha256.New()
	h.Write([]byte("Liveness\x00"))
	h.Write(digest[:])
	h.Write([]byte(now.UTC().Format(time.RFC3339Nano)))
	return once(m, [32]byte(h.Sum(nil)), func() (flow.LivenessReport, error) { return m.Engines.Liveness(ctx, ch, frames, now) })
}
