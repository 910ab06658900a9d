package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// Generated reads gen/<file> from a package's embedded gen directory (see
// cmd/npmgen) and packs it as an Asset named after it. A file that is not
// there is reported as notBuilt (the package's ErrNotBuilt: a binary built
// by a plain `go build`, without `make npm`), wrapped with the file's name.
func Generated(gen fs.FS, file string, notBuilt error) (*Asset, error) {
	body, err := fs.ReadFile(gen, path.Join("gen", file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", file, notBuilt)
	}
	if err != nil {
		return nil, fmt.Errorf("generated %s: %w", file, err)
	}
	ext := path.Ext(file)
	ctype, ok := generatedTypes[ext]
	if !ok {
		return nil, fmt.Errorf("generated %s: no content type for %q", file, ext)
	}
	return NewAsset(file[:len(file)-len(ext)], ext, ctype, body)
}

// generatedTypes are the kinds of file cmd/npmgen writes.
var generatedTypes = map[string]string{".js": JS, ".wasm": Wasm}
