package main

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"path/filepath"
	"sort"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// realCardSamples are the real card photos (cardtest.RealCards, brought by
// make testdata) as finder samples. Each is turned upright by its EXIF
// orientation, as the verifier decodes an upload, and re-encoded as JPEG
// at quality 95, because the before side's driver decodes plain JPEG and
// the corners were read on the upright photo.
func realCardSamples(root string) ([]finderSample, []cardtest.RealCard, error) {
	dir, err := testkit.FindData(root, cardtest.RealSet...)
	if err != nil {
		return nil, nil, err
	}
	cards, err := cardtest.RealCards()
	if err != nil {
		return nil, nil, err
	}
	var out []finderSample
	for _, rc := range cards {
		img, err := cardtest.LoadUpright(filepath.Join(dir, rc.File))
		if err != nil {
			return nil, nil, err
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
			return nil, nil, err
		}
		s := finderSample{design: rc.File, surface: rc.What, kind: "real photo", cardW: rc.Width(), data: buf.Bytes()}
		for i, p := range rc.Corners {
			s.want[i] = raster.Point{X: float64(p.X), Y: float64(p.Y)}
		}
		out = append(out, s)
	}
	return out, cards, nil
}

// finderColumn is one finder's results on the samples, named.
type finderColumn struct {
	name    string
	results []finderResult
}

// benchRealCards runs the finder on the real card photos, today's beside
// finderBaselineCommit's and finderPreviousCommit's: per photo found
// (every corner within finderTolerance of the card's width of where it was
// read off by eye), refused or wrong (accepted off the card), then totals
// and CPU.
func benchRealCards(root, dir string, withBaseline bool) error {
	samples, cards, err := realCardSamples(root)
	if err != nil {
		return err
	}
	after, err := runFinder(samples, "")
	if err != nil {
		return err
	}
	var columns []finderColumn
	if withBaseline {
		for _, commit := range []string{finderBaselineCommit, finderPreviousCommit} {
			rs, err := runFinderAt(root, dir, commit, samples)
			if err != nil {
				fmt.Printf("finder at %s: unavailable (%v)\n", commit[:12], err)
				continue
			}
			columns = append(columns, finderColumn{commit[:12], rs})
		}
	}
	columns = append(columns, finderColumn{"this tree", after})
	fmt.Printf("\ncard finder on %d real photos (testdata/cards); found = accepted with every corner within %.0f%% of the card's width of the corners read off by eye\n",
		len(samples), 100*finderTolerance)
	fmt.Printf("  %-27s", "photo")
	for _, c := range columns {
		fmt.Printf(" | %-12s", c.name)
	}
	fmt.Println()
	for i, s := range samples {
		fmt.Printf("  %-27s", s.design)
		for _, c := range columns {
			r := c.results[i]
			o := s.outcome(r)
			if o == "found" || o == "wrong" {
				o = fmt.Sprintf("%s %.1f%%", o, 100*s.cornerError(r))
			}
			fmt.Printf(" | %-12s", o)
		}
		fmt.Printf("  %s\n", cards[i].What)
	}
	for _, c := range columns {
		n := map[string]int{}
		for i, s := range samples {
			n[s.outcome(c.results[i])]++
		}
		cpu := cpuOf(c.results)
		sort.Float64s(cpu)
		fmt.Printf("  %-12s found %d, refused %d, too small %d, wrong %d; CPU per photo median %.0f ms, max %.0f ms\n", c.name,
			n["found"], n["refused"], n["too small"], n["wrong"], cpu[len(cpu)/2], cpu[len(cpu)-1])
	}
	fmt.Printf("load average at the end: %s\n", loadAverage())
	return nil
}
