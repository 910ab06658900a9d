// Package y4m writes frames as a YUV4MPEG2 file, the format of Chromium's
// --use-file-for-fake-video-capture: the browser tests and benchmarks of
// the end-user pages feed its fake camera from rendered scenes with it.
package y4m

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
)

// Write writes frames (4:2:0, fps a second) to file; every frame has the
// first one's size, rounded down to even. Chromium reads y4m as BT.601
// studio range, so the full-range values are scaled into 16–235 (chroma
// 16–240); left full range, whites clip and a card shows glare.
func Write(file string, fps int, frames []image.Image) error {
	if len(frames) == 0 {
		return errors.New("y4m: no frames")
	}
	b := frames[0].Bounds()
	w, h := b.Dx()&^1, b.Dy()&^1
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(f)
	fmt.Fprintf(out, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n", w, h, fps)
	y := make([]byte, w*h)
	u := make([]byte, w*h/4)
	v := make([]byte, w*h/4)
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	for _, img := range frames {
		draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
		for py := 0; py < h; py++ {
			for px := 0; px < w; px++ {
				c := rgba.RGBAAt(px, py)
				yy, _, _ := color.RGBToYCbCr(c.R, c.G, c.B)
				y[py*w+px] = studio(yy, 16, 219)
			}
		}
		for py := 0; py < h/2; py++ {
			for px := 0; px < w/2; px++ {
				var sr, sg, sb int
				for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					c := rgba.RGBAAt(2*px+d[0], 2*py+d[1])
					sr, sg, sb = sr+int(c.R), sg+int(c.G), sb+int(c.B)
				}
				_, cb, cr := color.RGBToYCbCr(uint8(sr/4), uint8(sg/4), uint8(sb/4))
				u[py*w/2+px], v[py*w/2+px] = studio(cb, 16, 224), studio(cr, 16, 224)
			}
		}
		out.WriteString("FRAME\n")
		out.Write(y)
		out.Write(u)
		out.Write(v)
	}
	if err := out.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// studio maps a full-range 0–255 value into lo..lo+span.
func studio(v uint8, lo, span int) uint8 {
	return uint8(lo + (int(v)*span+127)/255)
}
