package liveness

import (
	"testing"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/imgio"
)

// The selfie's descriptor is the face engine's own: on frontal Foreman
// frames (the blink included) the frame's descriptor equals the one the
// engine computes analysing the frame, to float rounding.
func TestEngineDescriberMatchesEngine(t *testing.T) {
	set := modelstest.Set(t)
	eng, err := face.Load(set.Dir, face.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	fa := eng.NewAnalyzer()
	an, err := NewAnalyzer(set.ReadFile, EngineDescriber(fa), Defaults)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{36, 50, 66, 68, 96} {
		data := foremanFile(t, n)
		s, err := an.Frame(Frame{Data: data})
		if err != nil {
			t.Fatal(err)
		}
		img, err := imgio.Decode(data, imgio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := fa.Single(img)
		if err != nil {
			t.Fatal(err)
		}
		if s.Descriptor == nil {
			t.Fatalf("frame %d: not described (yaw %.1f)", n, s.Pose.Yaw)
		}
		if d := distance(s.Descriptor, f.Descriptor[:]); d > 1e-4 {
			t.Errorf("frame %d: descriptor %.5f from the engine's", n, d)
		}
	}
}
