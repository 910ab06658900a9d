package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// Asset is a file made at build time (`make npm`: an npm package bundled,
// or its WebAssembly copied, by go generate into a package's gen/), ready to
// serve under a content-hashed name.
type Asset struct {
	*Bundle
	// Name is "<stem>-<16 hex><ext>": it changes with the content, so the
	// file may be cached for good.
	Name string
}

// NewAsset packs body under the name "<stem>-<16 hex><ext>".
func NewAsset(stem, ext string, body []byte) (*Asset, error) {
	b, err := Pack(body)
	if err != nil {
		return nil, fmt.Errorf("asset %s%s: %w", stem, ext, err)
	}
	return &Asset{Bundle: b, Name: stem + "-" + b.ETag[1:17] + ext}, nil
}

// Generated reads gen/<file> from a package's embedded gen directory (see
// cmd/npmgen) and packs it as an Asset. A file that is not there is
// reported as notBuilt (the package's ErrNotBuilt: a binary built by a
// plain `go build`, without `make npm`), wrapped with the file's name.
func Generated(gen fs.FS, file string, notBuilt error) (*Asset, error) {
	body, err := fs.ReadFile(gen, path.Join("gen", file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", file, notBuilt)
	}
	if err != nil {
		return nil, fmt.Errorf("generated %s: %w", file, err)
	}
	ext := path.Ext(file)
	return NewAsset(file[:len(file)-len(ext)], ext, body)
}
