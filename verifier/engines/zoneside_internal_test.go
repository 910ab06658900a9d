package engines

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// A zone the reader refused as too blurred asks for a sharper photo even
// when the page around it measured sharp; any other unread zone on a sharp
// page asks only for another photo.
func TestJudgeTellsABlurredZone(t *testing.T) {
	for _, tc := range []struct {
		name      string
		readErr   error
		sharpness float64
		want      []flow.Problem
	}{
		{"zone too blurred, page sharp", fmt.Errorf("mrz reader: print blurred: %w", reader.ErrTooBlurred), 0.7, []flow.Problem{flow.ProblemMRZUnreadable, flow.ProblemTooBlurry}},
		{"a character unclear, page sharp", reader.ErrUnsure, 0.7, []flow.Problem{flow.ProblemMRZUnreadable}},
		{"a character unclear, page blurred", reader.ErrUnsure, 0.2, []flow.Problem{flow.ProblemMRZUnreadable, flow.ProblemTooBlurry}},
	} {
		s := zoneSide{Found: true, Sharpness: tc.sharpness}
		s.judge(tc.readErr, nil, &td3Page, time.Now())
		if !slices.Equal(s.Problems, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, s.Problems, tc.want)
		}
	}
}
