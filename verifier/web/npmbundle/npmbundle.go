// Package npmbundle holds the npm packages the end-user pages load on
// demand, bundled at build time as verifier/dashboard/npmbundle does (docs/development.md,
// Browser dependencies): `make npm` installs them from the committed
// package-lock.json, then `go generate` here bundles barcode.ts with
// zxing-wasm's reader into gen/barcode.js and copies the reader's
// WebAssembly into gen/ (internal/bundle/cmd/npmgen). gen/ is
// gitignored and embedded; the binary never reads node_modules.
//
// An idgate built by a plain `go build` on a fresh clone has an empty gen/
// (only its README): it compiles and serves today's license pages with the
// manual shutter, and nothing else changes (ErrNotBuilt).
package npmbundle

import (
	"embed"
	"errors"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
)

//go:generate go run github.com/idgate/idgate/internal/bundle/cmd/npmgen -global idgateBarcode barcode.ts zxing-wasm/dist/reader/zxing_reader.wasm

//go:embed gen
var gen embed.FS

// ErrNotBuilt: the binary was built without `make npm`.
var ErrNotBuilt = errors.New("web npm bundle not built: run `make npm` (npm ci, then go generate ./verifier/web/npmbundle) before go build")

// Asset is a built file ready to serve under a content-hashed name.
type Asset = bundle.Asset

// Reader is the barcode reader: its script and its WebAssembly.
type Reader struct{ Script, Wasm *Asset }

var reader = sync.OnceValues(func() (*Reader, error) {
	js, err := bundle.Generated(gen, "barcode.js", ErrNotBuilt)
	if err != nil {
		return nil, err
	}
	wasm, err := bundle.Generated(gen, "zxing_reader.wasm", ErrNotBuilt)
	if err != nil {
		return nil, err
	}
	return &Reader{Script: js, Wasm: wasm}, nil
})

// BarcodeReader is the barcode reader, or ErrNotBuilt.
func BarcodeReader() (*Reader, error) { return reader() }
