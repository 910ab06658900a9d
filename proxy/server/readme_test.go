package server

import (
	"testing"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/testkit"
)

// The proxy's settings are documented in their own README table, checked
// against Vars like the verifier's.
func TestREADMEListsEveryProxyVariable(t *testing.T) {
	if got, want := testkit.READMEBlock(t, "proxy-config"), config.MarkdownTable(Vars); got != want {
		t.Errorf("README.md proxy configuration table is out of date; replace the block with:\n%s", want)
	}
}
