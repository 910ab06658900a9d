package gifplay

import (
	"image"
	"image/color"
	"image/gif"
	"io"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// A 4×1 clip of three frames, each a 1×1 dot: the first kept, the second
// cleared after it is shown, the third put back to what was before it.
func writeClip(t *testing.T) string {
	t.Helper()
	pal := color.Palette{color.Transparent, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}}
	dot := func(x int, c uint8) *image.Paletted {
		p := image.NewPaletted(image.Rect(x, 0, x+1, 1), pal)
		p.Pix[0] = c
		return p
	}
	g := &gif.GIF{
		Image:    []*image.Paletted{dot(0, 1), dot(1, 2), dot(2, 1), dot(3, 2)},
		Delay:    []int{1, 5, 20, 0},
		Disposal: []byte{gif.DisposalNone, gif.DisposalBackground, gif.DisposalPrevious, gif.DisposalNone},
		Config:   image.Config{ColorModel: pal, Width: 4, Height: 1},
	}
	return testkit.WriteTemp(t, "clip.gif", func(w io.Writer) error { return gif.EncodeAll(w, g) })
}

func TestPlayShowsFramesAsABrowser(t *testing.T) {
	type shown struct {
		at, next time.Duration
		pixels   string
	}
	var got []shown
	err := Play(writeClip(t), func(f Frame) error {
		s := ""
		for x := range 4 {
			switch c := f.Image.RGBAAt(x, 0); {
			case c.R == 255:
				s += "r"
			case c.B == 255:
				s += "b"
			default:
				s += "."
			}
		}
		got = append(got, shown{f.At, f.Next, s})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	want := []shown{
		{0, 100 * ms, "r..."},        // delay 1: shown 100 ms
		{100 * ms, 150 * ms, "rb.."}, // then cleared
		{150 * ms, 350 * ms, "r.r."}, // then put back to "r..."
		{350 * ms, 450 * ms, "r..b"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d frames, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestMirror(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.SetRGBA(0, 1, color.RGBA{1, 2, 3, 4})
	m := Mirror(img)
	if m.RGBAAt(2, 1) != (color.RGBA{1, 2, 3, 4}) || m.RGBAAt(0, 1) != (color.RGBA{}) {
		t.Fatalf("mirrored: %v", m.Pix)
	}
}
