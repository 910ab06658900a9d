package reader

import (
	"errors"
	"image"
	"testing"

	"github.com/idgate/idgate/verifier/mrz"
)

// FuzzRead: any picture is read or refused with a coded error, never a
// panic. The fuzzer's bytes are tiled over a 160 × 120 frame, with a
// drawn zone among the seeds.
func FuzzRead(f *testing.F) {
	rd, _ := newReader(f)
	f.Add([]byte{0, 255, 128, 7}, uint8(13))
	f.Add([]byte("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"), uint8(44))
	f.Add(make([]byte, 200), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, stride uint8) {
		if len(data) == 0 {
			return
		}
		img := image.NewGray(image.Rect(0, 0, 160, 120))
		s := int(stride) + 1
		for i := range img.Pix {
			img.Pix[i] = data[(i/s+i%s)%len(data)]
		}
		_, err := rd.Read(img)
		if err != nil && !errors.Is(err, ErrNoZone) && !errors.Is(err, ErrUnsure) && !errors.Is(err, mrz.ErrFormat) &&
			!errors.Is(err, mrz.ErrCheckDigit) && !errors.Is(err, mrz.ErrAmbiguous) && !errors.Is(err, mrz.ErrField) {
			t.Fatalf("uncoded error %v", err)
		}
	})
}
