// Command liveness measures one liveness challenge's compute on real
// frames: Foreman frames 36–96, every 2nd (31 frames, 2 s at 15 fps: a
// blink, a turn left, a turn right), through the liveness analyser
// (detect, mesh, iris eyelids; the engine's descriptor on frames within
// 20° of frontal) and the decision. It prints the total, the per-frame
// mean, and the same without descriptors to show their share. There is
// no reference to run beside it: the reference harness does not run the
// iris model yet.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/models"
)

const rounds = 3

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/liveness:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	foreman, err := testkit.FindData(root, "testdata", "liveness", "foreman")
	if err != nil {
		return err
	}
	var frames []liveness.Frame
	for n := 36; n <= 96; n += 2 {
		data, err := os.ReadFile(filepath.Join(foreman, fmt.Sprintf("f%03d.jpg", n)))
		if err != nil {
			return err
		}
		frames = append(frames, liveness.Frame{Data: data, T: time.Duration(len(frames)) * time.Second / 15})
	}
	set, err := models.Open("", models.Hashes)
	if err != nil {
		return err
	}
	loadStart := time.Now()
	eng, err := face.Load(set.Dir, face.DefaultOptions)
	if err != nil {
		return err
	}
	an, err := liveness.NewAnalyzer(set.ReadFile, liveness.EngineDescriber(eng.NewAnalyzer()), liveness.Defaults)
	if err != nil {
		return err
	}
	load := time.Since(loadStart)
	now := time.Now()
	ch := liveness.Challenge{Nonce: "bench", Steps: []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight},
		IssuedAt: now.Add(-time.Minute), ExpiresAt: now.Add(time.Minute)}

	full, res, err := best(func() (liveness.Result, error) { return an.Run(ch, frames, now) })
	if err != nil {
		return err
	}
	if !res.Live {
		return fmt.Errorf("the challenge did not pass: %v", res.Failures)
	}
	describe := an.Describe
	an.Describe = nil
	bare, _, err := best(func() (liveness.Result, error) { return an.Run(ch, frames, now) })
	an.Describe = describe
	if err != nil {
		return err
	}
	n := float64(len(frames))
	fmt.Printf("GOMAXPROCS=%d, best of %d runs after a warm-up; models loaded in %v\n", runtime.GOMAXPROCS(0), rounds, load.Round(time.Millisecond))
	fmt.Printf("%-52s %10s %12s\n", "", "total ms", "per frame ms")
	fmt.Printf("%-52s %10.0f %12.1f\n", fmt.Sprintf("challenge, %d frames 352x288, with descriptors", len(frames)), ms(full), ms(full)/n)
	fmt.Printf("%-52s %10.0f %12.1f\n", "same, without descriptors (detect, mesh, iris)", ms(bare), ms(bare)/n)
	return nil
}

// best runs f once to warm up, then rounds times, and returns the fastest.
func best(f func() (liveness.Result, error)) (time.Duration, liveness.Result, error) {
	res, err := f()
	if err != nil {
		return 0, res, err
	}
	fastest := time.Duration(1 << 62)
	for range rounds {
		start := time.Now()
		if res, err = f(); err != nil {
			return 0, res, err
		}
		fastest = min(fastest, time.Since(start))
	}
	return fastest, res, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the working directory")
		}
		dir = parent
	}
}
