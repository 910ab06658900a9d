package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

func runFace(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"face"}, args...), nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestFaceDetectCommand(t *testing.T) {
	modelstest.Set(t)
	img := testkit.Data(t, "testdata", "faces", "groups", "bbt4.jpg")
	code, out, errOut := runFace(t, "detect", "--landmarks", "--descriptor", img)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep detectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	// bbt4 is a group photo of six people, all facing the camera.
	if rep.Width != 710 || rep.Height != 473 || len(rep.Faces) != 6 {
		t.Fatalf("%dx%d, %d faces", rep.Width, rep.Height, len(rep.Faces))
	}
	for i, f := range rep.Faces {
		x, y, w, h := f.Box[0], f.Box[1], f.Box[2], f.Box[3]
		if x < 0 || y < 0 || w < 40 || h < 40 || x+w > rep.Width || y+h > rep.Height {
			t.Errorf("face %d: box %v outside the image or tiny", i, f.Box)
		}
		if i > 0 && f.SizePx > rep.Faces[i-1].SizePx {
			t.Errorf("face %d larger than face %d: not sorted largest first", i, i-1)
		}
		if f.MeshScore < 0.5 || !f.Described || len(f.Landmarks) != 468 || len(f.Descriptor) != 128 {
			t.Errorf("face %d: mesh score %v, described %v, %d landmarks, %d descriptor values",
				i, f.MeshScore, f.Described, len(f.Landmarks), len(f.Descriptor))
		}
		// Landmarks lie in the face's box (a little slack: the box is
		// the mesh's square, clamped).
		for _, p := range f.Landmarks {
			if p[0] < float64(x)-2 || p[0] > float64(x+w)+2 || p[1] < float64(y)-2 || p[1] > float64(y+h)+2 {
				t.Errorf("face %d: landmark %v outside box %v", i, p, f.Box)
				break
			}
		}
	}
	if rep.TimingsMS.Analyze <= 0 || rep.TimingsMS.Load <= 0 {
		t.Errorf("timings %+v", rep.TimingsMS)
	}
	// Without the flags the bulky arrays are left out.
	_, out, _ = runFace(t, "detect", img)
	if strings.Contains(out, "landmarks") || strings.Contains(out, "descriptor\"") {
		t.Errorf("landmarks or descriptor printed without the flags")
	}
}

func TestFaceCompareCommand(t *testing.T) {
	modelstest.Set(t)
	labeled := func(who, file string) string { return testkit.Data(t, "testdata", "faces", "labeled", who, file) }
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{labeled("raj", "raj1.png"), labeled("raj", "raj2.png"), true},
		{labeled("penny", "penny1.png"), labeled("penny", "penny3.png"), true},
		{labeled("raj", "raj1.png"), labeled("penny", "penny2.png"), false},
		{labeled("leonard", "leonard1.png"), labeled("sheldon", "sheldon1.png"), false},
	} {
		code, out, errOut := runFace(t, "compare", c.a, c.b)
		if code != 0 {
			t.Fatalf("%s %s: exit %d: %s", c.a, c.b, code, errOut)
		}
		var rep compareReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		name := filepath.Base(c.a) + " vs " + filepath.Base(c.b)
		// The calibrated guarantee: a genuine pair is never no_match, an
		// impostor pair never definite or likely (possible is review).
		accepted := rep.Score == match.DefiniteMatch || rep.Score == match.LikelyMatch
		if (c.same && rep.Score == match.NoMatch) || (!c.same && accepted) {
			t.Errorf("%s: %s at distance %.3f", name, rep.Score, rep.Distance)
		}
		// The printed figures are one consistent comparison.
		if got := match.Default.Tier(rep.Distance); got != rep.Score {
			t.Errorf("%s: score %s but distance %.3f is %s", name, rep.Score, rep.Distance, got)
		}
		if rep.Confidence != match.Default.Confidence(rep.Distance) || rep.Cosine < -1 || rep.Cosine > 1 {
			t.Errorf("%s: confidence %v, cosine %v at distance %v", name, rep.Confidence, rep.Cosine, rep.Distance)
		}
		if rep.Images[0].File != c.a || rep.Images[1].File != c.b || rep.Images[0].Face.SizePx < 40 || rep.TimingsMS.Analyze[1] <= 0 {
			t.Errorf("%s: images %+v, timings %+v", name, rep.Images, rep.TimingsMS)
		}
	}
}

func TestFaceCommandErrors(t *testing.T) {
	modelstest.Set(t)
	group := testkit.Data(t, "testdata", "faces", "groups", "bbt4.jpg")
	raj := testkit.Data(t, "testdata", "faces", "labeled", "raj", "raj1.png")
	notImage := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notImage, []byte("not an image"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A plain grey picture: decodable, faceless.
	var blank bytes.Buffer
	grey := image.NewGray(image.Rect(0, 0, 200, 200))
	for i := range grey.Pix {
		grey.Pix[i] = 128
	}
	if err := png.Encode(&blank, grey); err != nil {
		t.Fatal(err)
	}
	noFace := filepath.Join(t.TempDir(), "grey.png")
	if err := os.WriteFile(noFace, blank.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"detect"}, "usage"},
		{[]string{"detect", raj, raj}, "usage"},
		{[]string{"compare", raj}, "usage"},
		{[]string{"detect", "/does/not/exist.jpg"}, "no such file"},
		{[]string{"detect", notImage}, "not a readable JPEG, PNG or WebP"},
		{[]string{"compare", raj, notImage}, "not a readable JPEG, PNG or WebP"},
		{[]string{"compare", group, raj}, "bbt4.jpg: more than one face found"},
		{[]string{"compare", raj, noFace}, "grey.png: no face found"},
	} {
		code, out, errOut := runFace(t, c.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %q)", c.args, code, out, errOut, c.want)
		}
	}
}
