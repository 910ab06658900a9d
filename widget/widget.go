// Package widget builds the storefront footer script from its TypeScript
// sources (src/, embedded) with esbuild's Go API: one minified IIFE, built
// once per process, with its gzip form and ETag ready for serving.
package widget

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

//go:embed src/*.ts
var sources embed.FS

// Entry is the bundle's entry point inside src/.
const Entry = "main.ts"

// namespace marks modules loaded from the embedded sources.
const namespace = "idgate-widget"

// Bundle is the built script.
type Bundle struct {
	JS   []byte // minified JavaScript
	Gzip []byte // JS gzipped at best compression
	// ETag is a strong validator of JS: a quoted SHA-256 prefix.
	ETag string
}

var (
	once   sync.Once
	built  *Bundle
	errOut error
)

// Get returns the bundle, building it on first use.
func Get() (*Bundle, error) {
	once.Do(func() { built, errOut = Build() })
	return built, errOut
}

// Build bundles the sources. Only relative imports between the embedded
// files resolve: the widget has no third-party dependencies.
func Build() (*Bundle, error) { return build(Entry, "") }

// build bundles entry; a globalName exposes its exports (tests only: the
// footer script defines no global).
func build(entry, globalName string) (*Bundle, error) {
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{entry},
		GlobalName:        globalName,
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		Outfile:           "idgate.js",
		Plugins:           []api.Plugin{embedded()},
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := make([]string, 0, len(res.Errors))
		for _, m := range res.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
			}
			msgs = append(msgs, loc+m.Text)
		}
		return nil, fmt.Errorf("build widget: %s", strings.Join(msgs, "; "))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("build widget: %d output files, want 1", len(res.OutputFiles))
	}
	js := res.OutputFiles[0].Contents
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("build widget: %w", err)
	}
	if _, err := w.Write(js); err != nil {
		return nil, fmt.Errorf("build widget: gzip: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("build widget: gzip: %w", err)
	}
	sum := sha256.Sum256(js)
	return &Bundle{JS: js, Gzip: gz.Bytes(), ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

// embedded resolves "./x" imports to src/x.ts in the embedded FS.
func embedded() api.Plugin {
	return api.Plugin{Name: "embedded-sources", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind == api.ResolveEntryPoint {
				return api.OnResolveResult{Path: a.Path, Namespace: namespace}, nil
			}
			if !strings.HasPrefix(a.Path, "./") {
				return api.OnResolveResult{}, fmt.Errorf("import %q: only relative imports of the widget's own files", a.Path)
			}
			p := path.Clean(path.Join(path.Dir(a.Importer), a.Path))
			if !strings.HasSuffix(p, ".ts") {
				p += ".ts"
			}
			return api.OnResolveResult{Path: p, Namespace: namespace}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: namespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := sources.ReadFile("src/" + a.Path)
			if err != nil {
				return api.OnLoadResult{}, errors.New("no widget source " + a.Path)
			}
			s := string(src)
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderTS}, nil
		})
	}}
}
