package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/idgate/idgate/internal/bundle"
)

// InNode bundles entry (a module importing from ./src) as the global G,
// with every .ts file of dir as src/ and extra (path to source) beside
// them, and returns what node, at the path node, prints running script
// after it. The script goes in on standard input, so its data may be
// larger than an argument allows. Used by the page's tests
// (verifier/web) and the straight-ahead benchmark (bench/pages), which
// drive the page's own modules without a browser.
func InNode(node, dir, entry, script string, extra map[string][]byte) (string, error) {
	src := fstest.MapFS{"entry.ts": {Data: []byte(entry)}}
	names, err := filepath.Glob(filepath.Join(dir, "*.ts"))
	if err != nil {
		return "", err
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return "", err
		}
		src["src/"+filepath.Base(n)] = &fstest.MapFile{Data: data}
	}
	for p, data := range extra {
		src[p] = &fstest.MapFile{Data: data}
	}
	b, err := bundle.Build(bundle.Options{Sources: src, Entry: "entry.ts", GlobalName: "G"})
	if err != nil {
		return "", err
	}
	cmd := exec.Command(node, "-")
	cmd.Stdin = strings.NewReader(string(b.JS) + ";\n" + script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("node: %w\n%s", err, out)
	}
	return strings.TrimSpace(string(out)), nil
}
