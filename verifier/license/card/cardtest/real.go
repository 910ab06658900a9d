package cardtest

import (
	_ "embed"
	"fmt"
	"image"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/idgate/idgate/verifier/imgio"
)

// RealSet is where the real card photos are, as test-data path elements
// (internal/testkit.Data): ID-1 cards photographed on tables, from the
// examples of open-source card rectifiers, fetched by make testdata
// (testdata/README.md).
var RealSet = []string{"testdata", "cards"}

// RealCard is one real photo of an ID-1 card and where its corners are.
type RealCard struct {
	File    string // the photo's path under RealSet
	What    string // the card and the surface it lies on
	Corners [4]image.Point
}

//go:embed real_corners.txt
var realCorners string

// RealCards lists the real photos with their corners read off by eye.
func RealCards() ([]RealCard, error) {
	var out []RealCard
	for n, line := range strings.Split(realCorners, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		pts := strings.Fields(f[len(f)-1])
		if len(f) != 3 || len(pts) != 4 {
			return nil, fmt.Errorf("real_corners.txt line %d: want path|what|four x,y points, got %q", n+1, line)
		}
		c := RealCard{File: f[0], What: f[1]}
		for i, p := range pts {
			x, y, ok := strings.Cut(p, ",")
			var errX, errY error
			c.Corners[i].X, errX = strconv.Atoi(x)
			c.Corners[i].Y, errY = strconv.Atoi(y)
			if !ok || errX != nil || errY != nil {
				return nil, fmt.Errorf("real_corners.txt line %d: corner %q is not x,y", n+1, p)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Width is the card's long side in the photo, the mean of the two: the
// scale a corner's error is measured against.
func (c RealCard) Width() float64 {
	side := func(a, b image.Point) float64 {
		dx, dy := float64(a.X-b.X), float64(a.Y-b.Y)
		return math.Hypot(dx, dy)
	}
	s := [4]float64{side(c.Corners[0], c.Corners[1]), side(c.Corners[1], c.Corners[2]),
		side(c.Corners[2], c.Corners[3]), side(c.Corners[3], c.Corners[0])}
	return max((s[0]+s[2])/2, (s[1]+s[3])/2)
}

// CornerError is the largest distance of found corners from these, over
// the card's width, for the best match of their order (a finder orders
// corners by the card's long side, not by which way up it is, and may
// go round the other way).
func (c RealCard) CornerError(found [4]image.Point) float64 {
	best := -1.0
	for _, rev := range []bool{false, true} {
		for shift := range 4 {
			worst := 0.0
			for i, p := range found {
				k := (i + shift) % 4
				if rev {
					k = (4 - i + shift) % 4
				}
				dx, dy := float64(p.X-c.Corners[k].X), float64(p.Y-c.Corners[k].Y)
				worst = max(worst, math.Hypot(dx, dy))
			}
			if best < 0 || worst < best {
				best = worst
			}
		}
	}
	return best / c.Width()
}

// LoadUpright decodes a photo as the verifier does an upload: bounded,
// turned upright by its EXIF orientation.
func LoadUpright(path string) (image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return imgio.DecodeImage(data, imgio.Upload)
}
