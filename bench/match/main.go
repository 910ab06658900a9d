// Command match evaluates face embeddings side by side on the pairs the
// product sees (verifier/face/match/matchtest): a license portrait printed
// behind a guilloche on a rendered card, photographed and cut out, against
// a selfie frame or still, of the same and of different people; and the
// stills and frames against each other. For each embedding it prints the
// false non-match rate at a false match rate of 1/1,000 and 1/10,000 (or
// at no false match when the set has too few impostor pairs for that),
// the cosine's spread on same and different people, the CPU time per
// descriptor on this machine and the model's size; then the tier
// confusion of the face match as configured (match.Default).
//
// Every embedding sees the same faces: the engine's detector and mesh run
// once per image, and each embedding's crop is cut from that mesh by its
// own alignment (facerec.Geometry).
package main

import (
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/idgate/idgate/internal/modroot"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/match/matchtest"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/match:", err)
		os.Exit(1)
	}
}

// candidate is one embedding under evaluation.
type candidate struct {
	name  string
	files []string // model files, for the size
	size  int
	align facerec.Geometry
	embed func(crop *tensor.Tensor) ([]float32, error)
	cpu   time.Duration // total over every descriptor computed
	n     int
}

func candidates(set *models.Set) ([]*candidate, error) {
	net, err := facerec.Load(set.ReadFile)
	if err != nil {
		return nil, err
	}
	fa := net.NewEmbedder()
	out := []*candidate{{
		name: "face-api", files: []string{facerec.ManifestFile, "face-api/face_recognition_model.bin"},
		size: facerec.InputSize, align: facerec.Align,
		embed: func(crop *tensor.Tensor) ([]float32, error) {
			d, err := fa.Descriptor(crop)
			return d[:], err
		},
	}}
	for _, sp := range []facerec.Spec{facerec.MobileFaceNet, facerec.FaceRes, facerec.FaceResDeep} {
		g, err := facerec.LoadGraph(set.ReadFile, sp)
		if err != nil {
			return nil, err
		}
		e := g.NewEmbedder()
		bin := sp.File[:len(sp.File)-len(".json")] + ".bin"
		out = append(out, &candidate{name: sp.Name, files: []string{sp.File, bin}, size: sp.Size, align: sp.Align, embed: e.Embed})
	}
	return out, nil
}

// described is one photo's face as each candidate sees it.
type described struct {
	photo matchtest.Photo
	desc  [][]float32 // per candidate; nil when no usable face was found
	// faceAPI is the engine's own descriptor, for the tiers.
	faceAPI []float32
}

func run() error {
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	set, err := models.Open("", models.Hashes+models.Candidates)
	if err != nil {
		return err
	}
	eng, err := face.Load("", face.DefaultOptions)
	if err != nil {
		return err
	}
	a := eng.NewAnalyzer()
	cands, err := candidates(set)
	if err != nil {
		return err
	}
	find := func(elem ...string) (string, error) { return testkit.FindData(root, elem...) }
	start := time.Now()
	data, err := matchtest.Load(find, locator(a), matchtest.Variants)
	if err != nil {
		return err
	}
	fmt.Printf("evaluation set: %s (built in %.1f s)\n", data, time.Since(start).Seconds())
	for _, s := range data.Skipped {
		fmt.Println("  portrait frame skipped:", s)
	}

	describe := func(photos []matchtest.Photo, card bool) ([]described, error) {
		out := make([]described, len(photos))
		for i, p := range photos {
			out[i].photo = p
			f, err := subject(a, p.Image, card)
			if errors.Is(err, errNoFace) {
				fmt.Printf("  no usable face: %s\n", p.Name)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.Name, err)
			}
			img := imgio.ToTensor(p.Image)
			out[i].faceAPI = f.Descriptor[:]
			for _, c := range cands {
				var crop tensor.Tensor
				if err := face.AlignedCrop(&crop, img, f.Mesh, c.align, c.size); err != nil {
					return nil, err
				}
				t0 := cpuTime()
				d, err := c.embed(&crop)
				c.cpu += cpuTime() - t0
				c.n++
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w", p.Name, c.name, err)
				}
				out[i].desc = append(out[i].desc, d)
			}
		}
		return out, nil
	}
	cards, err := describe(data.Cards, true)
	if err != nil {
		return err
	}
	selfies, err := describe(data.Selfies, false)
	if err != nil {
		return err
	}

	cardPairs := evaluate(cands, cards, selfies, matchtest.Pair)
	stillPairs := evaluate(cands, selfies, selfies, func(x, y matchtest.Photo) (bool, bool) {
		if x.Origin >= y.Origin { // each unordered pair once
			return false, false
		}
		return matchtest.Pair(x, y)
	})
	report("license portrait on a card vs selfie", cands, cardPairs)
	report("selfie stills and frames vs each other", cands, stillPairs)
	fmt.Println("\nper descriptor (process CPU, crop to embedding, mean over every face above) and model size:")
	for _, c := range cands {
		var bytes int64
		for _, f := range c.files {
			st, err := os.Stat(filepath.Join(set.Dir, f))
			if err != nil {
				return err
			}
			bytes += st.Size()
		}
		fmt.Printf("  %-13s %6.1f ms CPU  %5.1f MB  input %d px\n", c.name, float64(c.cpu.Microseconds())/1000/float64(c.n), float64(bytes)/1e6, c.size)
	}
	tierMatrix(cards, selfies)
	return nil
}

// evaluate scores every used pair with each candidate's cosine.
func evaluate(cands []*candidate, xs, ys []described, pair func(x, y matchtest.Photo) (same, use bool)) []scores {
	out := make([]scores, len(cands))
	for _, x := range xs {
		for _, y := range ys {
			same, use := pair(x.photo, y.photo)
			if !use || x.desc == nil || y.desc == nil {
				continue
			}
			for k := range cands {
				c := cosine(x.desc[k], y.desc[k])
				if same {
					out[k].same = append(out[k].same, c)
				} else {
					out[k].diff = append(out[k].diff, c)
				}
			}
		}
	}
	return out
}

func report(title string, cands []*candidate, s []scores) {
	fmt.Printf("\n%s: %d same-person pairs, %d different-person pairs\n", title, len(s[0].same), len(s[0].diff))
	fmt.Printf("  %-13s %-22s %-22s %-24s %-24s %s\n", "embedding", "FNMR @ FMR 1/1,000", "FNMR @ FMR 1/10,000", "cosine same min/med/max", "cosine diff min/med/max", "gap")
	for k, c := range cands {
		f3, t3 := s[k].fnmrAt(1e-3)
		f4, t4 := s[k].fnmrAt(1e-4)
		at4 := fmt.Sprintf("%5.1f %% (cos > %.3f)", 100*f4, t4)
		if len(s[k].diff) < 10000 {
			at4 = fmt.Sprintf("%5.1f %% at 0 FM*", 100*f4)
		}
		fmt.Printf("  %-13s %5.1f %% (cos > %.3f)  %-22s %-24s %-24s %+.3f\n", c.name, 100*f3, t3, at4, spread(s[k].same), spread(s[k].diff), s[k].gap())
	}
	if len(s[0].diff) < 10000 {
		fmt.Printf("  * fewer than 10,000 impostor pairs: FNMR where no impostor pair passes (FMR < 1/%d)\n", len(s[0].diff))
	}
}

// tierMatrix counts the face match's tiers (match.Default on the engine's
// descriptor) on the card-vs-selfie pairs.
func tierMatrix(cards, selfies []described) {
	count := map[bool]map[match.Tier]int{true: {}, false: {}}
	dist := map[bool][]float64{}
	for _, c := range cards {
		for _, s := range selfies {
			same, use := matchtest.Pair(c.photo, s.photo)
			if !use || c.faceAPI == nil || s.faceAPI == nil {
				continue
			}
			r, err := match.Default.Compare(c.faceAPI, s.faceAPI)
			if err != nil {
				continue
			}
			count[same][r.Tier]++
			dist[same] = append(dist[same], r.Distance)
		}
	}
	fmt.Println("\ntiers as configured (match.Default on face-api's Euclidean distance), license portrait on a card vs selfie:")
	for _, same := range []bool{true, false} {
		label := "different people"
		if same {
			label = "same person     "
		}
		fmt.Printf("  %s  distance %s ", label, spread(dist[same]))
		for _, t := range []match.Tier{match.DefiniteMatch, match.LikelyMatch, match.PossibleMatch, match.NoMatch} {
			fmt.Printf("  %s %d", t, count[same][t])
		}
		fmt.Println()
	}
}

var errNoFace = errors.New("no usable face")

// subject is the face the product would match: on a corrected card the
// largest (the portrait; a ghost copy is smaller), in a selfie the single
// face (face.Analyzer.Single).
func subject(a *face.Analyzer, img *image.RGBA, card bool) (face.Face, error) {
	t := imgio.ToTensor(img)
	if !card {
		f, err := a.Single(t)
		if errors.Is(err, face.ErrNoFace) || errors.Is(err, face.ErrMultipleFaces) || errors.Is(err, face.ErrFaceTooSmall) {
			return f, errNoFace
		}
		return f, err
	}
	faces, err := a.Analyze(t)
	if err != nil {
		return face.Face{}, err
	}
	if len(faces) == 0 || faces[0].Size < face.DefaultOptions.MinFaceSize {
		return face.Face{}, errNoFace
	}
	return faces[0], nil
}

// locator finds the face a portrait is cut around.
func locator(a *face.Analyzer) matchtest.Locate {
	return func(img *image.RGBA) (image.Rectangle, error) {
		f, err := a.Single(imgio.ToTensor(img))
		if err != nil {
			return image.Rectangle{}, err
		}
		b := f.Box
		return image.Rect(b[0], b[1], b[0]+b[2], b[1]+b[3]), nil
	}
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
