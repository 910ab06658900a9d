package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindDataOrder: the repository's own copy wins, then var/, then the
// mirror beside the clone; a part of a set only the mirror holds is found
// there; a set found nowhere names `make testdata`.
func TestFindDataOrder(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "idgate")
	for _, dir := range []string{
		"idgate/testdata/aamva", "idgate/var/testdata/aamva", "idgate/var/testdata/faces",
		"shared/testdata/faces", "shared/testdata/liveness", "shared/contracts/bigcommerce",
		"idgate/var/testdata/liveness/foreman", "shared/testdata/liveness/real",
	} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		elem []string
		want string
	}{
		{[]string{"testdata", "aamva", "fixtures.json"}, "idgate/testdata/aamva/fixtures.json"},
		{[]string{"testdata", "faces", "labeled"}, "idgate/var/testdata/faces/labeled"},
		{[]string{"testdata", "liveness", "foreman", "f001.jpg"}, "idgate/var/testdata/liveness/foreman/f001.jpg"},
		{[]string{"testdata", "liveness", "real"}, "shared/testdata/liveness/real"},
		{[]string{"contracts", "bigcommerce"}, "shared/contracts/bigcommerce"},
	} {
		got, err := FindData(repo, tc.elem...)
		if err != nil || got != filepath.Join(top, tc.want) {
			t.Errorf("%v: %q, %v; want %s", tc.elem, got, err, tc.want)
		}
	}
	if _, err := FindData(repo, "testdata", "iris", "x.png"); err == nil || !strings.Contains(err.Error(), "make testdata") {
		t.Errorf("absent set: %v, want an error naming make testdata", err)
	}
	if _, err := FindData(repo, "testdata"); err == nil {
		t.Error("a path without a data set must be refused")
	}
}
