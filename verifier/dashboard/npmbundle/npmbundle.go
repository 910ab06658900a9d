// Package npmbundle holds the npm packages the dashboard's browser code
// uses, bundled at build time (docs/development.md, Browser dependencies): `make npm`
// installs them from the committed package-lock.json, then runs `go
// generate` here, and esbuild (the Go module's own command, the version
// internal/bundle uses) bundles each entry below with its package from
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
	"fmt"
	"io/fs"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
)

//go:generate go run github.com/evanw/esbuild/cmd/esbuild --log-level=warning --bundle --format=iife --global-name=idgatePassphrase --minify --target=es2020 --platform=browser --legal-comments=none --charset=utf8 --outfile=gen/passphrase.js passphrase.ts

//go:embed gen
var gen embed.FS

// ErrNotBuilt: the binary was built without `make npm`, so gen/ holds no
// bundle.
var ErrNotBuilt = errors.New("npm bundle not built: run `make npm` (npm ci, then go generate ./verifier/dashboard/npmbundle) before go build")

// Asset is a bundle ready to serve under a content-hashed name.
type Asset struct {
	*bundle.Bundle
	// Name is "<entry>-<16 hex>.js": it changes with the content, so the
	// script may be cached for good.
	Name string
}

var passphrase = sync.OnceValues(func() (*Asset, error) { return load("passphrase") })

// Passphrase is the passphrase.ts bundle, or ErrNotBuilt.
func Passphrase() (*Asset, error) { return passphrase() }

func load(name string) (*Asset, error) {
	js, err := fs.ReadFile(gen, "gen/"+name+".js")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", name, ErrNotBuilt)
	}
	if err != nil {
		return nil, fmt.Errorf("npm bundle %s: %w", name, err)
	}
	b, err := bundle.Pack(js)
	if err != nil {
		return nil, fmt.Errorf("npm bundle %s: %w", name, err)
	}
	return &Asset{Bundle: b, Name: name + "-" + b.ETag[1:17] + ".js"}, nil
}
