package liveness

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/imgio"
)

// stream is a deterministic byte source (SHA-256 in counter mode) so the
// drawn challenges can be checked exhaustively.
type stream struct {
	seed [32]byte
	n    uint64
	buf  []byte
}

func (s *stream) Read(p []byte) (int, error) {
	for len(s.buf) < len(p) {
		h := sha256.Sum256(append(s.seed[:], byte(s.n), byte(s.n>>8), byte(s.n>>16)))
		s.n++
		s.buf = append(s.buf, h[:]...)
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func TestNewChallenge(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	seen := map[string]bool{}
	nonces := map[string]bool{}
	for _, steps := range []int{3, 4, 6} {
		cfg := Defaults
		cfg.Steps = steps
		src := &stream{seed: [32]byte{byte(steps)}}
		for range 300 {
			ch, err := NewChallenge(src, at, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Steps) != steps || !validMix(ch.Steps) || len(ch.Nonce) != 22 {
				t.Fatalf("challenge %+v", ch)
			}
			for i := 1; i < len(ch.Steps); i++ {
				if ch.Steps[i] == ch.Steps[i-1] {
					t.Fatalf("repeated step: %v", ch.Steps)
				}
			}
			if !ch.IssuedAt.Equal(at) || !ch.ExpiresAt.Equal(at.Add(cfg.TTL)) || ch.StepTimeoutMS != cfg.StepTimeout.Milliseconds() {
				t.Fatalf("deadlines %+v", ch)
			}
			seen[strings.Join(stepNames(ch.Steps), ",")] = true
			nonces[ch.Nonce] = true
		}
	}
	// 3 steps with no step twice in a row: 3·2·2 = 12 sequences, less the
	// two without a blink (l,r,l and r,l,r): every one of the 10 is drawn.
	// All 900 nonces differ.
	threeStep := 0
	for k := range seen {
		if strings.Count(k, ",") == 2 {
			threeStep++
		}
	}
	if threeStep != 10 || len(nonces) != 900 {
		t.Fatalf("%d distinct 3-step sequences, %d distinct nonces", threeStep, len(nonces))
	}
	if _, err := NewChallenge(nil, at, Config{Steps: 2}); err == nil {
		t.Fatal("2 steps accepted")
	}
	if _, err := NewChallenge(bytes.NewReader(nil), at, Defaults); err == nil {
		t.Fatal("empty randomness accepted")
	}
	if ch, err := NewChallenge(nil, at, Defaults); err != nil || len(ch.Steps) != 3 {
		t.Fatalf("crypto/rand challenge %+v, %v", ch, err)
	}
}

func stepNames(s []Step) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

func TestParseSteps(t *testing.T) {
	got, err := ParseSteps(" blink,turn_left , turn_right")
	if err != nil || len(got) != 3 || got[0] != Blink || got[1] != TurnLeft || got[2] != TurnRight {
		t.Fatalf("%v, %v", got, err)
	}
	for _, bad := range []string{"", " ", "blink,,turn_left", "nod", "BLINK", strings.Repeat("blink,", 17) + "blink"} {
		if _, err := ParseSteps(bad); !errors.Is(err, ErrSpec) {
			t.Errorf("%q: %v, want ErrSpec", bad, err)
		}
	}
}

func FuzzParseSteps(f *testing.F) {
	for _, s := range []string{"blink,turn_left,turn_right", "", "turn_left,", "x", "blink, blink"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		steps, err := ParseSteps(spec)
		if err != nil {
			if !errors.Is(err, ErrSpec) || steps != nil {
				t.Fatalf("%q: %v, %v", spec, steps, err)
			}
			return
		}
		// What parses round-trips.
		again, err := ParseSteps(strings.Join(stepNames(steps), ","))
		if err != nil || len(again) != len(steps) || len(steps) == 0 {
			t.Fatalf("%q: round trip %v, %v", spec, again, err)
		}
	})
}

// A frame that is not an image, or is larger than MaxFramePixels, fails
// the run with the decoder's coded error.
func TestRunRejectsBadFrames(t *testing.T) {
	an := analyzer(t)
	var big bytes.Buffer
	if err := png.Encode(&big, image.NewGray(image.Rect(0, 0, 1281, 720))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		want error
	}{{[]byte("not a jpeg"), imgio.ErrFormat}, {big.Bytes(), imgio.ErrTooLarge}} {
		_, err := an.Run(challenge(Blink, TurnLeft, TurnRight), []Frame{{Data: c.data, T: 0}}, now)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "analyse frame at 0s") {
			t.Errorf("err %v, want %v", err, c.want)
		}
	}
}
