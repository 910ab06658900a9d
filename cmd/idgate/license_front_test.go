package main

import (
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// frontPhoto writes a synthetic license-front photo as PNG and returns
// its path and the card's true corners.
func frontPhoto(t *testing.T, s cardtest.Scene) (string, [4]raster.Point) {
	t.Helper()
	s.FrameW, s.CardW, s.Aspect = 1600, 1000, card.ID1Aspect
	img, corners := s.Render()
	return testkit.WriteTemp(t, "front.png", func(w io.Writer) error { return png.Encode(w, img) }), corners
}

func runLicenseFrontJSON(t *testing.T, args ...string) frontReport {
	t.Helper()
	code, out, errOut := runIdgate(t, "", append([]string{"license", "front"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep frontReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return rep
}

func TestLicenseFrontCommand(t *testing.T) {
	set := modelstest.Set(t)
	t.Setenv(models.EnvDir, set.Dir)
	portrait := testkit.PNG(t, "testdata", "faces", "labeled", "howard", "howard1.png")
	photo, corners := frontPhoto(t, cardtest.Scene{Face: portrait, RotationDeg: 8, Seed: 1})
	out := filepath.Join(t.TempDir(), "headshot.jpg")
	rep := runLicenseFrontJSON(t, "--headshot", out, photo)
	if rep.Width != 1600 || rep.Height != 1200 || !rep.AspectOK || math.Abs(rep.Aspect/card.ID1Aspect-1) > 0.02 || rep.CardError != "" {
		t.Errorf("card: %+v", rep)
	}
	for i, c := range rep.Corners {
		if d := math.Hypot(float64(c[0])-corners[i].X, float64(c[1])-corners[i].Y); d > 10 {
			t.Errorf("corner %d at %v, want %.0f,%.0f", i, c, corners[i].X, corners[i].Y)
		}
	}
	if rep.Face == nil {
		t.Fatalf("no face: %s", rep.FaceError)
	}
	if rep.Problems == nil || len(rep.Problems) != 0 {
		t.Errorf("problems %v on an accepted front", rep.Problems)
	}
	b := rep.Face.Box
	centre := image.Pt(b[0]+b[2]/2, b[1]+b[3]/2)
	if rep.Face.Rotation != 0 || !centre.In(cardtest.FaceArea) || rep.Face.Score < 0.5 {
		t.Errorf("face %+v, want its centre in %v", rep.Face, cardtest.FaceArea)
	}
	jpg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jpeg.DecodeConfig(strings.NewReader(string(jpg))); err != nil || rep.Headshot == nil || rep.Headshot.Bytes != len(jpg) {
		t.Errorf("headshot %+v, %d bytes on disk, decodes: %v", rep.Headshot, len(jpg), err)
	}
	if rep.TimingsMS.Card <= 0 || rep.TimingsMS.LoadModels <= 0 || rep.TimingsMS.Portrait <= 0 {
		t.Errorf("timings %+v", rep.TimingsMS)
	}
}

// Without the models the card is still measured and the face left out
// with the reason; no card at all is an error.
func TestLicenseFrontCommandWithoutModelsAndErrors(t *testing.T) {
	t.Setenv(models.EnvDir, t.TempDir())
	photo, _ := frontPhoto(t, cardtest.Scene{RotationDeg: -5, Seed: 2})
	rep := runLicenseFrontJSON(t, photo)
	if rep.Face != nil || !strings.Contains(rep.FaceError, "make models") || !rep.AspectOK || rep.Sharpness < card.MinSharpness {
		t.Errorf("without models: %+v", rep)
	}
	blurred, _ := frontPhoto(t, cardtest.Scene{RotationDeg: 4, Blur: 4, Seed: 3})
	if rep := runLicenseFrontJSON(t, blurred); !strings.Contains(rep.CardError, "blurred") || rep.Sharpness >= card.MinSharpness ||
		!slices.Contains(rep.Problems, flow.ProblemTooBlurry) {
		t.Errorf("blurred card: %+v", rep)
	}
	table, _ := frontPhoto(t, cardtest.Scene{NoCard: true, Seed: 4})
	for _, args := range [][]string{{table}, {}, {filepath.Join(t.TempDir(), "missing.png")}} {
		if code, out, _ := runIdgate(t, "", append([]string{"license", "front"}, args...)...); code == 0 {
			t.Errorf("%v: exit 0, printed %s", args, out)
		}
	}
}
