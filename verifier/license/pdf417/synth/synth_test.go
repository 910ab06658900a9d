package synth

import (
	"bytes"
	"image"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

func TestSetCoversEveryKindDeterministically(t *testing.T) {
	a, b := Set(5, 3), Set(5, 3)
	if len(a) != 3*len(Kinds) {
		t.Fatalf("%d cases, want %d", len(a), 3*len(Kinds))
	}
	seen := map[string]int{}
	for i := range a {
		seen[a[i].Kind]++
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Payload, b[i].Payload) || a[i].Degradation != b[i].Degradation {
			t.Fatalf("case %d differs between identical seeds", i)
		}
		if a[i].EC < 3 || a[i].EC > 5 || a[i].Module < 2 || a[i].Module > 3 {
			t.Errorf("%s: EC %d module %d outside the set's ranges", a[i].Name, a[i].EC, a[i].Module)
		}
	}
	for _, k := range Kinds {
		if seen[k] != 3 {
			t.Errorf("kind %s has %d cases", k, seen[k])
		}
	}
	if other := Set(6, 3); bytes.Equal(other[0].Payload, a[0].Payload) && other[1].Degradation == a[1].Degradation {
		t.Error("different seeds gave the same set")
	}
}

func TestDegradationRanges(t *testing.T) {
	for _, c := range Set(11, 10) {
		d := c.Degradation
		switch {
		case d.RotationDeg < -maxRotation || d.RotationDeg > maxRotation:
			t.Errorf("%s: rotation %v", c.Name, d.RotationDeg)
		case d.JPEGQuality != 0 && (d.JPEGQuality < minJPEG || d.JPEGQuality > maxJPEG):
			t.Errorf("%s: JPEG quality %d", c.Name, d.JPEGQuality)
		case d.Downscale != 0 && (d.Downscale < minScale || d.Downscale > maxScale):
			t.Errorf("%s: downscale %v", c.Name, d.Downscale)
		}
		if c.Kind == "clean" && d != (Degradation{}) {
			t.Errorf("%s: clean case degraded: %+v", c.Name, d)
		}
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	for _, c := range []Case{Set(3, 2)[1], Set(3, 2)[len(Kinds)*2-1]} { // a clean and a combined case
		a, err := c.Render()
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.Render()
		if err != nil {
			t.Fatal(err)
		}
		ga, gb := a.(*image.Gray), b.(*image.Gray)
		if !bytes.Equal(ga.Pix, gb.Pix) {
			t.Fatalf("%s: two renders differ", c.Name)
		}
		if w := ga.Rect.Dx(); w < 700 || ga.Rect.Dy()*4 != w*3 && c.Downscale == 0 {
			t.Errorf("%s: frame %v is not a 4:3 phone frame", c.Name, ga.Rect)
		}
	}
}

func TestRenderFrameWidth(t *testing.T) {
	c := Set(3, 1)[0]
	c.FrameWidth = 2000
	img, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 2000 || img.Bounds().Dy() != 1500 {
		t.Fatalf("frame %v, want 2000x1500", img.Bounds())
	}
}

// The payload's header must describe its one subfile truthfully, so a
// structural validator accepts it.
func TestPayloadHeaderMatchesSubfile(t *testing.T) {
	head := regexp.MustCompile(`^@\n\x1e\rANSI (\d{6})(\d{2})(\d{2})(\d{2})DL(\d{4})(\d{4})`)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 50; i++ {
		p := Payload(rng)
		m := head.FindSubmatch(p)
		if m == nil {
			t.Fatalf("header does not parse: %q", p)
		}
		off, _ := strconv.Atoi(string(m[5]))
		n, _ := strconv.Atoi(string(m[6]))
		if off+n != len(p) {
			t.Fatalf("offset %d + length %d != payload length %d", off, n, len(p))
		}
		if !bytes.HasPrefix(p[off:], []byte("DL")) || p[len(p)-1] != '\r' {
			t.Fatalf("subfile at %d does not start with DL and end with CR: %q", off, p[off:])
		}
	}
}

// A phone photo renders the same twice, at the frame size its resolution
// names, and its module size follows from the card's share of the frame.
func TestPhotoRender(t *testing.T) {
	set := PhotoSet(4, 2)
	if len(set) != 2*len(Resolutions) {
		t.Fatalf("%d photos, want %d", len(set), 2*len(Resolutions))
	}
	p := set[1] // 1 MP, the card 90% of the frame
	a, mods, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.(*image.Gray).Pix, b.(*image.Gray).Pix) {
		t.Fatal("two renders differ")
	}
	if w, h := FrameSize(1); a.Bounds().Dx() != w || a.Bounds().Dy() != h || w != 1155 {
		t.Errorf("frame %v, want %dx%d", a.Bounds(), w, h)
	}
	if m := p.ModulePx(mods); m < 2.5 || m > 4.5 {
		t.Errorf("module %.2f px for a card 90%% of a 1 MP frame", m)
	}
}
