// Package matchtest builds the face-match evaluation set: license
// portraits printed on rendered cards and photographed, against selfie
// frames and stills, of the same and of different people. The evaluation
// program (bench/match) and the tier tests share it, so the figures beside
// the thresholds and the tests that hold them see the same pairs.
//
// People (16): the 8 of testdata/faces/labeled (5 stills each, 150 px,
// grey), the Foreman clip, and the real liveness clips of
// testdata/liveness/real: five GRID speakers in six clips (pwij3p and
// id2_swwp2s may be one speaker: their pairs are left out) and the man of
// smartlive.gif. intel_hp_female.gif is left out: its face is 45 px
// across and turned throughout.
package matchtest

import (
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"slices"

	"github.com/idgate/idgate/internal/testkit/gifplay"
	"github.com/idgate/idgate/verifier/imgio"
)

// Photo is one image of a known person.
type Photo struct {
	// Person names who it shows.
	Person string
	// Origin names the still or frame it was made from: a card and a
	// selfie of the same origin are not a pair.
	Origin string
	// Name says what it is, for reports.
	Name string
	// Image is the photo: a selfie frame or still, or the corrected card.
	Image *image.RGBA
}

// Set is the evaluation set: license portraits on cards (probes) and
// selfies (references).
type Set struct {
	Cards, Selfies []Photo
	// Skipped names the portrait frames where no face was found.
	Skipped []string
}

// Pair reports whether a card and a selfie are evaluated and whether they
// show the same person.
func Pair(card, selfie Photo) (same, use bool) {
	if card.Origin == selfie.Origin || unsure[[2]string{card.Person, selfie.Person}] {
		return false, false
	}
	return card.Person == selfie.Person, true
}

// unsure holds pairs of people who may be one person.
var unsure = map[[2]string]bool{
	{"grid_pwij3p", "grid_id2_swwp2s"}: true,
	{"grid_id2_swwp2s", "grid_pwij3p"}: true,
}

// Find returns the path of a test data file (testkit.FindData bound to
// the repository, or testkit.Data bound to a test).
type Find func(elem ...string) (string, error)

// Locate returns the square around the subject's face in img (the face
// engine's box).
type Locate func(img *image.RGBA) (image.Rectangle, error)

// clip is a video of one person: which frames are selfies and which are
// printed on cards.
type clip struct {
	person string
	// frame returns frames by index (from 0).
	frames func(find Find, idx []int) (map[int]*image.RGBA, error)
	// selfies and portraits are frame indexes; portraits are frontal
	// frames away from the selfies.
	selfies, portraits []int
}

// jpegs reads a clip's frames fNNN.jpg.
func jpegs(set, dir string) func(find Find, idx []int) (map[int]*image.RGBA, error) {
	return func(find Find, idx []int) (map[int]*image.RGBA, error) {
		out := map[int]*image.RGBA{}
		for _, i := range idx {
			p, err := find("testdata", "liveness", set, dir, fmt.Sprintf("f%03d.jpg", i+1))
			if err != nil {
				return nil, err
			}
			if out[i], err = readRGBA(p); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// gifFrames decodes a GIF's frames, composited as a player shows them.
func gifFrames(name string) func(find Find, idx []int) (map[int]*image.RGBA, error) {
	return func(find Find, idx []int) (map[int]*image.RGBA, error) {
		p, err := find("testdata", "liveness", "real", name)
		if err != nil {
			return nil, err
		}
		out := map[int]*image.RGBA{}
		i := 0
		err = gifplay.Play(p, func(f gifplay.Frame) error {
			if slices.Contains(idx, i) {
				out[i] = gifplay.Copy(f.Image)
			}
			i++
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			if out[i] == nil {
				return nil, fmt.Errorf("%s has no frame %d", name, i)
			}
		}
		return out, nil
	}
}

// The clips: six selfie frames spread over each clip and two frames for
// cards. GRID speakers face the camera throughout; smartlive's frames are
// from its frontal stretches (1–30, 55–65, 85–92, 105–118 at 10 fps; its
// GIF frames run about 25 a second).
var clips = []clip{
	{person: "foreman", frames: jpegs("foreman", ""), selfies: []int{0, 30, 60, 90, 120, 150}, portraits: []int{15, 105}},
	{person: "grid_bbaf2n", frames: jpegs("real", "grid_bbaf2n"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "grid_brbk7n", frames: jpegs("real", "grid_brbk7n"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "grid_lbax4n", frames: jpegs("real", "grid_lbax4n"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "grid_pwij3p", frames: jpegs("real", "grid_pwij3p"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "grid_id2_swwp2s", frames: jpegs("real", "grid_id2_swwp2s"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "grid_sbwe5n", frames: jpegs("real", "grid_sbwe5n"), selfies: []int{0, 5, 10, 15, 24, 29}, portraits: []int{3, 27}},
	{person: "smartlive", frames: gifFrames("smartlive.gif"), selfies: []int{5, 40, 150, 220, 265, 285}, portraits: []int{20, 60}},
}

// labeledPeople are the people of testdata/faces/labeled.
var labeledPeople = []string{"amy", "bernadette", "howard", "leonard", "penny", "raj", "sheldon", "stuart"}

// Load builds the set. Every labeled still is a selfie and, printed on a
// card in each of variants, a license portrait; each clip gives six
// selfie frames and two portrait frames, cut square around the face
// (locate) as a license portrait is framed.
func Load(find Find, locate Locate, variants []Variant) (Set, error) {
	var s Set
	addCards := func(person, origin string, face *image.RGBA) error {
		for _, v := range variants {
			img, err := v.Photograph(face)
			if err != nil {
				return fmt.Errorf("card of %s (%s): %w", origin, v.Name, err)
			}
			s.Cards = append(s.Cards, Photo{Person: person, Origin: origin, Name: origin + " on a card, " + v.Name, Image: img})
		}
		return nil
	}
	for _, person := range labeledPeople {
		for k := 1; k <= 5; k++ {
			name := fmt.Sprintf("%s%d", person, k)
			p, err := find("testdata", "faces", "labeled", person, name+".png")
			if err != nil {
				return Set{}, err
			}
			img, err := readRGBA(p)
			if err != nil {
				return Set{}, err
			}
			s.Selfies = append(s.Selfies, Photo{Person: person, Origin: name, Name: name, Image: img})
			if err := addCards(person, name, img); err != nil {
				return Set{}, err
			}
		}
	}
	for _, c := range clips {
		all, err := c.frames(find, slices.Concat(c.selfies, c.portraits))
		if err != nil {
			return Set{}, fmt.Errorf("%s: %w", c.person, err)
		}
		for _, i := range c.selfies {
			origin := fmt.Sprintf("%s frame %d", c.person, i+1)
			s.Selfies = append(s.Selfies, Photo{Person: c.person, Origin: origin, Name: origin, Image: all[i]})
		}
		for _, i := range c.portraits {
			origin := fmt.Sprintf("%s frame %d", c.person, i+1)
			box, err := locate(all[i])
			if err != nil {
				s.Skipped = append(s.Skipped, origin+": "+err.Error())
				continue
			}
			if err := addCards(c.person, origin, portraitCrop(all[i], box)); err != nil {
				return Set{}, err
			}
		}
	}
	return s, nil
}

// portraitCrop frames a face as a license portrait does: a square 1.7
// times the face box, centred a little above it (grey outside the frame).
func portraitCrop(img *image.RGBA, face image.Rectangle) *image.RGBA {
	side := face.Dx() * 17 / 10
	cx, cy := (face.Min.X+face.Max.X)/2, (face.Min.Y+face.Max.Y)/2-face.Dy()/10
	r := image.Rect(cx-side/2, cy-side/2, cx-side/2+side, cy-side/2+side)
	out := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(out, out.Rect, image.NewUniform(portraitGrey), image.Point{}, draw.Src)
	draw.Draw(out, out.Rect, img, r.Min, draw.Src)
	return out
}

func readRGBA(path string) (*image.RGBA, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, err := imgio.DecodeImage(data, imgio.Limits{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return toRGBA(img), nil
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	return out
}

// String summarises the set.
func (s Set) String() string {
	people := map[string]bool{}
	for _, p := range s.Selfies {
		people[p.Person] = true
	}
	var same, diff int
	for _, c := range s.Cards {
		for _, f := range s.Selfies {
			if sm, use := Pair(c, f); use && sm {
				same++
			} else if use {
				diff++
			}
		}
	}
	return fmt.Sprintf("%d people, %d card portraits, %d selfies: %d same-person and %d different-person pairs",
		len(people), len(s.Cards), len(s.Selfies), same, diff)
}
