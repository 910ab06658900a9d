package http

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier/flow"
)

func TestParseFrames(t *testing.T) {
	ctype, body := multipartFrames(t, [][]byte{[]byte("one"), []byte("two")}, []float64{0, 66.7})
	frames, err := parseFrames(ctype, body)
	if err != nil || len(frames) != 2 || string(frames[1].Data) != "two" || frames[1].T.Milliseconds() != 66 {
		t.Fatalf("parseFrames = %+v, %v", frames, err)
	}
	bad := func(ctype, body string) error {
		_, err := parseFrames(ctype, []byte(body))
		return err
	}
	for name, tc := range map[string]struct {
		ctype, body string
		status      int
		problem     flow.Problem
	}{
		"not multipart":   {"application/json", `{}`, 400, ""},
		"no boundary":     {"multipart/form-data", "", 400, ""},
		"malformed":       {"multipart/form-data; boundary=X", "--X\r\nno headers end", 400, ""},
		"unexpected part": {"multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nv\r\n--X--\r\n", 400, ""},
		"no frames":       {"multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[]\r\n--X--\r\n", 422, flow.ProblemFramesCount},
		"times not JSON": {"multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"frame\"\r\n\r\nf\r\n" +
			"--X\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[0,\r\n--X--\r\n", 422, flow.ProblemTimestampsInvalid},
		"negative time": {"multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"frame\"\r\n\r\nf\r\n" +
			"--X\r\nContent-Disposition: form-data; name=\"timestamps\"\r\n\r\n[-1]\r\n--X--\r\n", 422, flow.ProblemTimestampsInvalid},
		"no times": {"multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"frame\"\r\n\r\nf\r\n--X--\r\n", 422, flow.ProblemTimestampsInvalid},
	} {
		err := bad(tc.ctype, tc.body)
		var he *httperr.Error
		var pe *flow.ProblemsError
		switch {
		case tc.status == 400 && (!errors.As(err, &he) || he.Status != 400):
			t.Errorf("%s: %v, want 400", name, err)
		case tc.status == 422 && (!errors.As(err, &pe) || len(pe.Problems) != 1 || pe.Problems[0] != tc.problem):
			t.Errorf("%s: %v, want %s", name, err, tc.problem)
		}
	}
}

// FuzzParseFrames: whatever the body, parseFrames answers frames or an
// error in the API's terms, and never panics.
func FuzzParseFrames(f *testing.F) {
	ctype, body := multipartFrames(f, [][]byte{[]byte("\xFF\xD8\xFFframe")}, []float64{0})
	f.Add(ctype, body)
	f.Add("multipart/form-data; boundary=X", []byte("--X\r\nContent-Disposition: form-data; name=\"frame\"\r\n\r\nf\r\n--X--\r\n"))
	f.Add("text/plain", []byte("x"))
	f.Fuzz(func(t *testing.T, ctype string, body []byte) {
		frames, err := parseFrames(ctype, body)
		if err != nil {
			var he *httperr.Error
			var pe *flow.ProblemsError
			if !errors.As(err, &he) && !errors.As(err, &pe) {
				t.Fatalf("error outside the API's terms: %v", err)
			}
			return
		}
		if len(frames) == 0 {
			t.Fatal("no frames and no error")
		}
		for _, fr := range frames {
			if fr.T < 0 {
				t.Fatalf("negative time %v", fr.T)
			}
		}
	})
}
