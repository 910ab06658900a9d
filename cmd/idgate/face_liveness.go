package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/imgio"
)

// livenessNow is the server clock the challenge is judged at; tests
// replace it.
var livenessNow = time.Now

func init() {
	register(command{
		Name:    "face liveness",
		Summary: "judge frames against a liveness challenge and print the result as JSON: --challenge blink,turn_left,turn_right [--fps 15] FRAME...",
		Run:     runFaceLiveness,
	})
}

// frameFile bounds one frame file: frames are ~320–480 px JPEGs.
var frameFile = imgio.Limits{MaxBytes: 8 << 20}

// livenessReport is what face liveness prints: the verdict, the selfie's
// file and each frame's signals.
type livenessReport struct {
	Result     liveness.Result `json:"result"`
	SelfieFile string          `json:"selfie_file,omitempty"`
	Frames     []frameSignal   `json:"frames"`
}

type frameSignal struct {
	File     string  `json:"file"`
	TMS      int64   `json:"t_ms"`
	Faces    int     `json:"faces"`
	Yaw      float64 `json:"yaw"`
	Pitch    float64 `json:"pitch"`
	Roll     float64 `json:"roll"`
	EyeRight float64 `json:"eye_ratio_right"`
	EyeLeft  float64 `json:"eye_ratio_left"`
}

func runFaceLiveness(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("face liveness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("challenge", "", "comma-separated steps: blink, turn_left, turn_right")
	fps := fs.Float64("fps", 15, "frame rate the FRAME files were captured at (their timestamps are i/fps)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 || *spec == "" {
		return errors.New("usage: idgate face liveness --challenge STEPS [--fps N] FRAME...")
	}
	steps, err := liveness.ParseSteps(*spec)
	if err != nil {
		return err
	}
	if !(*fps > 0 && *fps <= 1000) {
		return fmt.Errorf("--fps %v: want 0 < fps ≤ 1000", *fps)
	}
	frames := make([]liveness.Frame, fs.NArg())
	for i, name := range fs.Args() {
		if frames[i].Data, err = imgio.ReadFile(name, frameFile); err != nil {
			return err
		}
		frames[i].T = time.Duration(float64(i) / *fps * float64(time.Second))
	}
	_, an, err := liveness.Load("", face.DefaultOptions, liveness.Defaults)
	if err != nil {
		return err
	}
	// The frames were captured just now: the challenge was issued one
	// second before the first.
	now := livenessNow()
	ch := liveness.Challenge{
		Nonce: "cli", Steps: steps,
		IssuedAt:      now.Add(-frames[len(frames)-1].T - time.Second),
		ExpiresAt:     now.Add(liveness.Defaults.TTL),
		StepTimeoutMS: liveness.Defaults.StepTimeout.Milliseconds(),
	}
	rep := livenessReport{Frames: make([]frameSignal, len(frames))}
	sig := make([]liveness.Signal, len(frames))
	for i, f := range frames {
		if sig[i], err = an.Frame(f); err != nil {
			return fmt.Errorf("%s: %w", fs.Arg(i), err)
		}
		s := sig[i]
		rep.Frames[i] = frameSignal{File: fs.Arg(i), TMS: s.T.Milliseconds(), Faces: s.Faces,
			Yaw: s.Pose.Yaw, Pitch: s.Pose.Pitch, Roll: s.Pose.Roll, EyeRight: s.Eyes.Right, EyeLeft: s.Eyes.Left}
	}
	rep.Result = liveness.Decide(ch, sig, now, liveness.Defaults)
	if rep.Result.Selfie >= 0 {
		rep.SelfieFile = fs.Arg(rep.Result.Selfie)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
