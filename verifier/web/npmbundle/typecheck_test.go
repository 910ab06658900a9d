package npmbundle

import (
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// esbuild bundles without checking types; tsc checks barcode.ts against
// the types zxing-wasm ships (tsconfig.json).
func TestTypeScriptChecks(t *testing.T) { testkit.TypeCheck(t) }
