package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/png" // the real photos
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
	"github.com/idgate/idgate/verifier/license/pdf417/zxing"
)

// patient has a budget no loaded machine exhausts: the photo sections
// measure what the pipeline reads, not how fast (the 12 MP timing does).
var patient = pdf417.Decoder{Budget: time.Minute}

// realPhoto is one of the ZXing project's camera captures of PDF417
// symbols (testdata/zxing-pdf417, Apache-2.0) with its expected content.
type realPhoto struct {
	name string
	img  *image.Gray
	want []byte
}

func loadReal(dir string) ([]realPhoto, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no photos in %s (run from the repository root)", dir)
	}
	sort.Strings(files)
	var out []realPhoto
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		img, _, err := image.Decode(fh)
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".png") + ".txt")
		if err != nil {
			return nil, err
		}
		out = append(out, realPhoto{filepath.Base(f), raster.Luminance(img), want})
	}
	return out, nil
}

// realSet decodes the real captures as taken, turned and tilted (real
// print and optics, synthetic geometry), and shrunk (a farther or
// lower-resolution camera), ours beside plain zxing; and checks the module
// estimate on real print: shrinking a photo by s must shrink it by s.
func realSet(dir string) error {
	photos, err := loadReal(dir)
	if err != nil {
		return err
	}
	fmt.Printf("\nreal photos: %d camera captures of PDF417 symbols (ZXing black-box sets pdf417-2 and -3, Apache-2.0; not license backs), success = exact bytes\n", len(photos))
	fmt.Printf("%-34s %-14s %-14s\n", "condition", "ours", "plain zxing")
	type cond struct {
		name string
		f    func(*image.Gray) *image.Gray
	}
	conds := []cond{
		{"as taken", func(g *image.Gray) *image.Gray { return g }},
		{"turned 15° (real print)", func(g *image.Gray) *image.Gray { return turn(g, 15, 0) }},
		{"turned 8°, tilted 12% (real print)", func(g *image.Gray) *image.Gray { return turn(g, 8, 0.12) }},
		{"upside down (real print)", func(g *image.Gray) *image.Gray { return turn(g, 180, 0) }},
	}
	for _, s := range []float64{0.75, 0.5, 0.35} {
		s := s
		conds = append(conds, cond{fmt.Sprintf("shrunk to %.0f%%", 100*s), func(g *image.Gray) *image.Gray {
			return raster.Resize(g, int(float64(g.Rect.Dx())*s), int(float64(g.Rect.Dy())*s))
		}})
	}
	for _, c := range conds {
		var t tally
		var answers [3]int // not found, too small, unreadable
		for _, p := range photos {
			img := c.f(p.img)
			t.n++
			got, rep, err := patient.Decode(context.Background(), img, nil)
			if err == nil && bytes.Equal(got, p.want) {
				t.ours++
			} else {
				answers[answerOf(rep)]++
			}
			if res, err := zxing.Read(img, true); err == nil && bytes.Equal(res.Bytes, p.want) {
				t.plain++
			}
		}
		pct := func(k int) float64 { return 100 * float64(k) / float64(t.n) }
		note := ""
		if t.n > t.ours {
			note = fmt.Sprintf("  ours failed %d: not found %d, too small %d, unreadable %d", t.n-t.ours, answers[0], answers[1], answers[2])
		}
		fmt.Printf("%-34s %4d/%-3d %4.0f%% %4d/%-3d %4.0f%%%s\n", c.name, t.ours, t.n, pct(t.ours), t.plain, t.n, pct(t.plain), note)
	}
	// Module estimate on real print: consistency under shrinking.
	var ratios []float64
	var sizes []float64
	for _, p := range photos {
		m0, ok := pdf417.EstimateModule(p.img)
		if !ok {
			continue
		}
		sizes = append(sizes, m0)
		small := raster.Resize(p.img, p.img.Rect.Dx()/2, p.img.Rect.Dy()/2)
		if m1, ok := pdf417.EstimateModule(small); ok {
			ratios = append(ratios, m1/(m0/2))
		}
	}
	fmt.Printf("module estimate on the real photos: measured on %d/%d, %.1f-%.1f px (median %.1f); shrunk to 50%%: estimate / (original / 2) median %.2f, p10 %.2f, p90 %.2f (n=%d)\n",
		len(sizes), len(photos), quant(sizes, 0), quant(sizes, 1), quant(sizes, 0.5), quant(ratios, 0.5), quant(ratios, 0.1), quant(ratios, 0.9), len(ratios))
	return nil
}

// turn rotates g by deg about its centre on a canvas that holds all of it,
// with keystone k (the top edge shorter by that fraction), padding with
// the photo's border grey.
func turn(g *image.Gray, deg, k float64) *image.Gray {
	w, h := float64(g.Rect.Dx()), float64(g.Rect.Dy())
	a := deg * math.Pi / 180
	cw := math.Abs(w*math.Cos(a)) + math.Abs(h*math.Sin(a))
	ch := math.Abs(w*math.Sin(a)) + math.Abs(h*math.Cos(a))
	quad := [4]raster.Point{
		{X: -w / 2 * (1 - k), Y: -h / 2}, {X: w / 2 * (1 - k), Y: -h / 2},
		{X: w / 2, Y: h / 2}, {X: -w / 2, Y: h / 2},
	}
	toCanvas := raster.Affine(a, 1, cw/2, ch/2)
	for i, p := range quad {
		quad[i].X, quad[i].Y = toCanvas.Apply(p.X, p.Y)
	}
	corners := [4]raster.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
	m, err := raster.FromQuad(quad, corners)
	if err != nil {
		return g
	}
	// Warp samples at pixel centres: shift by half a pixel both sides.
	m = raster.Homography{1, 0, 0.5, 0, 1, 0.5, 0, 0, 1}.Then(m).Then(raster.Homography{1, 0, -0.5, 0, 1, -0.5, 0, 0, 1})
	return raster.Warp(g, int(cw), int(ch), m, borderGrey(g))
}

func borderGrey(g *image.Gray) uint8 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var vs []int
	for x := 0; x < w; x++ {
		vs = append(vs, int(g.Pix[x]), int(g.Pix[(h-1)*g.Stride+x]))
	}
	sort.Ints(vs)
	return uint8(vs[len(vs)/2])
}

// photoSet measures the synthetic phone photos (synth.PhotoSet: print and
// camera models) per resolution and per module size, and how the failures
// are answered.
func photoSet(seed uint64, perMP int) error {
	set := synth.PhotoSet(seed, perMP)
	fmt.Printf("\nsynthetic phone photos: %d (seed %d, %d per resolution; card 25-90%% of the frame width; print: dot gain, ragged edges, halftone, texture, glare; camera: perspective, defocus, motion, noise, sharpening, JPEG 85-95)\n", len(set), seed, perMP)
	type row struct {
		ours, plain, n int
		cpu            []time.Duration // of our reads
	}
	byMP := map[float64]*row{}
	buckets := []float64{0, 1.3, 1.7, 2.0, 2.5, 3.5, 5, math.Inf(1)}
	byMod := make([]row, len(buckets)-1)
	var estErr []float64
	// Failures: answered too small / not, by whether the true module is
	// under MinModulePx.
	var failSmall, failBig [3]int
	var failures []string
	for _, p := range set {
		img, mods, err := p.Render()
		if err != nil {
			return err
		}
		trueM := p.ModulePx(mods)
		r := byMP[p.MP]
		if r == nil {
			r = &row{}
			byMP[p.MP] = r
		}
		b := sort.SearchFloat64s(buckets, trueM) - 1
		if b < 0 {
			b = 0
		}
		r.n++
		byMod[b].n++
		c0 := cpuTime()
		got, rep, err := patient.Decode(context.Background(), img, nil)
		r.cpu = append(r.cpu, cpuTime()-c0)
		ok := err == nil && bytes.Equal(got, p.Payload)
		if ok {
			r.ours++
			byMod[b].ours++
		} else {
			if trueM < pdf417.MinModulePx {
				failSmall[answerOf(rep)]++
			} else {
				failBig[answerOf(rep)]++
			}
			failures = append(failures, fmt.Sprintf("  %-7s module %5.2f px (estimated %5.2f, edge %4.1f px), turned %+5.1f°, keystone %.2f, defocus %.1f, motion %.1f px, glare %.2f: %s",
				p.Name, trueM, rep.ModulePx, rep.EdgePx, p.Camera.RotationDeg, p.Camera.Keystone, p.Camera.Defocus, p.Camera.MotionPx, p.Print.Glare, answerNames[answerOf(rep)]))
		}
		if res, err := zxing.Read(grayOf(img), true); err == nil && bytes.Equal(res.Bytes, p.Payload) {
			r.plain++
			byMod[b].plain++
		}
		if est, ok := pdf417.EstimateModule(img); ok {
			estErr = append(estErr, est/trueM-1)
		}
	}
	fmt.Printf("%-12s %-14s %-14s %-12s %s\n", "resolution", "ours", "plain zxing", "frame", "ours, CPU per read: median / p95")
	for _, mp := range synth.Resolutions {
		r := byMP[mp]
		w, h := synth.FrameSize(mp)
		fmt.Printf("%4g MP %-5s %4d/%-3d %4.0f%% %4d/%-3d %4.0f%%  %-12s %v / %v\n", mp, "", r.ours, r.n, 100*float64(r.ours)/float64(r.n), r.plain, r.n, 100*float64(r.plain)/float64(r.n),
			fmt.Sprintf("%dx%d", w, h), pctl(r.cpu, 50), pctl(r.cpu, 95))
	}
	fmt.Printf("%-12s %-14s %-14s\n", "module px", "ours", "plain zxing")
	for i, r := range byMod {
		if r.n == 0 {
			continue
		}
		fmt.Printf("%4.1f-%-7.1f %4d/%-3d %4.0f%% %4d/%-3d %4.0f%%\n", buckets[i], buckets[i+1], r.ours, r.n, 100*float64(r.ours)/float64(r.n), r.plain, r.n, 100*float64(r.plain)/float64(r.n))
	}
	abs := make([]float64, len(estErr))
	for i, e := range estErr {
		abs[i] = math.Abs(e)
	}
	fmt.Printf("module estimate vs true: measured on %d/%d, error median %+.0f%%, |error| median %.0f%%, p90 %.0f%%\n",
		len(estErr), len(set), 100*quant(estErr, 0.5), 100*quant(abs, 0.5), 100*quant(abs, 0.9))
	for i, f := range [][3]int{failSmall, failBig} {
		fmt.Printf("not decoded, true module %s %.1f px: not found %d, too small %d, unreadable %d\n",
			[]string{"<", ">="}[i], pdf417.MinModulePx, f[0], f[1], f[2])
	}
	for _, f := range failures {
		fmt.Println(f)
	}
	return nil
}

// answerNames are the back step's problems (verifier/engines) for answerOf's values.
var answerNames = [3]string{"barcode_not_found", "barcode_too_small", "barcode_unreadable"}

// answerOf is how the back step answers a failed decode: 0 not found (no
// barcode-like region), 1 too small, 2 unreadable.
func answerOf(rep pdf417.Report) int {
	switch {
	case rep.Regions == 0:
		return 0
	case rep.TooSmall():
		return 1
	}
	return 2
}

// quant is the q-quantile (0-1, nearest rank) of xs; NaN when empty.
func quant(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(math.Round(q*float64(len(s)-1)))]
}
