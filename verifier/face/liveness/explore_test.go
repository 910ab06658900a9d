package liveness

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/imgio"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	set := modelstest.Set(t)
	load := func(name string) *tfjs.Model {
		m, err := tfjs.Load(set.ReadFile, name)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	det := blazeface.New(load(blazeface.ModelFile), blazeface.Defaults)
	mesher := facemesh.New(load(facemesh.ModelFile))
	for i := 1; i <= 299; i++ {
		data, _ := os.ReadFile(testkit.Shared(t, "testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", i)))
		img, err := imgio.Decode(data, 0)
		if err != nil {
			t.Fatal(err)
		}
		faces, _ := det.Detect(img)
		line := fmt.Sprintf("%3d n=%d", i, len(faces))
		for _, f := range faces {
			m, _ := mesher.Run(img, f)
			p := pose.Estimate(&m)
			e := pose.EyeAspect(&m)
			line += fmt.Sprintf(" | s=%.2f ms=%.2f box=%.0f,%.0f,%.0f yaw=%6.1f pitch=%6.1f roll=%6.1f ear=%.3f/%.3f", f.Score, m.Score, m.Min.X, m.Min.Y, m.Max.X-m.Min.X, p.Yaw, p.Pitch, p.Roll, e.Right, e.Left)
		}
		fmt.Println(line)
	}
	_ = filepath.Join
}
