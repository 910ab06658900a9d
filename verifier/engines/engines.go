// Package engines runs the CPU-heavy work of a verification (barcode,
// card, portrait, face and liveness) for the end-user flow: it implements
// flow.Engines. The face models are loaded once; the work runs in a pool
// of workers, each owning its own analyzers (they hold buffers and are not
// safe for concurrent use), so at most Workers jobs use the CPU at once
// and a request that cannot get a worker within QueueWait is refused with
// flow.ErrBusy instead of piling up.
//
// This is where cgo lives (zxing-cpp through license/pdf417, Tesseract
// through license/tesseract): the domain
// (verifier, verifier/license, verifier/flow) builds without it.
package engines

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/tesseract"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// Config sets up the engines; the zero value is ready to use.
type Config struct {
	// ModelsDir holds the verified face models ("" = models.DefaultDir,
	// i.e. IDGATE_MODELS_DIR or ./var/models).
	ModelsDir string
	// Workers is how many jobs run at once (0 = GOMAXPROCS): each is
	// CPU-bound, so more than the cores only adds memory.
	Workers int
	// QueueWait is how long a request waits for a free worker before
	// ErrBusy (0 = DefaultQueueWait).
	QueueWait time.Duration
	// MaxWaiting bounds the requests waiting for a worker at once; more
	// get ErrBusy at once (0 = 4 × Workers).
	MaxWaiting int
	// Liveness judges the challenges (zero = liveness.Defaults, with
	// MaxFramePixels set by FrameBudget's side).
	Liveness liveness.Config
	// Thresholds turn descriptor distances into match tiers (zero =
	// match.Default, the calibrated tiers).
	Thresholds match.Thresholds
	// BarcodeBudget caps the PDF417 search on one photo (0 =
	// pdf417.DefaultBudget).
	BarcodeBudget time.Duration
	// FPS, MaxFrames and FrameSide shape the frame budget (0 = the
	// defaults below).
	FPS, MaxFrames, FrameSide int
	// OCRBFont is the OCR-B font the passport's zone is read against (""
	// = ocrb.DebianPath, from fonts-ocr-b): loaded on the first passport,
	// so engines that read only licenses never need it.
	OCRBFont string
	// Now is the clock (nil = time.Now): the day a zone is read decides
	// the centuries of its two-digit years (mrz.Document).
	Now func() time.Time
}

// Defaults of Config.
const (
	// DefaultQueueWait: a front or back photo takes 0.2–0.6 s of one
	// core, so with every worker busy a few queued jobs clear within it.
	DefaultQueueWait = 3 * time.Second
	// DefaultFPS is the capture rate asked of the client: the blink
	// detector was tuned and tested at 15 fps (Foreman), three times the
	// liveness floor (MinFPS 5) so a slow phone stays above it.
	DefaultFPS = 15
	// DefaultMaxFrames is 10 s at DefaultFPS: answering the three steps
	// takes 3–6 s (the Foreman stream, 4 s), and the bound caps one
	// attempt's CPU: about 25 ms a frame (BenchmarkLiveness30Frames), so
	// 3.8 s of one core at most.
	DefaultMaxFrames = 150
	// DefaultFrameSide bounds a frame's longer side in pixels: at arm's
	// length a face in a 640 px frame is about 200 px across, five times
	// the 40 px the descriptor needs, and the detector and mesh run on
	// 128 and 192 px inputs anyway.
	DefaultFrameSide = 640
	// maxFrameBytes bounds one encoded frame: a 640 × 480 JPEG at the
	// quality browsers use (0.85–0.92) is 40–120 KB.
	maxFrameBytes = 256 << 10
)

// Engines implements flow.Engines.
type Engines struct {
	cfg     Config
	pool    chan *worker
	waiting atomic.Int64
	decoder pdf417.Decoder
	budget  flow.FrameBudget
	// The MRZ reader, loaded on the first passport (mrzReader).
	mrzOnce sync.Once
	mrz     *reader.Reader
	mrzErr  error
}

var _ flow.Engines = (*Engines)(nil)

// worker is one slot of the pool: its own analyzers.
type worker struct {
	finder *faceengine.Finder // on the worker's face analyzer
	live   *liveness.Analyzer
	text   *tesseract.Reader // made on first use (readText)
}

// Load verifies and loads the face models once and prepares the workers.
func Load(cfg Config) (*Engines, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = DefaultQueueWait
	}
	if cfg.MaxWaiting <= 0 {
		cfg.MaxWaiting = 4 * cfg.Workers
	}
	if cfg.FPS <= 0 {
		cfg.FPS = DefaultFPS
	}
	if cfg.MaxFrames <= 0 {
		cfg.MaxFrames = DefaultMaxFrames
	}
	if cfg.FrameSide <= 0 {
		cfg.FrameSide = DefaultFrameSide
	}
	if cfg.Liveness.Steps == 0 {
		cfg.Liveness = liveness.Defaults
		cfg.Liveness.MaxFramePixels = cfg.FrameSide * cfg.FrameSide
	}
	if cfg.OCRBFont == "" {
		cfg.OCRBFont = ocrb.DebianPath
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Thresholds == (match.Thresholds{}) {
		cfg.Thresholds = match.Default
	}
	if f := float64(cfg.FPS); f < cfg.Liveness.MinFPS || f > cfg.Liveness.MaxFPS {
		return nil, fmt.Errorf("load engines: %d fps outside the liveness bounds %v–%v", cfg.FPS, cfg.Liveness.MinFPS, cfg.Liveness.MaxFPS)
	}
	set, err := models.Open(cfg.ModelsDir, models.Hashes)
	if err != nil {
		return nil, fmt.Errorf("load engines: %w", err)
	}
	opt := face.DefaultOptions
	opt.Thresholds = cfg.Thresholds
	eng, err := face.Load(set.Dir, opt)
	if err != nil {
		return nil, fmt.Errorf("load engines: %w", err)
	}
	e := &Engines{
		cfg:     cfg,
		pool:    make(chan *worker, cfg.Workers),
		decoder: pdf417.Decoder{Budget: cfg.BarcodeBudget},
		budget: flow.FrameBudget{
			MinFrames: cfg.Liveness.MinFrames, MaxFrames: cfg.MaxFrames,
			MaxFrameBytes: maxFrameBytes, MaxWidth: cfg.FrameSide, MaxHeight: cfg.FrameSide, FPS: cfg.FPS,
		},
	}
	for range cfg.Workers {
		fa := eng.NewAnalyzer()
		live, err := liveness.NewAnalyzer(set.ReadFile, liveness.EngineDescriber(fa), cfg.Liveness)
		if err != nil {
			return nil, fmt.Errorf("load engines: %w", err)
		}
		e.pool <- &worker{finder: faceengine.New(fa), live: live}
	}
	return e, nil
}

// mrzReader loads the OCR-B font and renders the reader's glyphs once
// (about 30 ms; the reader is safe for concurrent use, so the workers
// share it).
func (e *Engines) mrzReader() (*reader.Reader, error) {
	e.mrzOnce.Do(func() {
		f, err := ocrb.Load(e.cfg.OCRBFont)
		if err == nil {
			e.mrz, err = reader.New(f)
		}
		e.mrzErr = err
	})
	return e.mrz, e.mrzErr
}

// run runs job on a free worker: it waits at most QueueWait for one (then
// ErrBusy), and not at all when MaxWaiting requests already wait or ctx
// is done.
func (e *Engines) run(ctx context.Context, job func(*worker) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("engines: %w", err)
	}
	var w *worker
	select {
	case w = <-e.pool:
	default:
		if e.waiting.Add(1) > int64(e.cfg.MaxWaiting) {
			e.waiting.Add(-1)
			return fmt.Errorf("engines: %d requests already waiting: %w", e.cfg.MaxWaiting, flow.ErrBusy)
		}
		t := time.NewTimer(e.cfg.QueueWait)
		select {
		case w = <-e.pool:
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		e.waiting.Add(-1)
		if w == nil {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("engines: waiting for a worker: %w", err)
			}
			return fmt.Errorf("engines: no worker free within %v: %w", e.cfg.QueueWait, flow.ErrBusy)
		}
	}
	defer func() { e.pool <- w }()
	return job(w)
}

// Memory the engines keep live, for MemoryLimit (measured with heap
// profiles in bench/flow, two workers, 12 MP photos): the face models'
// weights and packed filters take about 65 MB; each worker's analyzers
// (the face and liveness models' buffers, sized for their fixed inputs)
// plus one job's photo (a 12 MP decode, its grey copy, the corrected
// card turned four ways) about 75 MB. The live heap measured 210–260 MB
// with both workers busy.
const (
	baseMemory   = 130 << 20 // the models, the runtime and the service around them
	workerMemory = 100 << 20 // one worker busy on a 12 MP photo, with headroom
)

// MemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit) for
// a process serving these engines. Most of their live heap is fixed
// (models, per-worker buffers), so under the default GOGC=100 the
// collector lets the heap grow to about twice it before collecting:
// bench/flow peaked at 560–600 MB RSS with a 210–260 MB live heap. At
// this limit the collector runs when the heap reaches it instead (about
// 1.3× the live heap, so it does not run back to back); results do not
// change, only when garbage is collected.
func (e *Engines) MemoryLimit() int64 {
	return baseMemory + int64(e.cfg.Workers)*workerMemory
}

// Compare scores two face descriptors with the match thresholds; it needs
// no worker.
func (e *Engines) Compare(portrait, selfie []float32) (match.Result, error) {
	r, err := e.cfg.Thresholds.Compare(portrait, selfie)
	if err != nil {
		return match.Result{}, fmt.Errorf("compare faces: %w", err)
	}
	return r, nil
}
