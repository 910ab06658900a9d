package mrztest

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// Camera is how one photo of a page is taken.
type Camera struct {
	Width, Height int     // the frame, pixels
	PageFrac      float64 // the page's width over the frame's
	Angle         float64 // the page's turn, degrees (counter-clockwise)
	Blur          float64 // defocus, Gaussian sigma in frame pixels
	Light         float64 // light falling off across the frame, 0 (even) to 0.5
	Noise         float64 // sensor noise, standard deviation in grey levels
	Quality       int     // JPEG quality
	// Keystone is how much shorter the page's top edge shows than its
	// bottom, a share of its width (the phone tilted back from square
	// above the page); negative: the bottom edge shorter.
	Keystone float64
}

// Photo takes the page with the camera: the page turned and scaled onto a
// darker, textured desk, light falling off, defocus, noise, and a JPEG
// round trip. It answers the decoded frame.
func Photo(page *image.Gray, c Camera, r *rand.Rand) (*image.Gray, error) {
	pw, ph := float64(page.Rect.Dx()), float64(page.Rect.Dy())
	s := c.PageFrac * float64(c.Width) / pw
	a := c.Angle * math.Pi / 180
	// Centre of the page at the frame's centre, jittered by 5%.
	cx := float64(c.Width)*(0.5+0.05*(r.Float64()*2-1)) - s*(pw/2*math.Cos(a)-ph/2*math.Sin(a))
	cy := float64(c.Height)*(0.5+0.05*(r.Float64()*2-1)) - s*(pw/2*math.Sin(a)+ph/2*math.Cos(a))
	toPage := raster.Affine(0, 1, -cx, -cy).Then(raster.Affine(-a, 1/s, 0, 0))
	if c.Keystone != 0 {
		// The page's corners in the frame, the top (or bottom) pair drawn
		// together by half the keystone each.
		toFrame := raster.Affine(a, s, cx, cy)
		corners := [4]raster.Point{{X: 0, Y: 0}, {X: pw, Y: 0}, {X: pw, Y: ph}, {X: 0, Y: ph}}
		var seen [4]raster.Point
		for i, p := range corners {
			seen[i].X, seen[i].Y = toFrame.Apply(p.X, p.Y)
		}
		k, i0, i1 := c.Keystone/2, 0, 1
		if k < 0 {
			k, i0, i1 = -k, 3, 2
		}
		dx, dy := seen[i1].X-seen[i0].X, seen[i1].Y-seen[i0].Y
		seen[i0].X, seen[i0].Y = seen[i0].X+k*dx, seen[i0].Y+k*dy
		seen[i1].X, seen[i1].Y = seen[i1].X-k*dx, seen[i1].Y-k*dy
		m, err := raster.FromQuad(seen, corners)
		if err != nil {
			return nil, fmt.Errorf("mrztest: keystone: %w", err)
		}
		toPage = m
	}
	src := page
	if s < 0.7 {
		// The sensor averages the page: blur before sampling it down.
		src = raster.GaussianBlur(page, 0.4/s)
	}
	desk := 90 + r.IntN(60)
	frame := raster.Warp(src, c.Width, c.Height, toPage, uint8(desk))
	frame = raster.GaussianBlur(frame, c.Blur)
	for y := 0; y < c.Height; y++ {
		row := frame.Pix[y*frame.Stride : y*frame.Stride+c.Width]
		for x := range row {
			light := 1 - c.Light*(float64(x)/float64(c.Width)+0.5*float64(y)/float64(c.Height))
			row[x] = raster.Clamp8(float64(row[x])*light + r.NormFloat64()*c.Noise)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, frame, &jpeg.Options{Quality: c.Quality}); err != nil {
		return nil, fmt.Errorf("mrztest: jpeg: %w", err)
	}
	img, err := jpeg.Decode(&buf)
	if err != nil {
		return nil, fmt.Errorf("mrztest: jpeg: %w", err)
	}
	out := image.NewGray(img.Bounds())
	draw.Draw(out, out.Rect, img, image.Point{}, draw.Src)
	return out, nil
}

// Shot renders the page of format f carrying lines at the resolution the
// camera sees it at, and photographs it.
func Shot(f *ocrb.Font, format mrz.Format, lines []string, c Camera, r *rand.Rand) (*image.Gray, error) {
	return PrintedShot(f, format, lines, nil, Print{}, c, r)
}

// PrintedShot is Shot of the page printing face as its portrait and its
// zone as p says (PrintedPage).
func PrintedShot(f *ocrb.Font, format mrz.Format, lines []string, face image.Image, p Print, c Camera, r *rand.Rand) (*image.Gray, error) {
	geo, ok := geometries[format]
	if !ok {
		return nil, fmt.Errorf("mrztest: format %v", format)
	}
	page, err := PrintedPage(f, format, lines, face, p, c.PageFrac*float64(c.Width)/geo.w, r)
	if err != nil {
		return nil, err
	}
	return Photo(page, c, r)
}

// RandomCamera draws a camera for a w×h frame: the page 40-90% of its
// width, turned up to 10° either way, blur sigma 0-1.5 px, light falling
// off by up to 40%, noise 0-4 levels, JPEG quality 60-95.
func RandomCamera(r *rand.Rand, w, h int) Camera {
	return Camera{Width: w, Height: h, PageFrac: 0.4 + 0.5*r.Float64(), Angle: 20*r.Float64() - 10,
		Blur: 1.5 * r.Float64(), Light: 0.4 * r.Float64(), Noise: 4 * r.Float64(), Quality: 60 + r.IntN(36)}
}

// Blank is an empty grey frame.
func Blank(w, h int) *image.Gray { return raster.New(w, h, 200) }
