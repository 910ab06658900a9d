package widget

import (
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// esbuild bundles without checking types; tsc checks the footer script's
// TypeScript strictly (tsconfig.json).
func TestTypeScriptChecks(t *testing.T) { testkit.TypeCheck(t) }
