package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/idgate/idgate/bench/internal/cputime"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// washedWidths are the washed sweep's frames by default, px wide (4:3):
// 2, 3, 5, 8 and 12 MP.
const washedWidths = "1630,2000,2580,3264,4000"

// runWashed is the washed sweep (docs/engines.md): ICAO's specimen data
// page printing each letter A-Z in its surname's second cell, that cell
// washed over each half (top, bottom, left, right) levels[i] % of the way
// to the paper (mrztest.WashedSpecimen), photographed at each frame width
// of widths: 104 pages a width and level. Each page is read, and a zone
// left unsure only in its names (reader.UnsureNames) is given the printed
// surname, as the visual zone's second reading would give it. It prints
// each page not settled so, then per width and level the pages settled by
// the printed names, refused, read right and read wrong (accepted with
// other text, or settled to other text: must stay 0), and CPU.
func runWashed(rd *reader.Reader, f *ocrb.Font, levels, widths string) error {
	ls, err := numbers(levels)
	if err != nil {
		return err
	}
	ws, err := numbers(widths)
	if err != nil {
		return err
	}
	fmt.Println("MRZ washed sweep: width level  settled / refused / right / wrong, CPU per page median/p95")
	for _, w := range ws {
		for _, level := range ls {
			var settled, refused, right, wrong int
			var cpu []time.Duration
			for letter := byte('A'); letter <= 'Z'; letter++ {
				for _, p := range mrztest.WashedParts {
					img, lines, err := mrztest.WashedSpecimen(f, mrztest.WashedCamera(int(w)), letter, p.Part, level/100)
					if err != nil {
						return err
					}
					t0 := cputime.Thread()
					m, err := rd.Read(img)
					cpu = append(cpu, cputime.Thread()-t0)
					what := washedOutcome(lines, m, err)
					switch what {
					case "settled":
						settled++
						continue
					case "refused":
						refused++
					case "right":
						right++
					default:
						wrong++
					}
					fmt.Printf("  %4.0f px %3.0f %%  %c washed %-6s %s\n", w, level, letter, p.Name, what)
				}
			}
			med, p95 := quantiles(cpu)
			fmt.Printf("%4.0f px %3.0f %%  %3d / %3d / %3d / %d, CPU %d/%d ms\n", w, level, settled, refused, right, wrong, med, p95)
		}
	}
	return nil
}

// washedOutcome judges what the reader gave for a washed page printing
// lines: "settled" (unsure only in names, and the printed surname settles
// it right), "refused", "right", or what was wrongly accepted.
func washedOutcome(lines []string, m *mrz.MRZ, err error) string {
	printed := strings.Join(lines, "\n")
	var u *reader.UnsureNames
	switch {
	case err == nil && strings.Join(m.Lines, "\n") == printed:
		return "right"
	case err == nil:
		return "WRONG, read " + m.Lines[0]
	case errors.As(err, &u):
		line, start, n := mrz.NameField(u.Format)
		s, err := u.Settle(lines[line][start : start+n])
		switch {
		case err != nil:
			return "refused"
		case strings.Join(s.Lines, "\n") != printed:
			return "WRONG, settled to " + s.Lines[0]
		}
		return "settled"
	}
	return "refused"
}

// numbers parses a comma-separated list of numbers.
func numbers(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s, err)
		}
		out = append(out, v)
	}
	return out, nil
}
