package main

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/idgate/idgate/verifier/mrz/reader"
)

// runRetry reads again the photos a -dump run saved (each PNG beside its
// note of what was printed): after a change to the reader, whether the
// photos it refused or misread now read, before a whole run; with
// calibrate, their margins too (margins); with ep, the data pages it
// refuses through the passport engine too.
func runRetry(rd *reader.Reader, ep *enginePath, dir string, calibrate bool) error {
	tally := newMargins()
	names, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil {
		return err
	}
	right, n := 0, 0
	for _, name := range names {
		if strings.HasPrefix(filepath.Base(name), "tesseract-") {
			continue
		}
		note, err := os.ReadFile(strings.TrimSuffix(name, ".png") + ".txt")
		if err != nil {
			return err
		}
		_, rest, _ := strings.Cut(string(note), "printed:\n")
		printed, _, _ := strings.Cut(rest, "\nread:")
		printed, _, _ = strings.Cut(printed, "\nerror:")
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			return err
		}
		g := image.NewGray(img.Bounds())
		draw.Draw(g, g.Rect, img, image.Point{}, draw.Src)
		lines := strings.Split(strings.TrimSpace(printed), "\n")
		if calibrate {
			tally.add(rd, g, lines)
		}
		m, err := rd.Read(g)
		n++
		switch {
		case err != nil && ep != nil && len(lines) == 2:
			what, err2 := ep.read(g, lines)
			if err2 != nil {
				return err2
			}
			fmt.Printf("%s: refused: %v; the passport engine: %s\n", filepath.Base(name), err, what)
		case err != nil:
			fmt.Printf("%s: refused: %v\n", filepath.Base(name), err)
		case strings.Join(m.Lines, "\n") == strings.TrimSpace(printed):
			right++
			fmt.Printf("%s: right\n", filepath.Base(name))
		default:
			fmt.Printf("%s: WRONG\n%s\n", filepath.Base(name), strings.Join(m.Lines, "\n"))
		}
	}
	fmt.Printf("%d of %d read right\n", right, n)
	if ep != nil {
		fmt.Printf("data pages refused, through the passport engine: %s\n", ep)
	}
	if calibrate {
		tally.print()
	}
	return nil
}
