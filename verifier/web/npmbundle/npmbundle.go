// Package npmbundle holds the npm packages the end-user pages load on
// demand, bundled at build time as verifier/dashboard/npmbundle does (docs/development.md,
// Browser dependencies): `make npm` installs them from the committed
// package-lock.json, then `go generate` here bundles barcode.ts with
// zxing-wasm's reader into gen/barcode.js (esbuild, the Go module's own
// command) and copies the reader's WebAssembly into gen/. gen/ is
// gitignored and embedded; the binary never reads node_modules.
//
// An idgate built by a plain `go build` on a fresh clone has an empty gen/
// (only its README): it compiles and serves today's license pages with the
// manual shutter, and nothing else changes (ErrNotBuilt).
package npmbundle

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/idgate/idgate/internal/bundle"
)

//go:generate go run github.com/evanw/esbuild/cmd/esbuild --log-level=warning --bundle --format=iife --global-name=idgateBarcode --minify --target=es2020 --platform=browser --legal-comments=none --charset=utf8 --outfile=gen/barcode.js barcode.ts
//go:generate cp ../../../node_modules/zxing-wasm/dist/reader/zxing_reader.wasm gen/zxing_reader.wasm

//go:embed gen
var gen embed.FS

// ErrNotBuilt: the binary was built without `make npm`.
var ErrNotBuilt = errors.New("web npm bundle not built: run `make npm` (npm ci, then go generate ./verifier/web/npmbundle) before go build")

// Asset is a built file ready to serve under a content-hashed name.
type Asset struct {
	*bundle.Bundle
	// Name is "<file>-<16 hex>.<ext>": it changes with the content.
	Name string
}

// Reader is the barcode reader: its script and its WebAssembly.
type Reader struct{ Script, Wasm *Asset }

var reader = sync.OnceValues(func() (*Reader, error) {
	js, err := load("barcode", "js")
	if err != nil {
		return nil, err
	}
	wasm, err := load("zxing_reader", "wasm")
	if err != nil {
		return nil, err
	}
	return &Reader{Script: js, Wasm: wasm}, nil
})

// BarcodeReader is the barcode reader, or ErrNotBuilt.
func BarcodeReader() (*Reader, error) { return reader() }

func load(name, ext string) (*Asset, error) {
	body, err := fs.ReadFile(gen, "gen/"+name+"."+ext)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s.%s: %w", name, ext, ErrNotBuilt)
	}
	if err != nil {
		return nil, fmt.Errorf("web npm bundle %s.%s: %w", name, ext, err)
	}
	b, err := bundle.Pack(body)
	if err != nil {
		return nil, fmt.Errorf("web npm bundle %s.%s: %w", name, ext, err)
	}
	return &Asset{Bundle: b, Name: name + "-" + b.ETag[1:17] + "." + ext}, nil
}
