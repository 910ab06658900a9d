package engines_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// A license front with a real face, photographed at a slight angle, is
// accepted: the card and its portrait are found, the headshot is a small
// JPEG and the portrait is described.
func TestFrontAccepted(t *testing.T) {
	e := loaded(t)
	_, photo := frontSceneShot(t)
	rep, err := e.Front(context.Background(), photo)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || !rep.CardFound || !rep.ProportionsOK || !rep.FacePresent {
		t.Fatalf("report %+v", rep)
	}
	if rep.Sharpness < card.MinSharpness || rep.Glare > engines.MaxGlare || rep.Aspect < 1.4 || rep.Aspect > 1.75 {
		t.Errorf("measures: aspect %.3f sharpness %.3f glare %.3f", rep.Aspect, rep.Sharpness, rep.Glare)
	}
	if len(rep.Portrait) != 128 {
		t.Fatalf("portrait descriptor of %d values", len(rep.Portrait))
	}
	hs, err := jpeg.Decode(bytes.NewReader(rep.Headshot))
	if err != nil {
		t.Fatalf("headshot: %v", err)
	}
	if b := hs.Bounds(); max(b.Dx(), b.Dy()) > card.HeadshotMaxSide || min(b.Dx(), b.Dy()) < 100 {
		t.Errorf("headshot %v", b)
	}
}

// Each problem a user can fix by retaking the photo is reported, alone.
func TestFrontProblems(t *testing.T) {
	e := loaded(t)
	face := labeledFace(t, "sheldon/sheldon2.png")
	for _, c := range []struct {
		name  string
		photo []byte
		want  []flow.Problem
	}{
		{"no card", frontPhoto(t, cardtest.Scene{NoCard: true, Seed: 2}), []flow.Problem{flow.ProblemCardNotFound}},
		{"card far away", frontPhoto(t, cardtest.Scene{Face: face, CardW: 320, Seed: 3}), []flow.Problem{flow.ProblemCardTooSmall}},
		{"blurred", frontPhoto(t, cardtest.Scene{Face: face, Blur: 8, RotationDeg: 4, Seed: 4}), []flow.Problem{flow.ProblemTooBlurry}},
		{"glare", frontPhoto(t, cardtest.Scene{Face: face, Glare: true, RotationDeg: 3, Seed: 5}), []flow.Problem{flow.ProblemGlare}},
		{"badge shape", frontPhoto(t, cardtest.Scene{Face: face, Aspect: 1.25, RotationDeg: 3, Seed: 6}), []flow.Problem{flow.ProblemAspect}},
		{"no portrait", frontPhoto(t, cardtest.Scene{BlankPortrait: true, RotationDeg: -4, Seed: 7}), []flow.Problem{flow.ProblemNoPortrait}},
		// A card-shaped print that is a portrait's block stretched, as
		// the warp of an outline around it is: its face is too large
		// for a license portrait (card.MaxPortraitFace).
		{"portrait's block", encodeJPEG(t, cardtest.Scene{Face: face, Aspect: card.ID1Aspect, Seed: 10}.BlockPhoto(image.Rect(30, 120, 300, 470), 60)), []flow.Problem{flow.ProblemCardNotFound}},
		{"not an image", []byte("GIF89a not really"), []flow.Problem{flow.ProblemImageUnsupported}},
		{"truncated JPEG", frontPhoto(t, cardtest.Scene{Seed: 8})[:5000], []flow.Problem{flow.ProblemImageUnsupported}},
		{"over 40 MP", pngHeader(8000, 6000), []flow.Problem{flow.ProblemImageTooLarge}},
		{"over 10 MB", append(frontPhoto(t, cardtest.Scene{Seed: 9}), make([]byte, 10<<20)...), []flow.Problem{flow.ProblemImageTooLarge}},
	} {
		rep, err := e.Front(context.Background(), c.photo)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(rep.Problems, c.want) {
			t.Errorf("%s: problems %v, want %v (aspect %.2f sharpness %.3f glare %.3f)", c.name, rep.Problems, c.want, rep.Aspect, rep.Sharpness, rep.Glare)
		}
		// The portrait is searched whenever the card was corrected.
		if rep.FacePresent != (c.name == "glare" || c.name == "badge shape" || c.name == "blurred") {
			t.Errorf("%s: face present %v", c.name, rep.FacePresent)
		}
		// No card found: nothing of it goes on to the face match.
		if slices.Contains(c.want, flow.ProblemCardNotFound) && (rep.CardFound || rep.Headshot != nil || rep.Portrait != nil) {
			t.Errorf("%s: card found %v, headshot %d bytes, descriptor %d", c.name, rep.CardFound, len(rep.Headshot), len(rep.Portrait))
		}
	}
}

// pngHeader is the start of a PNG declaring w × h pixels: enough for the
// header check, no pixel data.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey
	b := append([]byte("\x89PNG\r\n\x1a\n"), binary.BigEndian.AppendUint32(nil, 13)...)
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

// A phone photo stored sideways with its EXIF orientation (6: turn 90°
// clockwise to view) is judged upright, as the browser shows it.
func TestFrontHonoursEXIFOrientation(t *testing.T) {
	e := loaded(t)
	upright, _ := frontSceneShot(t)
	// Stored = upright turned 90° counter-clockwise.
	b := upright.Bounds()
	stored := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			stored.Set(y, b.Dx()-1-x, upright.At(x, y))
		}
	}
	jpg := encodeJPEG(t, stored)
	tiff := []byte("MM\x00*\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00\x00\x00\x00\x00")
	app1 := append([]byte{0xFF, 0xE1}, binary.BigEndian.AppendUint16(nil, uint16(2+6+len(tiff)))...)
	app1 = append(append(app1, "Exif\x00\x00"...), tiff...)
	photo := append(append(append([]byte{}, jpg[:2]...), app1...), jpg[2:]...)
	rep, err := e.Front(context.Background(), photo)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || !rep.FacePresent {
		t.Fatalf("sideways photo with EXIF orientation: %+v", rep.Problems)
	}
	x, err := e.ExamineFront(context.Background(), photo)
	if err != nil || x.Width != 1600 || x.Height != 1200 || x.CardPortrait == nil || x.CardPortrait.Rotation != 0 {
		t.Fatalf("examined %dx%d, portrait %+v: %v", x.Width, x.Height, x.CardPortrait, err)
	}
}
