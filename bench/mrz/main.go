// Command mrz measures reading the machine-readable zone from photos of
// data pages: our reader (verifier/mrz/reader: the zone found and
// straightened, each cell matched against OCR-B glyphs) side by side with
// plain Tesseract (eng, the only model Debian packages; restricted to the
// zone's characters) on the same zones, straightened by the same finder,
// both parsed by verifier/mrz, whose check digits decide. Photos are
// rendered (verifier/mrz/mrztest: TD3 data pages and TD1 card sides, told
// apart per size too, the ICAO specimens among them; 102 per size by
// default) at 2-12 MP, drawn by stroke width in turn (1-1.5 px, 1.5-2.5,
// 2.5 and more: the page's share of the frame follows, so the bar
// rests on over a hundred photos per band), turned up to 10°, seen up to
// 10° off square (keystone), blurred, lit unevenly, noisy, JPEG 60-95, its
// zone printed up to a fifth heavier or lighter. Per size, per stroke
// band (split again by defocus under or over a stroke), and over every
// photo whose strokes are 1 px or wider (the bar: 99% right, none
// wrong): read right, refused, read wrong (accepted with other text: must
// stay 0), and CPU per page (median, p95) of the calling thread. With
// -washed, the washed sweep instead (washed.go): a name letter washed out
// over each half of its cell, every letter, at the levels and frame widths
// given.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/bench/internal/cputime"
	"github.com/idgate/idgate/verifier/license/tesseract"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// tessPitch: Tesseract reads the zone at 32 px per character (capitals
// about 22 px high, its best size), ours at reader.MatchPitch.
const tessPitch = 32

// strokeMM is OCR-B's stroke width at ISO 1073-2 size 1.
const strokeMM = 0.35

// strokes are the edges of the stroke-width bands, px, that the photos are
// drawn from in turn (so every band holds a third of them at every size and
// the bar, 1 px and more, rests on as many small zones as large):
// 1-1.5, 1.5-2.5 and 2.5 px and more.
var strokes = []float64{1, 1.5, 2.5, 1e9}

const bands = 3

// maxBlurStrokes bounds the defocus by the zone's stroke: a Gaussian blur
// of more than 1.35 strokes merges OCR-B's counters (its gaps are one to
// two strokes) into grey, a zone no reader can resolve. The blur drawn
// before this bench drew the page's size by stroke band (0-1.5 px at 2 MP,
// pages 25-90% of the frame) reached 1.31 strokes at worst.
const maxBlurStrokes = 1.35

// pageFrac draws how much of the frame's width the page spans so that its
// zone's strokes fall in band b: a stroke width drawn evenly over the band
// for the first two; for the open last one, the page drawn evenly from the
// band's lower edge (or a quarter of the frame, if larger) to 90% of it.
func pageFrac(r *rand.Rand, b, w int, f mrz.Format) float64 {
	perFrac := float64(w) / mrztest.Width(f) * strokeMM // stroke at the page spanning the frame
	lo, hi := strokes[b], strokes[b+1]
	if b == bands-1 {
		lo := max(lo/perFrac, 0.25)
		return lo + (0.9-lo)*r.Float64()
	}
	return (lo + (hi-lo)*r.Float64()) / perFrac
}

type outcome struct {
	right, wrong, refused int
	cpu                   []time.Duration
}

func (o *outcome) add(printed []string, m *mrz.MRZ, err error, d time.Duration) {
	o.cpu = append(o.cpu, d)
	switch {
	case err != nil:
		o.refused++
	case strings.Join(m.Lines, "\n") == strings.Join(printed, "\n"):
		o.right++
	default:
		o.wrong++
	}
}

func (o *outcome) String() string {
	med, p95 := quantiles(o.cpu)
	n := o.right + o.wrong + o.refused
	return fmt.Sprintf("%3d/%-3d right (%5.1f %%), %d wrong, %3d refused, CPU %4d/%4d ms", o.right, n, 100*float64(o.right)/float64(max(n, 1)), o.wrong, o.refused, med, p95)
}

func main() {
	seed := flag.Uint64("seed", 1, "photo set seed")
	photos := flag.Int("photos", 102, "photos per size (a third per stroke band)")
	only := flag.String("sizes", "", "the sizes to run, comma-separated (\"2 MP,12 MP\"; empty: all), to split a run across processes")
	withTess := flag.Bool("tesseract", true, "read every photo with plain Tesseract too (the baseline; false for a quick run of ours alone)")
	real := flag.Bool("real", false, "read the real pictures (testdata/mrz/passporteye) instead of rendered photos")
	retry := flag.String("retry", "", "read again the photos a -dump run saved in this directory, and nothing else")
	dump := flag.String("dump", "", "directory to write the photos our reader refuses or misreads to (PNG), with what each reader read")
	calibrate := flag.Bool("margins", false, "instead of reading, score every zone found both ways against the printed text and print the margins per template blur (what the readers' margins are calibrated on)")
	engine := flag.Bool("engine", false, "read the data pages our reader refuses again through the passport engine's whole path (engines.ExaminePassport, one worker; needs the face models) and print what each gave (with -real and -retry too)")
	washed := flag.String("washed", "", "instead of the photos, the washed sweep at these wash levels, % of the way to the paper, comma-separated (\"80,85,93\"; washed.go)")
	widths := flag.String("widths", washedWidths, "the washed sweep's frame widths, px, comma-separated (4:3)")
	below := flag.Float64("below", 0, "read only the photos of the stroke bands below this width, px (2.5: the two small bands; 0: all); the others are still drawn, so the photos read are the same as in a whole run")
	flag.Parse()
	runtime.LockOSThread()
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		log.Fatal(err)
	}
	rd, err := reader.New(f)
	if err != nil {
		log.Fatal(err)
	}
	var ep *enginePath
	if *engine {
		if ep, err = newEnginePath(); err != nil {
			log.Fatal(err)
		}
	}
	if *washed != "" {
		if err := runWashed(rd, f, *washed, *widths); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *retry != "" {
		if err := runRetry(rd, ep, *retry, *calibrate); err != nil {
			log.Fatal(err)
		}
		return
	}
	tess, err := tesseract.New("")
	if err != nil {
		log.Fatal(err)
	}
	defer tess.Close()
	if err := tess.Set("tessedit_char_whitelist", ocrb.Charset); err != nil {
		log.Fatal(err)
	}
	if *real {
		if err := runReal(rd, tess, ep); err != nil {
			log.Fatal(err)
		}
		return
	}
	specimens := map[mrz.Format][]string{
		mrz.TD3: {"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"},
		mrz.TD1: {"I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"},
	}
	ours, theirs := map[string]*outcome{}, map[string]*outcome{}
	tally := newMargins()
	var sizes, buckets []string
	for _, mp := range []struct {
		name string
		w, h int
	}{{"2 MP", 1632, 1224}, {"5 MP", 2592, 1944}, {"8 MP", 3264, 2448}, {"12 MP", 4000, 3000}} {
		// Each size its own stream: a run split by -sizes draws the same
		// photos as a whole one.
		r := rand.New(rand.NewPCG(*seed, uint64(35+mp.w)))
		if *only != "" && !slices.Contains(strings.Split(*only, ","), mp.name) {
			continue
		}
		sizes = append(sizes, mp.name)
		for i := range *photos {
			// Stroke bands in turn, each band the data page and the card
			// in turn; the first page and card of each band the ICAO
			// specimen's.
			format := []mrz.Format{mrz.TD3, mrz.TD1}[i/bands%2]
			lines := mrztest.Zone(r, format)
			if i < 2*bands {
				lines = specimens[format]
			}
			cam := mrztest.RandomCamera(r, mp.w, mp.h)
			cam.PageFrac = pageFrac(r, i%bands, mp.w, format)
			stroke := cam.PageFrac * float64(mp.w) / mrztest.Width(format) * strokeMM
			// Defocus growing with the sensor (0-1.5 px at 2 MP, so up to
			// 3.7 px at 12 MP), but never past maxBlurStrokes strokes; the
			// phone up to 10° off square above the page (keystone up to
			// ±6%), the print up to a fifth heavier or lighter.
			cam.Blur = r.Float64() * min(1.5*float64(mp.w)/1632, maxBlurStrokes*stroke)
			cam.Keystone = 0.12*r.Float64() - 0.06
			img, err := mrztest.PrintedShot(f, format, lines, nil, mrztest.RandomPrint(r), cam, r)
			if err != nil {
				log.Fatal(err)
			}
			if *below > 0 && strokes[i%bands+1] > *below {
				continue
			}
			if *calibrate {
				tally.add(rd, img, lines)
				continue
			}
			b := bucket(stroke, strokes)
			if !slices.Contains(buckets, b) {
				buckets = append(buckets, b)
			}
			t0 := cputime.Thread()
			m, err := rd.Read(img)
			d := cputime.Thread() - t0
			kind := map[mrz.Format]string{mrz.TD3: "TD3 page", mrz.TD1: "TD1 card"}[format]
			keys := []string{mp.name, b, kind + " " + mp.name, b + blurName(cam.Blur/stroke)}
			if stroke >= 1 {
				keys = append(keys, target)
			}
			for _, k := range keys {
				get(ours, k).add(lines, m, err, d)
			}
			if ep != nil && err != nil && format == mrz.TD3 {
				what, err := ep.read(img, lines)
				if err != nil {
					log.Fatal(err)
				}
				fmt.Printf("  %s-%d, refused by the reader; the passport engine: %s\n", strings.ReplaceAll(mp.name, " ", ""), i, what)
			}
			if *dump != "" && (err != nil || strings.Join(m.Lines, "\n") != strings.Join(lines, "\n")) {
				save(*dump, fmt.Sprintf("%s-%d", strings.ReplaceAll(mp.name, " ", ""), i), img, cam, lines, m, err)
			}
			if !*withTess {
				continue
			}
			t0 = cputime.Thread()
			m, err = readTesseract(tess, img)
			d = cputime.Thread() - t0
			if *dump != "" && i == 0 {
				save(*dump, fmt.Sprintf("tesseract-%s-%d", strings.ReplaceAll(mp.name, " ", ""), i), img, cam, lines, m, err)
			}
			for _, k := range keys {
				get(theirs, k).add(lines, m, err, d)
			}
		}
	}
	if *calibrate {
		tally.print()
		return
	}
	fmt.Println("MRZ photos, ours (glyph matcher) | plain Tesseract (eng, whitelist) on the same zones")
	for _, k := range sizes {
		fmt.Printf("  %-34s ours %s | tesseract %s\n", k, ours[k], get(theirs, k))
	}
	// The passport's pages and the ID card's backs apart, per size.
	for _, kind := range []string{"TD3 page", "TD1 card"} {
		for _, size := range sizes {
			k := kind + " " + size
			fmt.Printf("  %-34s ours %s | tesseract %s\n", k, get(ours, k), get(theirs, k))
		}
	}
	slices.Sort(buckets)
	for _, k := range append(buckets, target) {
		fmt.Printf("  %-34s ours %s | tesseract %s\n", k, ours[k], get(theirs, k))
	}
	// Each band again, split by how far the defocus spreads a stroke.
	for _, b := range buckets {
		for _, k := range []string{b + blurName(0), b + blurName(2)} {
			fmt.Printf("  %-34s ours %s | tesseract %s\n", k, get(ours, k), get(theirs, k))
		}
	}
	if ep != nil {
		fmt.Printf("  data pages the reader refused, through the passport engine: %s\n", ep)
	}
}

// target is the bar: the photos whose zone strokes are 1 px or
// wider, of which 99% must read right and none wrong.
const target = "all ≥ 1 px"

// readTesseract reads the zones the finder yields with Tesseract, in turn,
// until one parses: the same search as reader.Read, another recogniser.
func readTesseract(tess *tesseract.Reader, img *image.Gray) (*mrz.MRZ, error) {
	last := reader.ErrNoZone
	for z, err := range reader.Zones(img, tessPitch) {
		if err != nil {
			continue
		}
		words, err := tess.Words(z.Crop, int(tessPitch*10))
		if err != nil {
			last = err
			continue
		}
		text := map[int]string{}
		maxLine := -1
		for _, w := range words {
			text[w.Line] += w.Text
			maxLine = max(maxLine, w.Line)
		}
		var lines []string
		for i := 0; i <= maxLine; i++ {
			lines = append(lines, text[i])
		}
		m, err := mrz.Parse(strings.Join(lines, "\n"))
		if err == nil {
			return m, nil
		}
		last = err
	}
	return nil, last
}

// save writes a photo and a note of what was printed and read.
func save(dir, name string, img *image.Gray, cam mrztest.Camera, printed []string, m *mrz.MRZ, err error) {
	var b bytes.Buffer
	if e := png.Encode(&b, img); e != nil {
		log.Fatal(e)
	}
	note := fmt.Sprintf("%+v\nprinted:\n%s\n", cam, strings.Join(printed, "\n"))
	if m != nil {
		note += "read:\n" + strings.Join(m.Lines, "\n") + "\n"
	}
	note += fmt.Sprintf("error: %v\n", err)
	if e := os.WriteFile(filepath.Join(dir, name+".png"), b.Bytes(), 0o644); e != nil {
		log.Fatal(e)
	}
	if e := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(note), 0o644); e != nil {
		log.Fatal(e)
	}
}

func get(m map[string]*outcome, k string) *outcome {
	if m[k] == nil {
		m[k] = &outcome{}
	}
	return m[k]
}

// blurName names the defocus, in strokes, as under a stroke or over.
func blurName(strokes float64) string {
	if strokes <= 1 {
		return ", blur ≤ 1 stroke"
	}
	return ", blur > 1 stroke"
}

// bucket names the stroke-width range s falls in.
func bucket(s float64, edges []float64) string {
	lo := 0.0
	for _, e := range edges {
		if s < e {
			if e > 1e8 {
				return fmt.Sprintf("stroke ≥ %.1f px", lo)
			}
			return fmt.Sprintf("stroke %.1f-%.1f px", lo, e)
		}
		lo = e
	}
	return "?"
}

func quantiles(d []time.Duration) (med, p95 int64) {
	m, p := cputime.MedianP95(d)
	return m.Milliseconds(), p.Milliseconds()
}
