package main

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// judged is one sequence's verdict under each configuration.
type judged struct {
	seq     sequence
	results []liveness.Result // one per configuration, in order
}

// analyse computes every distinct frame's signal once (the analyser's
// own settings are the same in every configuration judged from them: only
// Decide differs), on the frame padded square with black when square
// (losslessly: PNG).
func analyse(an *liveness.Analyzer, src *source, seqs []sequence, square bool) (map[string]liveness.Signal, error) {
	sigs := map[string]liveness.Signal{}
	for _, s := range seqs {
		for _, f := range s.frames {
			k := f.key()
			if _, ok := sigs[k]; ok {
				continue
			}
			data, err := src.bytes(f)
			if err != nil {
				return nil, err
			}
			if square {
				if data, err = padSquare(data); err != nil {
					return nil, fmt.Errorf("%s: %w", s.name, err)
				}
			}
			sig, err := an.Frame(liveness.Frame{Data: data})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
			sigs[k] = sig
		}
	}
	return sigs, nil
}

// judge decides every sequence under each configuration, on its signals.
func judge(seqs []sequence, cols []column) []judged {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	var out []judged
	for _, s := range seqs {
		j := judged{seq: s}
		for _, c := range cols {
			sig := s.signals(c.sigs)
			ch := liveness.Challenge{Nonce: "eval", Steps: s.steps, IssuedAt: now.Add(-sig[len(sig)-1].T - time.Second),
				ExpiresAt: now.Add(time.Minute), StepTimeoutMS: c.cfg.StepTimeout.Milliseconds()}
			j.results = append(j.results, liveness.Decide(ch, sig, now, c.cfg))
		}
		out = append(out, j)
	}
	return out
}

// signals are the sequence's frames' signals from sigs, each at its
// capture time.
func (s sequence) signals(sigs map[string]liveness.Signal) []liveness.Signal {
	sig := make([]liveness.Signal, len(s.frames))
	for i, f := range s.frames {
		sig[i] = sigs[f.key()]
		sig[i].T = s.at(i)
	}
	return sig
}

// at is frame i's capture time: as captured for a real clip, at the
// sequence's frame rate otherwise (and past the last frame, at that
// rate on from it).
func (s sequence) at(i int) time.Duration {
	if n := len(s.times); n > 0 {
		if i < n {
			return s.times[i]
		}
		return s.times[n-1] + time.Duration(float64(i-n+1)/s.fps*float64(time.Second))
	}
	return time.Duration(float64(i) / s.fps * float64(time.Second))
}

// inPlace reports whether live step k was completed where it was
// labelled: from the labelled gesture's first frame to two frames after
// its last (a turn ends when the face is back, which may be the next
// segment's first frame).
func (s sequence) inPlace(k int, r liveness.StepResult) bool {
	if k >= len(s.labels) || !r.Passed {
		return false
	}
	at := time.Duration(r.AtMS) * time.Millisecond
	return at >= s.at(s.labels[k][0]) && at <= s.at(s.labels[k][1]+2)
}

// padSquare is an encoded frame centred on a black square of its longer
// side, as PNG (lossless: the pixels of the frame are the frame's).
func padSquare(data []byte) ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	r := img.Bounds()
	side := max(r.Dx(), r.Dy())
	out := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(out, image.Rect(0, 0, side, side), image.Black, image.Point{}, draw.Src)
	at := image.Pt((side-r.Dx())/2, (side-r.Dy())/2)
	draw.Draw(out, image.Rectangle{at, at.Add(r.Size())}, img, r.Min, draw.Src)
	var buf bytes.Buffer
	err = (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, out) // lossless; the size does not matter here
	return buf.Bytes(), err
}
