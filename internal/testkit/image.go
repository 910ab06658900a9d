package testkit

import (
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
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

// WriteTemp writes what encode writes into a file called name in a
// directory the test removes when it ends, and returns its path: an image
// a program under test reads from disk.
func WriteTemp(t testing.TB, name string, encode func(io.Writer) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := encode(f); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	return path
}
