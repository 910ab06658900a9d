package mrztest

import (
	_ "embed"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // the real pictures are JPEG and PNG
	_ "image/png"
	"os"
	"strings"

	"github.com/idgate/idgate/verifier/mrz"
)

// RealSet is where the real pictures are, as test-data path elements
// (internal/testkit.Data): specimen data pages and cards from the test
// images of open-source MRZ readers, fetched by make testdata
// (testdata/README.md).
var RealSet = []string{"testdata", "mrz"}

// RealPhoto is one real picture of a data page or a card's zone side, with
// the zone printed on it as typed by hand from the picture.
type RealPhoto struct {
	File  string   // the file's path under RealSet
	Kind  string   // photo, scan or render (real_zones.txt says which is which)
	Lines []string // the zone as printed; none when the picture has none
}

// Outcome is what a reader's answer on a real picture was.
type Outcome string

const (
	// Right: the zone read back exactly as printed.
	Right Outcome = "right"
	// Refused: an error, for a zone that could have been read or not.
	Refused Outcome = "refused"
	// Wrong: a zone accepted with other text than printed, or accepted
	// where the printed zone is not one the parser takes (a format it does
	// not read, check digits the issuer got wrong, no zone at all).
	Wrong Outcome = "wrong"
)

//go:embed real_zones.txt
var realZones string

// RealPhotos lists the real pictures and their zones.
func RealPhotos() ([]RealPhoto, error) {
	var out []RealPhoto
	for n, line := range strings.Split(realZones, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) < 2 {
			return nil, fmt.Errorf("real_zones.txt line %d: want file|kind[|line...], got %q", n+1, line)
		}
		p := RealPhoto{File: f[0], Kind: f[1]}
		for _, l := range f[2:] {
			if l != "" {
				p.Lines = append(p.Lines, l)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// Readable: the printed zone is one mrz.Parse takes (a TD3 or TD1 zone
// whose check digits hold), so a reader should give it back exactly.
func (p RealPhoto) Readable() bool {
	if len(p.Lines) == 0 {
		return false
	}
	_, err := mrz.Parse(strings.Join(p.Lines, "\n"))
	return err == nil
}

// Judge classes a reader's answer on the picture.
func (p RealPhoto) Judge(m *mrz.MRZ, err error) Outcome {
	switch {
	case err != nil:
		return Refused
	case p.Readable() && strings.Join(m.Lines, "\n") == strings.Join(p.Lines, "\n"):
		return Right
	default:
		return Wrong
	}
}

// LoadGray decodes a JPEG or PNG picture into grey levels, as the reader
// takes it.
func LoadGray(path string) (*image.Gray, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g := image.NewGray(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return g, nil
}
