// Command robust measures the engines on inputs people really send, side
// by side with the code before the face-selection and replay-cue changes (baselineCommit's own
// binary, built in a temporary git worktree, on the same files):
//
//   - the card finder (finder.go): found within 5% of the
//     card's width and wrong quads accepted on a seeded rendered set of
//     six designs on eight surfaces, hand-held, vertical, full-frame and
//     on a white border, beside finderBaselineCommit's finder
//     (-only-finder runs this alone);
//   - the back step's front rule (backrule.go): rendered fronts and
//     backs sent as the back, answered with the rule and without it
//     (-only-backrule runs this alone);
//   - license fronts: card found and portrait found rates on synthetic
//     scenes (cardtest) printed with real faces (faces/labeled): cards on
//     a table, ghost portraits, cards filling the frame, flat scans,
//     vertical cards, and far cards and bare tables that must be refused;
//   - face photos: whether Single takes one face where it should (stray
//     detector boxes, ghost copies) and refuses two people and group
//     photos;
//   - liveness: pass rates of live Foreman streams (some with a second
//     face in one or two frames) and of attacks (still image, moved photo,
//     spliced person, replayed clip, a second person in view);
//   - replay cues: periodic spectrum peaks and colour fringes on genuine
//     captures and on screen and print replays of the same cards
//     (replay.go says why the cue is measured, not shipped).
//
// The scenes are synthetic cards with real faces, not photos of real
// licenses: they show what the rules do on these layouts, not how often
// real captures look like them.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/idgate/idgate/internal/modroot"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
)

func main() {
	noBaseline := flag.Bool("no-baseline", false, "skip building and running the before binary")
	onlyReplay := flag.Bool("only-replay", false, "run only the replay-cue evaluation")
	onlyFinder := flag.Bool("only-finder", false, "run only the card finder's evaluation")
	onlyBackRule := flag.Bool("only-backrule", false, "run only the back step's front rule, with and without")
	onlyRealCards := flag.Bool("only-realcards", false, "run only the card finder on the real card photos (testdata/cards)")
	finderDump := flag.String("finder-dump", "", "write the card finder's evaluation photos and their true corners (truth.txt) into this directory and stop, running nothing else")
	flag.BoolVar(&finderOval, "finder-oval", false, "print the card finder's evaluation cards with their design's face-like oval in the portrait, not the labeled faces (a portrait block the faces' set refuses was accepted so)")
	flag.StringVar(&finderProfile, "finder-cpuprofile", "", "write a CPU profile of this tree's card finder on the rendered set into this file (go tool pprof -focus AnalyzeFront)")
	flag.Parse()
	if err := run(!*noBaseline, *onlyReplay, *onlyFinder, *onlyBackRule, *onlyRealCards, *finderDump); err != nil {
		fmt.Fprintln(os.Stderr, "bench/robust:", err)
		os.Exit(1)
	}
}

// dataSets are the directories of the test-data sets the bench reads.
type dataSets struct{ faces, liveness string }

// findData looks the sets up as tests and the other benches do
// (testkit.FindData: testdata/, then var/ after `make testdata`, then
// ../shared), so the bench runs on a lone clone as well as beside the
// shared mirror.
func findData(root string) (dataSets, error) {
	faces, err := testkit.FindData(root, "testdata", "faces")
	if err != nil {
		return dataSets{}, err
	}
	live, err := testkit.FindData(root, "testdata", "liveness")
	if err != nil {
		return dataSets{}, err
	}
	return dataSets{faces: faces, liveness: live}, nil
}

// run runs the evaluations the flags ask for: one when an -only flag is
// given, nothing but the finder's photos written out with finderDump,
// else all of them.
func run(withBaseline, onlyReplay, onlyFinder, onlyBackRule, onlyRealCards bool, finderDump string) error {
	start := time.Now()
	root, err := modroot.Find()
	if err != nil {
		return err
	}
	data, err := findData(root)
	if err != nil {
		return err
	}
	faces, err := labeledFaces(data.faces)
	if err != nil {
		return err
	}
	if finderDump != "" {
		return dumpFinder(finderDump, faces)
	}
	if onlyReplay {
		return benchReplay(faces)
	}
	if onlyBackRule {
		return benchBackRule(faces)
	}
	dir, err := os.MkdirTemp("", "idgate-bench-robust-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if onlyRealCards {
		return benchRealCards(root, dir, withBaseline)
	}
	if err := benchFinder(root, dir, withBaseline, faces); err != nil || onlyFinder {
		return err
	}
	if err := benchRealCards(root, dir, withBaseline); err != nil {
		return err
	}
	if err := benchBackRule(faces); err != nil {
		return err
	}
	eng, an, err := liveness.Load("", face.DefaultOptions, liveness.Defaults)
	if err != nil {
		return err
	}
	var base *baseline
	if withBaseline {
		if base, err = buildBaseline(root, dir); err != nil {
			fmt.Printf("before: unavailable (%v); after only\n", err)
		}
	}
	if base != nil {
		fmt.Printf("before = %s (main before the face-selection and replay-cue changes), after = this tree; same files, same run\n", baselineCommit[:12])
	}
	samples, err := cardSamples(faces)
	if err != nil {
		return err
	}
	if err := benchCards(dir, base, faceengine.New(eng.NewAnalyzer()), samples); err != nil {
		return err
	}
	if err := benchPhotos(dir, base, eng.NewAnalyzer(), data.faces, faces); err != nil {
		return err
	}
	if err := benchMatch(dir, base, eng.NewAnalyzer(), samples, faces); err != nil {
		return err
	}
	if err := benchLiveness(dir, base, an, data); err != nil {
		return err
	}
	if err := benchReplay(faces); err != nil {
		return err
	}
	fmt.Printf("(%v)\n", time.Since(start).Round(time.Second))
	return nil
}

// labeledFaces loads faces/labeled/*/*.png under the faces set.
func labeledFaces(facesDir string) ([]labeled, error) {
	files, err := filepath.Glob(filepath.Join(facesDir, "labeled", "*", "*.png"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("labeled faces under %s: %d files, %v", facesDir, len(files), err)
	}
	sort.Strings(files)
	var out []labeled
	for _, f := range files {
		img, err := decodeFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, labeled{name: filepath.Base(f), path: f, img: img})
	}
	return out, nil
}

// tally counts successes before and after; noBefore when the baseline
// did not run.
type tally struct {
	n, before, after int
	noBefore         bool
}

func (t *tally) add(before, after bool) {
	t.n++
	t.before += b2i(before)
	t.after += b2i(after)
}

func (t tally) String() string {
	if t.noBefore {
		return fmt.Sprintf("%7s → %3d/%-3d", "-", t.after, t.n)
	}
	return fmt.Sprintf("%3d/%-3d → %3d/%-3d", t.before, t.n, t.after, t.n)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func benchCards(dir string, base *baseline, f *faceengine.Finder, samples []cardSample) error {
	var order, misses []string
	cards, portraits := map[string]*tally{}, map[string]*tally{}
	for _, s := range samples {
		img, err := imgio.DecodeImage(s.data, imgio.Limits{})
		if err != nil {
			return err
		}
		after, err := frontAfter(f, img)
		if err != nil {
			return err
		}
		var before front
		if base != nil {
			path, err := writeFile(dir, s.file, s.data)
			if err != nil {
				return err
			}
			before = frontBefore(base, path)
		}
		if cards[s.family] == nil {
			order = append(order, s.family)
			cards[s.family], portraits[s.family] = &tally{noBefore: base == nil}, &tally{noBefore: base == nil}
		}
		if s.refuse {
			cards[s.family].add(refused(before), refused(after))
			continue
		}
		cards[s.family].add(s.cardOK(before), s.cardOK(after))
		portraits[s.family].add(s.portraitOK(before), s.portraitOK(after))
		if !s.portraitOK(after) {
			misses = append(misses, fmt.Sprintf("%s (%s): card %v %q, face %v at %v, rotation %d", s.file, s.family, s.cardOK(after), after.cardErr, after.face, after.box, after.rotation))
		}
	}
	fmt.Println("== license fronts (synthetic cards, real faces): found correctly, before → after")
	fmt.Printf("%-20s %-19s %-19s\n", "", "card", "portrait")
	for _, fam := range order {
		if fam == "refusal" {
			fmt.Printf("%-20s %s (refused: too small or no card)\n", "far card, bare table", cards[fam])
			continue
		}
		fmt.Printf("%-20s %s %s\n", fam, cards[fam], portraits[fam])
	}
	for _, m := range misses {
		fmt.Println("  missed after:", m)
	}
	return nil
}

func benchPhotos(dir string, base *baseline, a *face.Analyzer, facesDir string, faces []labeled) error {
	samples, err := photoSamples(facesDir, faces)
	if err != nil {
		return err
	}
	var order, misses []string
	right := map[string]*tally{}
	for _, s := range samples {
		after, err := singleAfter(a, s.data)
		if err != nil {
			return err
		}
		var before bool
		if base != nil {
			path, err := writeFile(dir, s.file, s.data)
			if err != nil {
				return err
			}
			if before, err = singleBefore(base, path); err != nil {
				return err
			}
		}
		if right[s.family] == nil {
			order = append(order, s.family)
			right[s.family] = &tally{noBefore: base == nil}
		}
		right[s.family].add(before == s.single, after == s.single)
		if after != s.single {
			misses = append(misses, fmt.Sprintf("%s (%s)", s.file, s.family))
		}
	}
	fmt.Println("== face photos (Single, as face compare uses it): judged right, before → after")
	for _, fam := range order {
		want := "one face"
		if fam == "two people" || fam == "group photo" {
			want = "refused"
		}
		fmt.Printf("%-20s %s (want %s)\n", fam, right[fam], want)
	}
	for _, m := range misses {
		fmt.Println("  wrong after:", m)
	}
	return nil
}

func benchMatch(dir string, base *baseline, a *face.Analyzer, samples []cardSample, faces []labeled) error {
	before, after := map[bool]tiers{true: {}, false: {}}, map[bool]tiers{true: {}, false: {}}
	var misses []string
	for _, p := range matchPairs(samples, faces) {
		t, err := compareAfter(a, p)
		if err != nil {
			return err
		}
		after[p.same][t]++
		if wrong := t == "refused" || (p.same && t == string(match.NoMatch)) ||
			(!p.same && (t == string(match.DefiniteMatch) || t == string(match.LikelyMatch))); wrong {
			misses = append(misses, fmt.Sprintf("%s (%s, %s) vs %s: %s", p.card.file, p.card.family, faces[p.card.person].name, p.photo.name, t))
		}
		if base == nil {
			continue
		}
		path, err := writeFile(dir, p.card.file, p.card.data)
		if err != nil {
			return err
		}
		if t, err = compareBefore(base, path, p); err != nil {
			return err
		}
		before[p.same][t]++
	}
	fmt.Println("== face compare, whole card photo (face upright in it) vs a photo of the same person / someone else")
	for _, same := range []bool{true, false} {
		name := "different people"
		if same {
			name = "same person"
		}
		if base != nil {
			fmt.Printf("%-18s before:%s\n", name, before[same])
		}
		fmt.Printf("%-18s after: %s\n", name, after[same])
	}
	for _, m := range misses {
		fmt.Println("  wrong after:", m)
	}
	return nil
}

func benchLiveness(dir string, base *baseline, an *liveness.Analyzer, data dataSets) error {
	seqs, err := sequences(data)
	if err != nil {
		return err
	}
	live, attacks := tally{noBefore: base == nil}, tally{noBefore: base == nil}
	fmt.Println("== liveness (real Foreman frames): verdict, before → after")
	for k, s := range seqs {
		after, err := livenessAfter(an, s)
		if err != nil {
			return err
		}
		before := liveness.Result{}
		if base != nil {
			if before, err = livenessBefore(base, dir, k, s); err != nil {
				return err
			}
		}
		if s.live {
			live.add(before.Live, after.Live)
		} else {
			attacks.add(before.Live, after.Live)
		}
		fmt.Printf("%-50s %-28s → %s\n", s.name, verdict(before, base != nil), verdict(after, true))
	}
	fmt.Printf("live sequences passed %s; attacks passed %s\n", live, attacks)
	return nil
}

func verdict(r liveness.Result, ran bool) string {
	switch {
	case !ran:
		return "-"
	case r.Live:
		return "live"
	}
	f := slices.Clone(r.Failures)
	return fmt.Sprintf("refused %v", f)
}
