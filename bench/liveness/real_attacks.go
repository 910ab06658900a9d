package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"time"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// buildRealAttacks makes the attack classes from the real clips
// (live holds their live sequences): each class of set.go's Foreman
// attacks again on other people, cameras and frame timings, and a screen
// replay (moiré, gamma and flicker, as a clip shown on a screen and
// filmed). A replayed clip, on a screen or not, is sent for the orders
// it does not show; shown for the order it does (limitReplay) it is the
// limit of an active check, measured apart.
func buildRealAttacks(src *source, live []sequence) ([]sequence, error) {
	clips := map[string][]realFrame{}
	for _, c := range src.realClips() {
		f, err := src.clip(c)
		if err != nil {
			return nil, err
		}
		clips[c.name] = f
	}
	dataAt := func(clip string, t time.Duration) []byte {
		fs := clips[clip]
		k := 0
		for k+1 < len(fs) && fs[k+1].t <= t {
			k++
		}
		return fs[k].data
	}
	frameAt := func(clip string, t time.Duration) (image.Image, error) {
		return jpeg.Decode(bytes.NewReader(dataAt(clip, t)))
	}
	session := func(name string) sequence {
		for _, s := range live {
			if s.name == name {
				return s
			}
		}
		panic("no live sequence " + name)
	}
	var out []sequence
	bl, lbr := []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight}, []liveness.Step{liveness.TurnLeft, liveness.Blink, liveness.TurnRight}
	rbl := []liveness.Step{liveness.TurnRight, liveness.Blink, liveness.TurnLeft}

	// A still photo: one real frame sent for 4 s at 15 fps.
	type still struct {
		clip  string
		at    time.Duration
		steps []liveness.Step
	}
	stills := []still{{"smartlive", time.Second, bl}, {"grid_lbax4n", 400 * time.Millisecond, lbr}, {"intel_hp_female", 750 * time.Millisecond, rbl}}
	if src.people != "" {
		stills = append(stills, still{"clm_cap12", 25 * time.Second, rbl}, still{"grid_swiz3n", 500 * time.Millisecond, bl})
	}
	for _, c := range stills {
		// The clip's frame as captured, not decoded and encoded again:
		// the live windows have analysed it already.
		data := dataAt(c.clip, c.at)
		seq := sequence{name: fmt.Sprintf("%s at %v repeated", c.clip, c.at), class: attackStill, steps: c.steps, fps: 15, clip: c.clip}
		for range 60 {
			seq.frames = append(seq.frames, frameRef{data: data})
		}
		out = append(out, seq)
	}
	// A photo moved in front of the camera: one real frame shifted,
	// zoomed and rotated a few degrees to and fro over 4 s.
	type move struct {
		clip               string
		at                 time.Duration
		shift, zoom, angle float64
	}
	moves := []move{{"smartlive", time.Second, 25, 0.12, 5}, {"grid_brbk7n", 400 * time.Millisecond, 20, 0.10, 4}, {"grid_pwij3p", 500 * time.Millisecond, 30, 0.15, 6}}
	if src.people != "" {
		moves = append(moves, move{"clm_cap13", 3 * time.Second, 20, 0.10, 4})
	}
	for _, c := range cases(src, moves) {
		img, err := frameAt(c.clip, c.at)
		if err != nil {
			return nil, err
		}
		seq := sequence{name: fmt.Sprintf("%s at %v shifted ±%.0f px, zoomed ×%.2f, rotated ±%.0f°", c.clip, c.at, c.shift, 1+c.zoom, c.angle),
			class: attackMoved, steps: bl, fps: 15, clip: c.clip}
		const n = 60
		for i := range n {
			f := float64(i) / (n - 1)
			w := math.Sin(2 * math.Pi * 2 * f)
			data, err := encode(moved(img, c.shift*w, c.shift*f/2, 1+c.zoom*f, c.angle*math.Sin(2*math.Pi*1.5*f)))
			if err != nil {
				return nil, err
			}
			seq.frames = append(seq.frames, frameRef{data: data})
		}
		out = append(out, seq)
	}
	// A replay of the same person's clip for other orders: the phone
	// session (left, right, blink), the webcam turn (left), the GRID
	// blinks, and (testdata/people) the webcam man's blinks.
	type replay struct {
		seq    sequence
		orders [][]liveness.Step
	}
	replays := []replay{
		{session("smartlive session, as prompted, 15 fps"), [][]liveness.Step{lbr, rbl,
			{liveness.TurnRight, liveness.TurnLeft, liveness.Blink}, {liveness.Blink, liveness.TurnRight, liveness.TurnLeft}}},
		{session("intel_hp_female turn_left from turned right, 15 fps"), [][]liveness.Step{{liveness.TurnRight}, {liveness.Blink}}},
		{session("grid_bbaf2n session, 10 fps"), [][]liveness.Step{bl, {liveness.TurnLeft}}},
		{session("grid_id2_swwp2s session, 10 fps"), [][]liveness.Step{{liveness.TurnRight}}},
	}
	if src.people != "" {
		replays = append(replays,
			replay{session("clm_cap12 blink, 10 fps"), [][]liveness.Step{{liveness.TurnLeft}, {liveness.Blink, liveness.TurnRight}}},
			replay{session("clm_cap13 blink, 10 fps"), [][]liveness.Step{{liveness.TurnRight}}})
	}
	for _, r := range replays {
		for _, order := range r.orders {
			seq := r.seq
			seq.name, seq.class, seq.steps, seq.labels = fmt.Sprintf("%s for %s", r.seq.name, stepList(order)), attackReplay, order, nil
			out = append(out, seq)
		}
	}
	// The phone session also shows blink, left, right: he blinks
	// unprompted at 2 s (frames 20–23), before his left turn. Replayed
	// for that order it is the right person doing the asked steps in the
	// asked order, the limit of an active check.
	own := session("smartlive session, as prompted, 15 fps")
	own.name, own.class, own.steps, own.labels = own.name+" for blink,left,right (its unprompted blink first)", limitReplay, bl, nil
	out = append(out, own)
	// Another person spliced in: a GRID clip whose second half is
	// another speaker's, in the same studio framing.
	splices := []struct{ a, b string }{{"grid_bbaf2n", "grid_lbax4n"}, {"grid_brbk7n", "grid_sbwe5n"}, {"grid_pwij3p", "grid_bbaf2n"}, {"grid_lbax4n", "grid_id2_swwp2s"}}
	if src.people != "" {
		splices = append(splices, peopleSplices...)
	}
	for _, c := range cases(src, splices) {
		seq := sequence{name: fmt.Sprintf("%s frames 1–15, %s 16–30", c.a, c.b), class: attackSplice,
			steps: []liveness.Step{liveness.Blink}, fps: 10, clip: c.a}
		for i := range 30 {
			clip := c.a
			if i >= 15 {
				clip = c.b
			}
			seq.frames = append(seq.frames, frameRef{data: clips[clip][i].data})
		}
		out = append(out, seq)
	}
	// A second person in view for 1.2 s or more: another speaker's face
	// laid in a corner of a live sequence (not the phone capture's: there
	// the subject's face is 230 px across, and a 105 px face beside it is
	// under the 0.6 of its size a second face must reach to count,
	// face.Subject, as a person far behind does not).
	for _, c := range cases(src, []struct {
		live, other string
		from, to    int
	}{{"grid_bbaf2n session, 10 fps", "grid_brbk7n", 5, 17}, {"grid_pwij3p session, 10 fps", "grid_lbax4n", 0, 29},
		{"intel_hp_female turn_left from turned right, 15 fps", "grid_sbwe5n", 2, 20}}) {
		base := session(c.live)
		other, err := jpeg.Decode(bytes.NewReader(clips[c.other][0].data))
		if err != nil {
			return nil, err
		}
		face := faceCrop(other)
		seq := base
		seq.frames = append([]frameRef(nil), base.frames...)
		for i := c.from; i <= c.to; i++ {
			img, err := src.image(base.frames[i])
			if err != nil {
				return nil, err
			}
			data, err := encode(corner(img, face))
			if err != nil {
				return nil, err
			}
			seq.frames[i] = frameRef{data: data}
		}
		seq.name, seq.class, seq.labels = fmt.Sprintf("%s in view of %s, frames %d–%d", c.other, c.live, c.from, c.to), attackSecond, nil
		out = append(out, seq)
	}
	// A screen replay: the live sessions shown on a screen and filmed.
	for _, c := range cases(src, []struct {
		live   string
		orders [][]liveness.Step
	}{
		{"smartlive session, as prompted, 15 fps", [][]liveness.Step{lbr, rbl}},
		{"intel_hp_female turn_left from turned right, 15 fps", [][]liveness.Step{{liveness.TurnRight}}},
		{"grid_id2_swwp2s session, 10 fps", [][]liveness.Step{lbr}},
		{"grid_pwij3p session, 10 fps", [][]liveness.Step{{liveness.TurnLeft}}},
	}) {
		base := session(c.live)
		shown := base
		shown.frames = make([]frameRef, len(base.frames))
		for i, f := range base.frames {
			img, err := src.image(f)
			if err != nil {
				return nil, err
			}
			data, err := encode(onScreen(img, base.at(i)))
			if err != nil {
				return nil, err
			}
			shown.frames[i] = frameRef{data: data}
		}
		for _, order := range c.orders {
			seq := shown
			seq.name, seq.class, seq.steps, seq.labels = fmt.Sprintf("%s on a screen, for %s", c.live, stepList(order)), attackScreen, order, nil
			out = append(out, seq)
		}
		seq := shown
		seq.name, seq.class = fmt.Sprintf("%s on a screen, for its own order %s", c.live, stepList(base.steps)), limitReplay
		out = append(out, seq)
	}
	return out, nil
}

// faceCrop is the face of a GRID frame (360×288, the face about 140 px
// around (180, 180)).
func faceCrop(img image.Image) image.Image {
	r := image.Rect(100, 95, 260, 255).Add(img.Bounds().Min)
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}

// onScreen is img as a phone films a screen showing it at clip time t:
// the screen's gamma against the camera's (1.5), its brightness beating
// with the camera's exposure at 7 Hz (±12 %), the pixel grid's moiré (a
// 0.3-cycle-a-pixel grating, 10 % deep, at 12°), and a little blur.
func onScreen(img image.Image, t time.Duration) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	flicker := 1 + 0.12*math.Sin(2*math.Pi*7*t.Seconds())
	moire := moireOf(b)
	px := func(v uint32, m float64) uint8 {
		f := gamma15[v] * flicker * m
		return uint8(math.Max(0, math.Min(255, f*255)))
	}
	ycc, _ := img.(*image.YCbCr)
	i := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bl uint32
			if ycc != nil {
				r, g, bl, _ = ycc.YCbCrAt(x, y).RGBA()
			} else {
				r, g, bl, _ = img.At(x, y).RGBA()
			}
			m := moire[i]
			i++
			out.SetRGBA(x, y, color.RGBA{px(r, m), px(g, m), px(bl, m), 255})
		}
	}
	blurred := image.NewRGBA(b)
	half := image.NewRGBA(image.Rect(0, 0, b.Dx()*2/3, b.Dy()*2/3))
	draw.BiLinear.Scale(half, half.Bounds(), out, b, draw.Src, nil)
	draw.BiLinear.Scale(blurred, b, half, half.Bounds(), draw.Src, nil)
	return blurred
}

// gamma15 is v^1.5 for every 16-bit channel value v (as a share of
// 0xffff): onScreen's gamma, computed once instead of three times a pixel.
var gamma15 = func() []float64 {
	g := make([]float64, 0x10000)
	for v := range g {
		g[v] = math.Pow(float64(v)/0xffff, 1.5)
	}
	return g
}()

// moires are onScreen's moiré factors, 1 + 0.1 sin(grating phase), for
// every pixel of a frame of the given bounds, row by row; the screen
// replays film a few clips of a few sizes, so each is computed once.
var moires = map[image.Rectangle][]float64{}

func moireOf(b image.Rectangle) []float64 {
	if m, ok := moires[b]; ok {
		return m
	}
	sin, cos := math.Sin(12*math.Pi/180), math.Cos(12*math.Pi/180)
	m := make([]float64, 0, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			m = append(m, 1+0.10*math.Sin(2*math.Pi*0.3*(float64(x)*cos+float64(y)*sin)))
		}
	}
	moires[b] = m
	return m
}
