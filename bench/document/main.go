// Command document measures front_barcode_match on synthetic licenses:
// for each license of the barcode test set (pdf417/synth's clean kind) a
// photographed front printing the barcode's data (genuine), one per
// alteration a forger makes (another last or first name, an older birth
// date, a digit of the number changed, a later expiry) and one smudged
// past reading, under several resolution, blur and glare levels. Each
// photo goes the engines' way (JPEG, card.AnalyzeFront, refused like the
// engines refuse a blurred or glared card, license/tesseract on the
// corrected card, license.CompareFront against the barcode's license).
// It prints per level the match/mismatch/unreadable rates of genuine
// fronts, the share of altered fronts caught, the smudged fronts'
// outcomes and each field's read accuracy; then the CPU time of one OCR
// beside one barcode decode (pdf417.Decode on the same license's back).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/jpeg"
	"log"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/idgate/idgate/bench/internal/cputime"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
	"github.com/idgate/idgate/verifier/license/tesseract"
)

func main() {
	seed := flag.Uint64("seed", 1, "set seed")
	n := flag.Int("n", 4, "licenses per level")
	flag.Parse()
	if err := run(*seed, *n); err != nil {
		log.Fatal(err)
	}
}

// level is one photographic condition. Phone marks the levels of a
// phone photo at arm's length (the card about 1000 px across in a 1600 px
// frame or more), where the target is no false mismatch at all.
type level struct {
	name      string
	cardW     float64
	blur      float64
	glareSize float64
	phone     bool
}

var levels = []level{
	{"phone, sharp", 1000, 0, 0, true},
	{"phone, blur 0.8", 1000, 0.8, 0, true},
	{"phone, blur 1.4", 1000, 1.4, 0, true},
	{"phone, glare 1/18", 1000, 0, 1.0 / 18, true},
	{"phone, glare 1/16", 1000, 0, 1.0 / 16, true},
	{"12 MP, card 1500 px", 1500, 0.6, 0, true},
	{"card 700 px", 700, 0, 0, false},
	{"card 520 px", 520, 0, 0, false},
	{"card 520 px, blur 0.8", 520, 0.8, 0, false},
}

// kinds of front per license: genuine, the alterations, smudged.
const (
	genuine = "genuine"
	smudged = "smudged"
)

func kinds() []string {
	out := []string{genuine}
	for _, a := range cardtest.Alterations {
		out = append(out, string(a))
	}
	return append(out, smudged)
}

type tally struct {
	photos, refused int
	// outcome counts per kind of front
	out map[string]map[license.FieldOutcome]int
	// field reads on genuine fronts: fields matched out of fronts read
	fieldOK map[string]int
	genuine int
}

func run(seed uint64, n int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r, err := tesseract.New("")
	if err != nil {
		return err
	}
	defer r.Close()
	load, _ := os.ReadFile("/proc/loadavg")
	var lics []license.License
	var backs []synth.Case
	for _, c := range synth.Set(seed, n) {
		if c.Kind != "clean" {
			continue
		}
		l, err := license.ParseAAMVA(c.Payload)
		if err != nil {
			return err
		}
		lics, backs = append(lics, l), append(backs, c)
	}
	fmt.Printf("front_barcode_match on %d synthetic licenses per level (pdf417/synth seed %d, clean kind), each front genuine, "+
		"altered (%s) and smudged; load average %s", len(lics), seed, strings.Join(strings.Fields(fmt.Sprint(cardtest.Alterations)), " "), load)
	fmt.Printf("%-22s %5s %7s | %-22s | %-40s | %-15s | %s\n", "level", "fronts", "refused",
		"genuine match/mis/unr", "altered caught (ln fn dob num exp)", "smudged unr/mis", "genuine field reads (num last first dob exp)")
	var ocrCPU []time.Duration
	phoneFalse, alteredMissed, alteredN := 0, 0, 0
	for li, lv := range levels {
		t := tally{out: map[string]map[license.FieldOutcome]int{}, fieldOK: map[string]int{}}
		for i, l := range lics {
			rng := rand.New(rand.NewPCG(seed, uint64(li*1000+i)))
			for _, kind := range kinds() {
				printed, smudge := l, 0.0
				switch kind {
				case genuine:
				case smudged:
					smudge = 0.8
				default:
					printed = cardtest.Altered(l, cardtest.Alteration(kind))
				}
				s := cardtest.Scene{FrameW: int(lv.cardW * 1.3), CardW: lv.cardW, Aspect: card.ID1Aspect,
					RotationDeg: rng.Float64()*10 - 5, Keystone: rng.Float64() * 0.05, Blur: lv.blur,
					Glare: lv.glareSize > 0, GlareSize: lv.glareSize, Seed: rng.Uint64(),
					Front: &cardtest.Front{Lines: cardtest.FrontLines(printed), Smudge: smudge}}
				t.photos++
				c, ok, err := examine(s)
				if err != nil {
					return err
				}
				if !ok {
					t.refused++
					continue
				}
				start := cputime.Thread()
				p, _, err := r.ReadFront(c.Image)
				ocrCPU = append(ocrCPU, cputime.Thread()-start)
				if err != nil {
					return err
				}
				m := license.CompareFront(l, p)
				if t.out[kind] == nil {
					t.out[kind] = map[license.FieldOutcome]int{}
				}
				t.out[kind][m.Result]++
				switch kind {
				case genuine:
					t.genuine++
					f := m.Fields
					for name, o := range map[string]license.FieldOutcome{"num": f.DocumentNumber, "last": f.LastName,
						"first": f.FirstName, "dob": f.DOB, "exp": f.ExpiryDate} {
						if o == license.FieldMatch {
							t.fieldOK[name]++
						}
					}
					if lv.phone && m.Result == license.FieldMismatch {
						phoneFalse++
					}
				case smudged:
				default:
					alteredN++
					if m.Result != license.FieldMismatch {
						alteredMissed++
					}
				}
			}
		}
		t.print(lv.name)
	}
	fmt.Printf("genuine fronts called mismatch at phone levels: %d; altered fronts not caught (accepted photos, all levels): %d of %d\n",
		phoneFalse, alteredMissed, alteredN)
	return timing(seed, r, lics, backs, ocrCPU)
}

// examine is the engines' front path up to the corrected card: JPEG as
// uploaded, the card found, refused when too small, too blurred or
// glared (engines.MaxGlare).
func examine(s cardtest.Scene) (card.Card, bool, error) {
	img, _ := s.Render()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		return card.Card{}, false, err
	}
	dec, err := jpeg.Decode(&b)
	if err != nil {
		return card.Card{}, false, err
	}
	c, err := card.AnalyzeFront(dec)
	if err != nil || c.Image == nil || !c.AspectOK || c.Glare > engines.MaxGlare {
		return c, false, nil
	}
	return c, true, nil
}

func (t tally) print(name string) {
	rate := func(kind string, o license.FieldOutcome) string {
		total := 0
		for _, v := range t.out[kind] {
			total += v
		}
		if total == 0 {
			return "  -"
		}
		return fmt.Sprintf("%3.0f", 100*float64(t.out[kind][o])/float64(total))
	}
	g := fmt.Sprintf("%s/%s/%s %%", rate(genuine, license.FieldMatch), rate(genuine, license.FieldMismatch), rate(genuine, license.FieldUnreadable))
	var alt []string
	for _, a := range cardtest.Alterations {
		alt = append(alt, rate(string(a), license.FieldMismatch))
	}
	sm := fmt.Sprintf("%s/%s %%", rate(smudged, license.FieldUnreadable), rate(smudged, license.FieldMismatch))
	var reads []string
	for _, f := range []string{"num", "last", "first", "dob", "exp"} {
		if t.genuine == 0 {
			reads = append(reads, "  -")
			continue
		}
		reads = append(reads, fmt.Sprintf("%3.0f", 100*float64(t.fieldOK[f])/float64(t.genuine)))
	}
	fmt.Printf("%-22s %5d %7d | %-22s | %-40s | %-15s | %s %%\n", name, t.photos, t.refused, g,
		strings.Join(alt, " ")+" %", sm, strings.Join(reads, " "))
}

// timing prints the OCR's CPU time per card beside the barcode decode's
// on the same licenses' backs (clean photos, as the flow tests use).
func timing(seed uint64, r *tesseract.Reader, lics []license.License, backs []synth.Case, ocr []time.Duration) error {
	var dec []time.Duration
	for _, c := range backs {
		img, err := c.Render()
		if err != nil {
			return err
		}
		start := cputime.Thread()
		// pdf417.Decode works on the calling goroutine: its CPU is this
		// thread's.
		if _, _, err := pdf417.Decode(context.Background(), img, nil); err != nil {
			return fmt.Errorf("decode back %s: %w", c.Name, err)
		}
		dec = append(dec, cputime.Thread()-start)
	}
	// A clean flat card, read over and over, for a steady figure.
	flat := cardtest.Scene{Aspect: card.ID1Aspect, Front: &cardtest.Front{Lines: cardtest.FrontLines(lics[0])}}.Card()
	var steady []time.Duration
	for range 10 {
		start := cputime.Thread()
		if _, _, err := r.ReadFront(flat); err != nil {
			return err
		}
		steady = append(steady, cputime.Thread()-start)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	mo, po := stats(ocr)
	ms, _ := stats(steady)
	md, pd := stats(dec)
	fmt.Printf("CPU per card: OCR median %v p95 %v (%d photos; a clean card %v) — barcode decode median %v p95 %v (%d backs); "+
		"OCR/decode %.2f (target OCR < 300 ms); load average %s", mo, po, len(ocr), ms, md, pd, len(dec),
		float64(mo)/float64(md), load)
	return nil
}

func stats(d []time.Duration) (median, p95 time.Duration) {
	m, p := cputime.MedianP95(d)
	return m.Round(time.Millisecond), p.Round(time.Millisecond)
}
