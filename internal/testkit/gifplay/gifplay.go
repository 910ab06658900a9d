// Package gifplay plays an animated GIF as a browser shows it, for tests
// and benchmarks that feed real people's clips (testdata/liveness/real) to
// a camera, a tracker or the engines: each frame drawn over the picture
// before it, shown for its delay (a delay under 2/100 s for 1/10 s, as
// browsers and ffmpeg play it), then disposed of as it asks.
package gifplay

import (
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"os"
	"time"
)

// Frame is the picture on screen from At until Next.
type Frame struct {
	// Image is the whole picture: Play draws the next frame into it, so
	// a caller that keeps it copies it (Copy).
	Image    *image.RGBA
	At, Next time.Duration
}

// Play decodes the GIF at path and calls each with every frame as shown,
// in order, stopping at the first error each returns.
func Play(path string, each func(Frame) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var at time.Duration
	for i, fr := range g.Image {
		var prev *image.RGBA
		if g.Disposal[i] == gif.DisposalPrevious {
			prev = Copy(canvas)
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		next := at + Delay(g.Delay[i])
		if err := each(Frame{Image: canvas, At: at, Next: next}); err != nil {
			return err
		}
		at = next
		switch g.Disposal[i] {
		case gif.DisposalBackground:
			draw.Draw(canvas, fr.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = prev
		}
	}
	return nil
}

// Delay is how long a frame of delay d (hundredths of a second) is shown:
// 100 ms when d is under 2, as browsers and ffmpeg play it (smartlive.gif's
// 87 frames of 10 ms make its 17.5 s so).
func Delay(d int) time.Duration {
	if d < 2 {
		d = 10
	}
	return time.Duration(d) * 10 * time.Millisecond
}

// Copy is a copy of img.
func Copy(img *image.RGBA) *image.RGBA {
	out := image.NewRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	return out
}

// Mirror is img mirrored left to right: the view a front camera's preview
// shows, and what a clip filmed that way is turned back with.
func Mirror(img *image.RGBA) *image.RGBA {
	out := image.NewRGBA(img.Rect)
	w := img.Rect.Dx()
	for y := range img.Rect.Dy() {
		s, d := img.Pix[y*img.Stride:], out.Pix[y*out.Stride:]
		for x := range w {
			copy(d[4*(w-1-x):4*(w-x)], s[4*x:4*x+4])
		}
	}
	return out
}
