// Command face measures the Go face engine against the reference
// implementation (Human and face-api on tfjs-wasm, tools/reference) side by
// side on the same images and machine, and prints both and the ratio
// (Go / reference: below 1 means Go is faster), in wall time and in process
// CPU time (the steadier of the two on a shared, loaded machine).
//
//	per frame:      blazeface detection + 468-point mesh, and the same
//	                + iris eyelid refinement (what liveness runs per frame)
//	per descriptor: face-api's recognition net on a 150×150 face
//
// It also prints Go-only figures the issue sets targets for: model load
// time, one verification's compute (license face + selfie + 20 frames)
// and the process's peak RSS.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/idgate/idgate/internal/modroot"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
	"github.com/idgate/idgate/verifier/imgio"
)

const (
	iterations = 20
	rounds     = 3
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/face:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	frameFile, err := testkit.FindData(root, "testdata", "liveness", "foreman", "f001.jpg")
	if err != nil {
		return err
	}
	faceFile, err := testkit.FindData(root, "testdata", "faces", "labeled", "raj", "raj1.png")
	if err != nil {
		return err
	}

	set, err := models.Open("", models.Hashes)
	if err != nil {
		return err
	}
	loadStart := time.Now()
	det, err := tfjs.Load(set.ReadFile, blazeface.ModelFile)
	if err != nil {
		return err
	}
	mesh, err := tfjs.Load(set.ReadFile, facemesh.ModelFile)
	if err != nil {
		return err
	}
	net, err := facerec.Load(set.ReadFile)
	if err != nil {
		return err
	}
	iris, err := tfjs.Load(set.ReadFile, pose.IrisModelFile)
	if err != nil {
		return err
	}
	loadTime := time.Since(loadStart)
	frame, err := decode(frameFile)
	if err != nil {
		return err
	}
	crop, err := decode(faceFile)
	if err != nil {
		return err
	}
	d, m, e, lids := blazeface.New(det, blazeface.Defaults), facemesh.New(mesh), net.NewEmbedder(), pose.NewEyelids(iris)
	frameWork := func(withIris bool) func() error {
		return func() error {
			faces, err := d.Detect(frame)
			for _, f := range faces {
				var fm facemesh.Mesh
				if err == nil {
					fm, err = m.Run(frame, f)
				}
				if err == nil && withIris {
					err = lids.Refine(frame, &fm)
				}
			}
			return err
		}
	}
	// The machine is shared: load shifts between the Go and the Node
	// phase. Alternate them for a few rounds and keep each side's best
	// round, so both are measured at their least disturbed. Each figure
	// is taken as wall time and as process CPU time (all threads): CPU
	// time is what contention disturbs least.
	var goBest, refBest [6]float64 // wall ×3, then CPU ×3
	for r := range rounds {
		var g [6]float64
		for i, fn := range []func() error{frameWork(false), frameWork(true), func() error { _, err := e.Descriptor(crop); return err }} {
			if g[i], g[3+i], err = timeIt(fn); err != nil {
				return err
			}
		}
		ref, err := reference(root, frameFile, faceFile)
		if err != nil {
			return err
		}
		fmt.Printf("round %d: Go %.1f / %.1f / %.1f ms, tfjs-wasm %.1f / %.1f / %.1f ms (wall)\n", r+1, g[0], g[1], g[2], ref[0], ref[1], ref[2])
		for i := range g {
			if r == 0 || g[i] < goBest[i] {
				goBest[i] = g[i]
			}
			if r == 0 || ref[i] < refBest[i] {
				refBest[i] = ref[i]
			}
		}
	}
	verification, err := verificationCompute(root)
	if err != nil {
		return err
	}
	rss := peakRSS()

	fmt.Printf("GOMAXPROCS=%d, %d iterations after 3 warm-up runs, best of %d alternating rounds; models loaded in %v (Go)\n", runtime.GOMAXPROCS(0), iterations, rounds, loadTime.Round(time.Millisecond))
	fmt.Printf("%-32s %9s %9s %6s   %9s %9s %6s\n", "ms per call", "Go wall", "tfjs wall", "ratio", "Go CPU", "tfjs CPU", "ratio")
	for i, name := range []string{"frame: detect + mesh (352x288)", "frame: detect + mesh + iris", "descriptor (150x150 face)"} {
		fmt.Printf("%-32s %9.1f %9.1f %6.2f   %9.1f %9.1f %6.2f\n", name,
			goBest[i], refBest[i], goBest[i]/refBest[i], goBest[3+i], refBest[3+i], goBest[3+i]/refBest[3+i])
	}
	fmt.Printf("Go verification compute (license face + selfie compared, 20 frames through Analyze: detect, mesh, passive scores, descriptor): %v (target < 2 s)\n", verification.Round(time.Millisecond))
	fmt.Printf("Go peak RSS (VmHWM of this process; Node runs in its own): %s (target < 300 MB)\n", rss)
	return nil
}

// verificationCompute times one verification's face work on real images:
// a license-sized face and a selfie through the full engine (detect, mesh,
// scores, descriptor) and compared, plus 20 liveness frames through the
// same analysis (liveness needs each frame's mesh and, for continuity, its
// descriptor). Engine load is excluded.
func verificationCompute(root string) (time.Duration, error) {
	eng, err := face.Load("", face.DefaultOptions)
	if err != nil {
		return 0, err
	}
	a := eng.NewAnalyzer()
	faces, err := testkit.FindData(root, "testdata", "faces")
	if err != nil {
		return 0, err
	}
	foreman, err := testkit.FindData(root, "testdata", "liveness", "foreman")
	if err != nil {
		return 0, err
	}
	license, err := decode(filepath.Join(faces, "labeled", "raj", "raj2.png"))
	if err != nil {
		return 0, err
	}
	selfie, err := decode(filepath.Join(faces, "labeled", "raj", "raj1.png"))
	if err != nil {
		return 0, err
	}
	frames := make([]*tensor.Tensor, 20)
	for i := range frames {
		if frames[i], err = decode(filepath.Join(foreman, fmt.Sprintf("f%03d.jpg", 1+5*i))); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	if _, err := a.Compare(license, selfie); err != nil {
		return 0, err
	}
	for _, f := range frames {
		if _, err := a.Analyze(f); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// peakRSS reads the process's high-water resident set from /proc.
func peakRSS() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "n/a"
}

func decode(path string) (*tensor.Tensor, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return imgio.Decode(data, imgio.Limits{})
}

// timeIt returns mean wall and process CPU milliseconds per call after 3
// warm-up calls.
func timeIt(fn func() error) (wall, cpu float64, err error) {
	for range 3 {
		if err := fn(); err != nil {
			return 0, 0, err
		}
	}
	start, cpu0 := time.Now(), cpuTime()
	for range iterations {
		if err := fn(); err != nil {
			return 0, 0, err
		}
	}
	wall = float64(time.Since(start).Microseconds()) / 1000 / iterations
	cpu = float64((cpuTime() - cpu0).Microseconds()) / 1000 / iterations
	return wall, cpu, nil
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type refResult struct {
	Results struct {
		FrameMs         float64 `json:"frameMs"`
		FrameIrisMs     float64 `json:"frameIrisMs"`
		DescriptorMs    float64 `json:"descriptorMs"`
		FrameCPUMs      float64 `json:"frameCpuMs"`
		FrameIrisCPUMs  float64 `json:"frameIrisCpuMs"`
		DescriptorCPUMs float64 `json:"descriptorCpuMs"`
	} `json:"results"`
}

// reference runs the Node harness's bench mode (installing its locked
// dependencies first if needed): ms per frame, per frame with iris, per
// descriptor, as wall and then as CPU time.
func reference(root, frame, face string) ([6]float64, error) {
	var out [6]float64
	dir := filepath.Join(root, "tools", "reference")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		ci := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		ci.Dir, ci.Stdout, ci.Stderr = dir, os.Stderr, os.Stderr
		if err := ci.Run(); err != nil {
			return out, fmt.Errorf("npm ci in %s: %w", dir, err)
		}
	}
	cmd := exec.Command("node", "reference.js", "bench", fmt.Sprint(iterations), frame, face)
	cmd.Dir, cmd.Stderr = dir, nil
	raw, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("reference harness: %w", err)
	}
	var r refResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return out, fmt.Errorf("reference harness output: %w", err)
	}
	res := r.Results
	out = [6]float64{res.FrameMs, res.FrameIrisMs, res.DescriptorMs, res.FrameCPUMs, res.FrameIrisCPUMs, res.DescriptorCPUMs}
	return out, nil
}
