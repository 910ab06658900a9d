package bundle

import "fmt"

// Content types of the files served as assets.
const (
	JS   = "text/javascript; charset=utf-8"
	CSS  = "text/css; charset=utf-8"
	Wasm = "application/wasm"
	// Opaque is for bytes only the page's own code parses (a model's
	// weights and manifest): no browser should sniff or render them.
	Opaque = "application/octet-stream"
)

// Asset is a file ready to serve at Path: a bundle built here, a file made
// at build time (Generated), a stylesheet or a model's file.
type Asset struct {
	*Bundle
	// Name is "<stem>-<16 hex><ext>" for a file named by its content (it
	// changes with the content, so it may be cached for good), or a name
	// its package gives it (a requester's colour).
	Name        string
	ContentType string
}

// Path is where the asset is served.
func (a *Asset) Path() string { return "/assets/" + a.Name }

// Named is b as an asset named by its content: "<stem>-<16 hex><ext>".
func (b *Bundle) Named(stem, ext, ctype string) *Asset {
	return &Asset{Bundle: b, Name: stem + "-" + b.ETag[1:17] + ext, ContentType: ctype}
}

// NewAsset packs body as an asset named by its content (Named).
func NewAsset(stem, ext, ctype string, body []byte) (*Asset, error) {
	b, err := Pack(body)
	if err != nil {
		return nil, fmt.Errorf("asset %s%s: %w", stem, ext, err)
	}
	return b.Named(stem, ext, ctype), nil
}
