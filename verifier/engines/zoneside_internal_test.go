package engines

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
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

// A zone found and not read is read again upside down, not searched for
// on either side, where its lines stand upright; a page photographed
// across is still read at its quarter turn, and one upside down (its zone
// found upright and not read) at 180°.
func TestZoneSearchTurns(t *testing.T) {
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := reader.New(f)
	if err != nil {
		t.Fatal(err)
	}
	zone := mrztest.Zone(rand.New(rand.NewPCG(7, 2)), mrz.TD3)
	broken := slices.Clone(zone)
	b := []byte(broken[1])
	b[9] = '0' + (b[9]-'0'+1)%10 // the document number's check digit, one more
	broken[1] = string(b)
	for _, c := range []struct {
		name  string
		lines []string
		angle float64
		turns []int
		read  bool
	}{
		{"check digit fails", broken, 2, []int{0, 180}, false},
		{"across", zone, 88, []int{0, 180, 90, 270}, true},
		{"upside down", zone, 182, []int{0, 180}, true},
	} {
		cam := mrztest.Camera{Width: 2000, Height: 1500, PageFrac: 0.6, Angle: c.angle, Blur: 0.5, Light: 0.15, Noise: 2, Quality: 90}
		img, err := mrztest.PrintedShot(f, mrz.TD3, c.lines, nil, mrztest.Print{}, cam, rand.New(rand.NewPCG(1, 35)))
		if err != nil {
			t.Fatal(err)
		}
		var x ZoneExam
		_, _, m := x.readZone(rd, img)
		if !slices.Equal(x.Turns, c.turns) || (m != nil) != c.read || x.Zone == nil {
			t.Errorf("%s: searched %v, read %v, found %v; want %v, %v, true (%v)", c.name, x.Turns, m != nil, x.Zone != nil, c.turns, c.read, x.ReadErr)
		}
	}
}
