package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

// Foreman frames 36–96, every 2nd, at 15 fps: the blink, then a turn to
// his left, then to his right.
func TestFaceLivenessCommand(t *testing.T) {
	modelstest.Set(t)
	args := []string{"face", "liveness", "--challenge", "blink,turn_left,turn_right", "--fps", "15"}
	for n := 36; n <= 96; n += 2 {
		args = append(args, testkit.Data(t, "testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", n)))
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), args, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		Result struct {
			Live     bool     `json:"webcam_appears_live"`
			Failures []string `json:"failures"`
			Steps    []struct {
				Step   string `json:"step"`
				Passed bool   `json:"passed"`
			} `json:"steps"`
		} `json:"result"`
		SelfieFile string `json:"selfie_file"`
		Frames     []struct {
			Faces int `json:"faces"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if !rep.Result.Live || len(rep.Result.Steps) != 3 || !rep.Result.Steps[2].Passed || len(rep.Frames) != 31 || !strings.HasSuffix(rep.SelfieFile, ".jpg") {
		t.Fatalf("report %+v", rep)
	}

}

func TestFaceLivenessCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"face", "liveness", "f.jpg"},
		{"face", "liveness", "--challenge", "blink,nod", "f.jpg"},
		{"face", "liveness", "--challenge", "blink", "--fps", "0", "f.jpg"},
		{"face", "liveness", "--challenge", "blink", "/does/not/exist.jpg"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, nil, &out, &errOut); code != 1 || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q", args, code, out.String())
		}
	}
}
