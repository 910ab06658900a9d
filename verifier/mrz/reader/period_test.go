package reader

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
)

// TestEllipseFramedZone: DocsaidLab's img1.jpg, whose zone a red ellipse
// frames (its ink joins both ends of each line), is fitted from the ink's
// ends at a pitch 10 % long, refused; laid out again by the lines' period
// it is read right, from the third first cell (the ellipse's ink spans
// two cells before the line).
func TestEllipseFramedZone(t *testing.T) {
	dir := testkit.Data(t, mrztest.RealSet...)
	const file = "docsaid/img1.jpg"
	img, err := mrztest.LoadGray(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	photos, err := mrztest.RealPhotos()
	if err != nil {
		t.Fatal(err)
	}
	var printed string
	for _, p := range photos {
		if p.File == file {
			printed = strings.Join(p.Lines, "\n")
		}
	}
	rd, _ := newReader(t)
	for z, err := range Zones(img, MatchPitch) {
		if err != nil {
			continue
		}
		alts := z.byPeriod()
		if len(alts) == 0 {
			t.Fatalf("fitted at pitch %.2f: not laid out by its period", z.Lines[0].Pitch)
		}
		if k := alts[0].Lines[0].Pitch / z.Lines[0].Pitch; k > 0.95 {
			t.Errorf("the period's pitch is %.3f of the fit's, want the ellipse's 10 %% off", k)
		}
		break
	}
	m, err := rd.Read(img)
	if err != nil || strings.Join(m.Lines, "\n") != printed {
		t.Errorf("read %v (%v), want\n%s", m, err, printed)
	}
}
