package idgate_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoBuildOutputsTracked: no file git tracks is a program or object
// file. `go build ./bench/x` run in a package's folder leaves its binary
// there (.gitignore cannot name every one), and `git add -A` took two of
// them in: an 8.9 MB `liveness` at the root and a 15 MB bench/robust/robust.
func TestNoBuildOutputsTracked(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v)", err)
	}
	magics := map[string][]byte{
		"an ELF program or object": []byte("\x7fELF"),
		"a Mach-O program":         {0xcf, 0xfa, 0xed, 0xfe},
		"a Windows program":        []byte("MZ"),
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		f, err := os.Open(name)
		if err != nil {
			continue // deleted in the work tree, not yet in the index
		}
		head := make([]byte, 4)
		n, _ := io.ReadFull(f, head)
		f.Close()
		for what, magic := range magics {
			if bytes.HasPrefix(head[:n], magic) {
				t.Errorf("%s is %s: build outputs belong in bin/ or var/, not in git", name, what)
			}
		}
	}
}
