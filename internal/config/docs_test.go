package config

import (
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// The configuration table in docs/operations.md is the one place operators
// read; it must list every variable with its real default, so it is checked
// against Vars.
func TestDocsListEveryVariable(t *testing.T) {
	if got, want := testkit.DocBlock(t, "docs/operations.md", "config"), MarkdownTable(Vars()); got != want {
		t.Errorf("docs/operations.md configuration table is out of date; replace the block with:\n%s", want)
	}
}
