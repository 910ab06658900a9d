package pdf417

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417/synth"
	"github.com/idgate/idgate/verifier/license/pdf417/zxing"
)

const aamvaSample = "@\n\x1e\rANSI 636014080102DL00410288ZC03290015DLDAQD1234562\nDCSPUBLIC\nDACJOHN\nDBB01311990\r"

func symbolImage(t *testing.T, payload string) *image.Gray {
	t.Helper()
	sym, err := zxing.Write([]byte(payload), 5)
	if err != nil {
		t.Fatal(err)
	}
	return sym.Image(2, 8)
}

func TestDecodeCleanByteExact(t *testing.T) {
	img := symbolImage(t, aamvaSample)
	got, rep, err := Decode(context.Background(), img, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(aamvaSample)) {
		t.Fatalf("got %q, want %q", got, aamvaSample)
	}
	// A level, clean symbol needs no fallback: the first step decodes it.
	if rep.Strategy != strategies[0].name || len(rep.Steps) != 1 || rep.Steps[0].Outcome != "decoded" {
		t.Fatalf("report %+v: want a single decoded %s step", rep, strategies[0].name)
	}
	if rep.Total < rep.Steps[0].Duration {
		t.Fatalf("total %v shorter than its step %v", rep.Total, rep.Steps[0].Duration)
	}
}

func TestDecodeRejectedPayloadIsNoDecode(t *testing.T) {
	img := symbolImage(t, aamvaSample)
	calls := 0
	_, rep, err := Decode(context.Background(), img, func(b []byte) error {
		calls++
		return errors.New("bad header")
	})
	if !errors.Is(err, ErrNoBarcode) {
		t.Fatalf("got %v, want ErrNoBarcode", err)
	}
	if calls == 0 || rep.Strategy != "" {
		t.Fatalf("accept called %d times, strategy %q", calls, rep.Strategy)
	}
	if rep.Steps[0].Outcome != "rejected: bad header" {
		t.Fatalf("first outcome %q", rep.Steps[0].Outcome)
	}
}

// hugeImage claims a size without backing pixels: the size check must come
// before any pixel is read.
type hugeImage struct{}

func (hugeImage) ColorModel() color.Model { return color.GrayModel }
func (hugeImage) Bounds() image.Rectangle { return image.Rect(0, 0, 8000, 6000) }
func (hugeImage) At(x, y int) color.Color { panic("pixels read before the size check") }

func TestDecodeImageTooLarge(t *testing.T) {
	_, _, err := Decode(context.Background(), hugeImage{}, nil)
	if !errors.Is(err, ErrImageTooLarge) {
		t.Fatalf("got %v, want ErrImageTooLarge", err)
	}
}

func TestDecodeNilAndBlank(t *testing.T) {
	if _, _, err := Decode(context.Background(), nil, nil); !errors.Is(err, ErrNoBarcode) {
		t.Fatalf("nil image: got %v", err)
	}
	blank := image.NewGray(image.Rect(0, 0, 200, 100))
	if _, _, err := Decode(context.Background(), blank, nil); !errors.Is(err, ErrNoBarcode) {
		t.Fatalf("blank image: got %v", err)
	}
}

func TestDecodeBudget(t *testing.T) {
	// A clock that advances one second per reading: the 1.5 s budget is
	// spent after the first step.
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := Decoder{Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	blank := image.NewGray(image.Rect(0, 0, 200, 100))
	_, rep, err := d.Decode(context.Background(), blank, nil)
	if !errors.Is(err, ErrNoBarcode) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want ErrNoBarcode and DeadlineExceeded", err)
	}
	if len(rep.Steps) != 1 {
		t.Fatalf("%d steps ran, want 1", len(rep.Steps))
	}
}

func TestDecodeCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, rep, err := Decode(ctx, symbolImage(t, "x"), nil)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrNoBarcode) {
		t.Fatalf("got %v", err)
	}
	if len(rep.Steps) != 0 {
		t.Fatalf("steps ran after cancel: %+v", rep.Steps)
	}
}

func TestDecodeConcurrent(t *testing.T) {
	img := symbolImage(t, aamvaSample)
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			got, _, err := Decode(context.Background(), img, nil)
			if err == nil && !bytes.Equal(got, []byte(aamvaSample)) {
				err = errors.New("wrong bytes")
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// A close 8 MP phone photo (the phone model: modules of 7.8 px, defocus
// and sharpening) that no full-size crop reads is read once the
// straightened crop is area-averaged down to modules of about 2 px.
func TestShrunkCropReadsWideModules(t *testing.T) {
	p := synth.PhotoSet(1, 16)[3*16+13]
	img, mods, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	if m := p.ModulePx(mods); m < 7 || p.MP != 8 {
		t.Fatalf("%s: modules of %.2f px at %g MP, want a close 8 MP photo", p.Name, m, p.MP)
	}
	got, rep, err := Decoder{Budget: time.Minute}.Decode(context.Background(), img, nil)
	if err != nil || !bytes.Equal(got, p.Payload) {
		t.Fatalf("%s: %v (steps %+v)", p.Name, err, rep.Steps)
	}
	if !strings.HasPrefix(rep.Strategy, "shrunk-") {
		t.Errorf("%s: read by %s, want a shrunk crop", p.Name, rep.Strategy)
	}
}
