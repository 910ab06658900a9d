package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// The README's configuration table is the one place operators read; it must
// list every variable with its real default, so it is checked against Vars.
func TestREADMEListsEveryVariable(t *testing.T) {
	const begin, end = "<!-- config:begin -->\n", "<!-- config:end -->"
	raw, err := os.ReadFile(filepath.Join(testkit.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q block", begin, end)
	}
	if got, want := readme[i+len(begin):j], markdownTable(Vars()); got != want {
		t.Errorf("README.md configuration table is out of date; replace the block with:\n%s", want)
	}
}

func markdownTable(vars []Var) string {
	var b strings.Builder
	b.WriteString("| variable | default | meaning |\n|---|---|---|\n")
	for _, v := range vars {
		def := "(empty)"
		if v.Default != "" {
			def = "`" + v.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, def, strings.ReplaceAll(v.Meaning, "|", `\|`))
	}
	return b.String()
}
