// Package npmbundle holds the npm packages the dashboard's browser code
// uses, bundled at build time (docs/development.md, Browser dependencies): `make npm`
// installs them from the committed package-lock.json, then runs `go
// generate` here, and internal/bundle/cmd/npmgen (esbuild with the settings
// of every served script) bundles each entry below with its package from
// node_modules into gen/, which is gitignored and embedded. The binary never
// reads node_modules, and no package's code is committed.
//
// Each bundle is a separate script the page loads when it needs it, never
// part of the dashboard's main bundle: an idgate built by a plain `go build`
// on a fresh clone (no `make npm`) has an empty gen/ (only its README), still
// compiles and serves the whole dashboard, and the one feature that needs
// the packages (passphrase keys in the browser) says what is missing.
//
// Entries:
//   - passphrase.ts, the global idgatePassphrase: Argon2id from hash-wasm
//     (WebAssembly; WebCrypto has no Argon2) and the P-256 public point from
//     @noble/curves, for passphrase keys (src/crypto/passphrase.ts).
package npmbundle

import (
	"embed"
	"errors"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
)

//go:generate go run github.com/idgate/idgate/internal/bundle/cmd/npmgen -global idgatePassphrase passphrase.ts

//go:embed gen
var gen embed.FS

// ErrNotBuilt: the binary was built without `make npm`, so gen/ holds no
// bundle.
var ErrNotBuilt = errors.New("npm bundle not built: run `make npm` (npm ci, then go generate ./verifier/dashboard/npmbundle) before go build")

// Asset is a bundle ready to serve under a content-hashed name, so the
// script may be cached for good.
type Asset = bundle.Asset

var passphrase = sync.OnceValues(func() (*Asset, error) {
	return bundle.Generated(gen, "passphrase.js", ErrNotBuilt)
})

// Passphrase is the passphrase.ts bundle, or ErrNotBuilt.
func Passphrase() (*Asset, error) { return passphrase() }
