package config

import (
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// The README's configuration table is the one place operators read; it must
// list every variable with its real default, so it is checked against Vars.
func TestREADMEListsEveryVariable(t *testing.T) {
	if got, want := testkit.READMEBlock(t, "config"), MarkdownTable(Vars()); got != want {
		t.Errorf("README.md configuration table is out of date; replace the block with:\n%s", want)
	}
}
