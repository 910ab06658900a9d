package reader

import (
	"errors"
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

func newReader(t testing.TB) (*Reader, *ocrb.Font) {
	t.Helper()
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return r, f
}

// TestReadPhotos: rendered data pages of both formats, photographed turned
// by up to 10° either way, at 40-90% of a 1.2 MP frame, blurred, lit
// unevenly, noisy and JPEG-compressed, read back exactly; a photo the
// reader gets wrong may be refused, never accepted with other text.
func TestReadPhotos(t *testing.T) {
	rd, f := newReader(t)
	r := rand.New(rand.NewPCG(35, 1))
	const n = 10
	right := 0
	for i := range n {
		format := []mrz.Format{mrz.TD3, mrz.TD1}[i%2]
		lines := mrztest.Zone(r, format)
		cam := mrztest.RandomCamera(r, 1280, 960)
		img, err := mrztest.Shot(f, format, lines, cam, r)
		if err != nil {
			t.Fatal(err)
		}
		m, err := rd.Read(img)
		switch {
		case err == nil && strings.Join(m.Lines, "\n") == strings.Join(lines, "\n"):
			right++
		case err == nil:
			t.Errorf("%+v: read\n%s\nprinted\n%s", cam, strings.Join(m.Lines, "\n"), strings.Join(lines, "\n"))
		default:
			t.Logf("%v %+v: %v", format, cam, err)
		}
	}
	t.Logf("%d of %d read right", right, n)
	if right < n*9/10 {
		t.Errorf("%d of %d read right, want 90%%", right, n)
	}
}

// TestNoZone: a blank frame, a noisy one, a tiny one and a page whose zone
// was left off are refused, each with a coded error.
func TestNoZone(t *testing.T) {
	rd, f := newReader(t)
	r := rand.New(rand.NewPCG(3, 5))
	noise := mrztest.Blank(640, 480)
	for i := range noise.Pix {
		noise.Pix[i] = uint8(r.IntN(256))
	}
	page, err := mrztest.Page(f, mrz.TD3, nil, 6, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, img := range map[string]*image.Gray{"blank": mrztest.Blank(800, 600), "noise": noise,
		"tiny": mrztest.Blank(40, 30), "no zone": page} {
		if _, err := rd.Read(img); !errors.Is(err, ErrNoZone) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
