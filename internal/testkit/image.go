package testkit

import (
	"image"
	"image/png"
	"os"
	"testing"
)

// PNG is the decoded PNG test data file elem names (found as Data finds it:
// a skip when its set is absent), e.g. a face of testdata/faces/labeled.
func PNG(t testing.TB, elem ...string) image.Image {
	t.Helper()
	f, err := os.Open(Data(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", f.Name(), err)
	}
	return img
}
