package server

import (
	"testing"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/testkit"
)

// The proxy's settings are documented in their own table in
// docs/storefront.md, checked against Vars like the verifier's.
func TestDocsListEveryProxyVariable(t *testing.T) {
	if got, want := testkit.DocBlock(t, "docs/storefront.md", "proxy-config"), config.MarkdownTable(Vars); got != want {
		t.Errorf("docs/storefront.md proxy configuration table is out of date; replace the block with:\n%s", want)
	}
}
