package liveness

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"slices"
	"testing"
)

// TestSelfieSkipsAMotionBlurredFrame: Foreman's selfie frame (frames
// 14–100) blurred along the line of a turn by 5% of the face's width is
// not the selfie any more, another frame is. The frame keeps its sharp
// self's pose and eyes (the blur moves the mesh a little, and another
// frame would be the most frontal for that reason alone); its sharpness
// is the blurred copy's, measured.
func TestSelfieSkipsAMotionBlurredFrame(t *testing.T) {
	const from = 14
	seq := sequence(t, from, 100)
	unbounded := Defaults
	unbounded.SelfieSharpness = 0
	pick := selfie(seq, Defaults)
	if pick < 0 || selfie(seq, unbounded) != pick {
		t.Fatalf("sharp frames: selfie %d with the bound, %d without; want the same frame", pick, selfie(seq, unbounded))
	}
	src, err := jpeg.Decode(bytes.NewReader(foremanFile(t, frameOf(from, pick))))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, smear(src, int(0.05*seq[pick].Size)), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	blurred, err := fixture.an.Frame(Frame{Data: buf.Bytes(), T: seq[pick].T})
	if err != nil {
		t.Fatal(err)
	}
	seq = slices.Clone(seq)
	seq[pick].Sharpness = blurred.Sharpness
	if got := selfie(seq, unbounded); got != pick {
		t.Fatalf("without the bound the selfie is frame %d, want the blurred %d", frameOf(from, got), frameOf(from, pick))
	}
	if got := selfie(seq, Defaults); got < 0 || got == pick {
		t.Errorf("blurred frame %d (sharpness %.3f): selfie %d, want another frame", frameOf(from, pick), blurred.Sharpness, got)
	}
}

// smear is img blurred horizontally by a box of k pixels.
func smear(img image.Image, k int) *image.RGBA {
	b := img.Bounds()
	src := image.NewRGBA(b)
	draw.Draw(src, b, img, b.Min, draw.Src)
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var sum [3]int
			for dx := -k / 2; dx <= k/2; dx++ {
				i := src.PixOffset(min(max(x+dx, b.Min.X), b.Max.X-1), y)
				sum[0], sum[1], sum[2] = sum[0]+int(src.Pix[i]), sum[1]+int(src.Pix[i+1]), sum[2]+int(src.Pix[i+2])
			}
			n, o := k/2*2+1, out.PixOffset(x, y)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = uint8(sum[0]/n), uint8(sum[1]/n), uint8(sum[2]/n), 255
		}
	}
	return out
}
