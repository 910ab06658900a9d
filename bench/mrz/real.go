package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/idgate/idgate/bench/internal/cputime"
	"github.com/idgate/idgate/internal/modroot"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/license/tesseract"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// runReal reads every real picture (specimens photographed, scanned or
// drawn by their issuers: mrztest.RealPhotos, brought by make testdata)
// with both readers and prints what each gave per picture, then the
// totals: right, refused and wrong (accepted with other text than printed,
// or where nothing readable is printed), and CPU per picture. With ep,
// every picture but a card's (three lines printed) that ours refuses is
// judged by the passport engine too.
func runReal(rd *reader.Reader, tess *tesseract.Reader, ep *enginePath) error {
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	dir, err := testkit.FindData(root, mrztest.RealSet...)
	if err != nil {
		return err
	}
	photos, err := mrztest.RealPhotos()
	if err != nil {
		return err
	}
	var cpuOurs, cpuTheirs []time.Duration
	talliedOurs, talliedTheirs := map[mrztest.Outcome]int{}, map[mrztest.Outcome]int{}
	readable := 0
	fmt.Println("MRZ real pictures (testdata/mrz): ours | plain Tesseract (eng, whitelist) on the same zones")
	for _, p := range photos {
		img, err := mrztest.LoadGray(filepath.Join(dir, p.File))
		if err != nil {
			return err
		}
		if p.Readable() {
			readable++
		}
		t0 := cputime.Thread()
		m, err := rd.Read(img)
		cpuOurs = append(cpuOurs, cputime.Thread()-t0)
		a := p.Judge(m, err)
		talliedOurs[a]++
		note := wrongNote("ours", a, m)
		if ep != nil && a == mrztest.Refused && len(p.Lines) != 3 {
			what, err := ep.read(img, p.Lines)
			if err != nil {
				return err
			}
			note += "; the passport engine: " + what
		}
		t0 = cputime.Thread()
		m, err = readTesseract(tess, img)
		cpuTheirs = append(cpuTheirs, cputime.Thread()-t0)
		b := p.Judge(m, err)
		talliedTheirs[b]++
		note += wrongNote("tesseract", b, m)
		fmt.Printf("  %-30s %-6s readable=%-5v ours %-7s | tesseract %-7s%s\n", p.File, p.Kind, p.Readable(), a, b, note)
	}
	if ep != nil {
		fmt.Printf("  refused by ours, through the passport engine: %s\n", ep)
	}
	for _, t := range []struct {
		name string
		cpu  []time.Duration
		n    map[mrztest.Outcome]int
	}{{"ours", cpuOurs, talliedOurs}, {"tesseract", cpuTheirs, talliedTheirs}} {
		med, p95 := quantiles(t.cpu)
		fmt.Printf("  %-10s %2d/%d readable read right, %2d refused, %d wrong (of %d pictures), CPU %4d/%4d ms\n", t.name,
			t.n[mrztest.Right], readable, t.n[mrztest.Refused], t.n[mrztest.Wrong], len(photos), med, p95)
	}
	return nil
}

// wrongNote says what a reader accepted when it was wrong.
func wrongNote(who string, o mrztest.Outcome, m *mrz.MRZ) string {
	if o != mrztest.Wrong {
		return ""
	}
	return fmt.Sprintf(" (%s read %s)", who, strings.Join(m.Lines, " / "))
}
