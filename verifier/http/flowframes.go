package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"time"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
)

// maxFrameParts bounds the parts of a liveness answer before any budget is
// known: far above any budget, far below what would cost memory.
const maxFrameParts = 1000

// maxTimestampsBytes bounds the timestamps part (1000 numbers of 16
// characters).
const maxTimestampsBytes = 32 << 10

// errFramesBody is the answer to a liveness body that is not the form the
// API documents.
func errFramesBody(why string) error {
	return httperr.New(httperr.BadRequest,
		"send multipart/form-data with the frames as parts named frame, in capture order, and a part named timestamps holding a JSON array of their capture times in ms: "+why)
}

// parseFrames reads a liveness answer: multipart/form-data with JPEG parts
// named "frame" in capture order and a "timestamps" part holding a JSON
// array of capture times in milliseconds, one per frame. Everything stays
// in memory (body is already bounded by the server): frames never touch
// the disk. A body that is not that form is 400 BAD_REQUEST; timestamps
// that do not fit the frames are 422 (flow.ProblemTimestampsInvalid).
// It never panics, whatever the body (FuzzParseFrames).
func parseFrames(contentType string, body []byte) ([]liveness.Frame, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, errFramesBody("Content-Type is not multipart/form-data with a boundary")
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var frames [][]byte
	var stamps []byte
	seenStamps := false
	for parts := 0; ; parts++ {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errFramesBody("the multipart body is malformed")
		}
		if parts >= maxFrameParts { // more frames than any budget: the frame-count problem
			return nil, &flow.ProblemsError{Step: flow.StepLiveness, Problems: []flow.Problem{flow.ProblemFramesCount}}
		}
		switch p.FormName() {
		case "frame":
			data, err := io.ReadAll(p)
			if err != nil {
				return nil, errFramesBody("a frame part is malformed")
			}
			frames = append(frames, data)
		case "timestamps":
			if seenStamps {
				return nil, errFramesBody("timestamps sent twice")
			}
			seenStamps = true
			if stamps, err = io.ReadAll(io.LimitReader(p, maxTimestampsBytes+1)); err != nil || len(stamps) > maxTimestampsBytes {
				return nil, errFramesBody("the timestamps part is malformed or too long")
			}
		default:
			return nil, errFramesBody("unexpected part " + quoteName(p.FormName()))
		}
	}
	if len(frames) == 0 {
		return nil, &flow.ProblemsError{Step: flow.StepLiveness, Problems: []flow.Problem{flow.ProblemFramesCount}}
	}
	times, ok := parseTimestamps(stamps, len(frames))
	if !ok {
		return nil, &flow.ProblemsError{Step: flow.StepLiveness, Problems: []flow.Problem{flow.ProblemTimestampsInvalid}}
	}
	out := make([]liveness.Frame, len(frames))
	for i, data := range frames {
		out[i] = liveness.Frame{Data: data, T: times[i]}
	}
	return out, nil
}

// parseTimestamps reads a JSON array of n finite, non-negative capture
// times in ms (fractions allowed, up to a day).
func parseTimestamps(raw []byte, n int) ([]time.Duration, bool) {
	var ms []float64
	if err := json.Unmarshal(raw, &ms); err != nil || len(ms) != n {
		return nil, false
	}
	out := make([]time.Duration, n)
	for i, v := range ms {
		if math.IsNaN(v) || v < 0 || v > 24*3600*1000 {
			return nil, false
		}
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out, true
}

// quoteName shows a part name in an error, bounded.
func quoteName(name string) string {
	if len(name) > 40 {
		name = name[:40] + "…"
	}
	b, _ := json.Marshal(name)
	return string(b)
}
