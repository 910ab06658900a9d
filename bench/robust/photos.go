package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/face"
)

// labeled is one face photo from faces/labeled.
type labeled struct {
	name, path string
	img        image.Image
}

// photoSample is one face photo for Single (`face compare`) and whether
// it must be taken as one face.
type photoSample struct {
	family, file string
	single       bool
	data         []byte
}

// strayCases are the labeled crops, scaled on a plain canvas, on which the
// detector returned a stray box that the mesh confirmed (found by scanning
// all 40 crops and 100 Foreman frames at six scales; see
// verifier/face/select.go): crop, scale, canvas side over the crop's.
var strayCases = []struct {
	rel           string
	scale, canvas float64
}{
	{"amy/amy1.png", 2, 1}, {"amy/amy1.png", 3, 1}, {"amy/amy1.png", 2, 1.6}, {"amy/amy1.png", 4, 1.2},
	{"bernadette/bernadette2.png", 0.6, 1}, {"bernadette/bernadette4.png", 2, 1}, {"bernadette/bernadette4.png", 0.6, 1},
	{"howard/howard5.png", 2, 1}, {"leonard/leonard3.png", 2, 1},
}

// photoSamples builds the face-photo set: stray boxes, portraits with a
// ghost copy (0.45 and 0.55 of the side), two people side by side, and the
// group photos.
func photoSamples(facesDir string, faces []labeled) ([]photoSample, error) {
	var out []photoSample
	add := func(family, file string, single bool, img image.Image) error {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
			return err
		}
		out = append(out, photoSample{family: family, file: file, single: single, data: buf.Bytes()})
		return nil
	}
	for i, c := range strayCases {
		src, err := decodeFile(filepath.Join(facesDir, "labeled", c.rel))
		if err != nil {
			return nil, err
		}
		b := src.Bounds()
		w := int(float64(b.Dx()) * c.scale)
		side := int(float64(w) * c.canvas)
		dst := canvas(side, side)
		o := (side - w) / 2
		draw.BiLinear.Scale(dst, image.Rect(o, o, o+w, o+w), src, b, draw.Src, nil)
		if err := add("stray box", fmt.Sprintf("photo-stray-%d.jpg", i), true, dst); err != nil {
			return nil, err
		}
	}
	for i := range 4 {
		f := faces[(7*i)%len(faces)].img
		for j, ratio := range []float64{0.45, 0.55} {
			dst := canvas(340, 220)
			draw.BiLinear.Scale(dst, image.Rect(10, 30, 160, 180), f, f.Bounds(), draw.Src, nil)
			g := int(150 * ratio)
			draw.BiLinear.Scale(dst, image.Rect(200, 40, 200+g, 40+g), f, f.Bounds(), draw.Src, nil)
			if err := add("ghost copy", fmt.Sprintf("photo-ghost-%d-%d.jpg", i, j), true, dst); err != nil {
				return nil, err
			}
		}
		a, b := faces[(5*i)%len(faces)].img, faces[(5*i+13)%len(faces)].img
		dst := canvas(320, 220)
		draw.BiLinear.Scale(dst, image.Rect(10, 30, 150, 170), a, a.Bounds(), draw.Src, nil)
		draw.BiLinear.Scale(dst, image.Rect(170, 35, 300, 165), b, b.Bounds(), draw.Src, nil)
		if err := add("two people", fmt.Sprintf("photo-two-%d.jpg", i), false, dst); err != nil {
			return nil, err
		}
	}
	for i := 1; i <= 5; i++ {
		data, err := os.ReadFile(filepath.Join(facesDir, "groups", fmt.Sprintf("bbt%d.jpg", i)))
		if err != nil {
			return nil, err
		}
		out = append(out, photoSample{family: "group photo", file: fmt.Sprintf("photo-group-%d.jpg", i), data: data})
	}
	return out, nil
}

// canvas is a light grey w×h image.
func canvas(w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Rect, image.NewUniform(color.RGBA{200, 200, 200, 255}), image.Point{}, draw.Src)
	return dst
}

func decodeFile(path string) (image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	return img, err
}

// singleAfter: did today's Single take one face?
func singleAfter(a *face.Analyzer, data []byte) (bool, error) {
	img, err := a.Decode(data)
	if err != nil {
		return false, err
	}
	_, err = a.Single(img)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, face.ErrMultipleFaces), errors.Is(err, face.ErrNoFace), errors.Is(err, face.ErrFaceTooSmall):
		return false, nil
	}
	return false, err
}

// singleBefore: did the baseline's `face compare F F` take one face?
func singleBefore(b *baseline, path string) (bool, error) {
	var rep map[string]any
	err := b.run(&rep, "face", "compare", path, path)
	if err != nil && faceRefusal(err) {
		return false, nil
	}
	return err == nil, err
}

// faceRefusal reports whether a baseline command failed on a face error
// (an outcome), not on anything else (a failure of the run).
func faceRefusal(err error) bool {
	for _, e := range []error{face.ErrMultipleFaces, face.ErrNoFace, face.ErrFaceTooSmall} {
		if strings.Contains(err.Error(), e.Error()) {
			return true
		}
	}
	return false
}
