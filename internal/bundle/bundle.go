// Package bundle builds browser code with esbuild's Go API: a TypeScript
// entry point and its relative imports read from an fs.FS (usually embedded),
// plus npm packages resolved from a node_modules directory when one is given,
// into one minified IIFE with its gzip form and a strong ETag, ready to serve.
//
// Building takes milliseconds, so packages bundle their embedded sources when
// first asked (Once) instead of committing generated JavaScript.
package bundle

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// Options say what to bundle.
type Options struct {
	// Sources holds the entry point and every file it imports by a relative
	// path ("./view", "../shared/x.ts"); imports may not leave it.
	Sources fs.FS
	// Entry is the entry point's path inside Sources, e.g. "src/main.ts".
	Entry string
	// NodeModules is a node_modules directory on disk (installed by `make
	// npm` from the committed package-lock.json). Bare imports ("axe-core",
	// "@scope/pkg") resolve there; when empty they are an error, so a bundle
	// cannot depend on a package by accident. Build time and tests only: a
	// served bundle must not read node_modules at run time (README, Browser
	// dependencies).
	NodeModules string
	// GlobalName, when set, assigns the entry's exports to this global
	// (tests use it to drive parts of a bundle; served scripts leave it empty).
	GlobalName string
	// Define replaces identifiers by JavaScript expressions at build time
	// (esbuild's define), e.g. the path of a separately served script.
	Define map[string]string
	// Strict starts the script with "use strict" (TypeScript's
	// alwaysStrict), as esbuild's command wrote the npm bundles before
	// cmd/npmgen built them here: their packages were tested in strict mode.
	Strict bool
}

// Bundle is a built script.
type Bundle struct {
	JS   []byte // minified JavaScript
	Gzip []byte // JS gzipped at best compression
	// ETag is a strong validator of JS: a quoted 24-hex SHA-256 prefix.
	ETag string
}

// namespace marks modules loaded from Options.Sources, sharedNamespace
// those loaded from shared/.
const (
	namespace       = "idgate-sources"
	sharedNamespace = "idgate-shared"
)

// shared holds the TypeScript modules every bundle may import as
// "@idgate/<name>" (shared/<name>.ts), so browser code two packages need is
// written once: the DOM builder of the end-user pages and the dashboard.
// Their tsconfig.json maps the same name for tsc.
//
//go:embed shared
var shared embed.FS

const sharedPrefix = "@idgate/"

// loaders maps the source extensions a bundle may import to their loader.
// JSON lets a table shared with Go code (the end-user pages' strings) be
// imported as a module instead of copied into TypeScript.
var loaders = map[string]api.Loader{".ts": api.LoaderTS, ".js": api.LoaderJS, ".json": api.LoaderJSON}

// Once returns a function that builds o on its first call and returns the
// same result (or error) on every later call: one build per process.
func Once(o Options) func() (*Bundle, error) {
	return sync.OnceValues(func() (*Bundle, error) { return Build(o) })
}

// Build bundles o. Every esbuild error (a TypeScript syntax error, an import
// that does not resolve) comes back in the error with its file and line.
func Build(o Options) (*Bundle, error) {
	if o.Sources == nil || o.Entry == "" {
		return nil, errors.New("bundle: Sources and Entry are required")
	}
	if _, ok := loaders[path.Ext(o.Entry)]; !ok {
		return nil, fmt.Errorf("bundle %s: only .ts, .js and .json sources", o.Entry)
	}
	nodeDir := ""
	if o.NodeModules != "" {
		abs, err := filepath.Abs(o.NodeModules)
		if err != nil {
			return nil, fmt.Errorf("bundle %s: %w", o.Entry, err)
		}
		// esbuild looks for node_modules in the importer's directory.
		nodeDir = filepath.Dir(abs)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{o.Entry},
		GlobalName:        o.GlobalName,
		Define:            o.Define,
		TsconfigRaw:       tsconfig(o.Strict),
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
		Outfile:           "out.js",
		Plugins:           []api.Plugin{sources(o.Sources, nodeDir)},
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := make([]string, 0, len(res.Errors))
		for _, m := range res.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
			}
			msgs = append(msgs, loc+m.Text)
		}
		return nil, fmt.Errorf("bundle %s: %s", o.Entry, strings.Join(msgs, "; "))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("bundle %s: %d output files, want 1", o.Entry, len(res.OutputFiles))
	}
	return Pack(res.OutputFiles[0].Contents)
}

func tsconfig(strict bool) string {
	if strict {
		return `{"compilerOptions":{"alwaysStrict":true}}`
	}
	return ""
}

// Pack adds the gzip form and the ETag to a built file (a script, a
// stylesheet served beside it, or a package bundled at build time, see
// verifier/dashboard/npmbundle).
func Pack(js []byte) (*Bundle, error) {
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("bundle: gzip: %w", err)
	}
	if _, err := w.Write(js); err != nil {
		return nil, fmt.Errorf("bundle: gzip: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("bundle: gzip: %w", err)
	}
	sum := sha256.Sum256(js)
	return &Bundle{JS: js, Gzip: gz.Bytes(), ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

// sources resolves the entry point and relative imports inside fsys, and
// hands bare imports to esbuild's own node_modules resolution from nodeDir
// (refusing them when nodeDir is empty). Imports inside npm packages are
// left to esbuild.
func sources(fsys fs.FS, nodeDir string) api.Plugin {
	return api.Plugin{Name: "idgate-sources", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind == api.ResolveEntryPoint {
				// esbuild hands "src/main.ts" over as "./src/main.ts".
				return api.OnResolveResult{Path: path.Clean(a.Path), Namespace: namespace}, nil
			}
			if name, ok := strings.CutPrefix(a.Path, sharedPrefix); ok {
				p := "shared/" + name + ".ts"
				if _, err := fs.Stat(shared, p); err != nil || !fs.ValidPath(p) {
					return api.OnResolveResult{}, fmt.Errorf("import %q: no shared module internal/bundle/%s", a.Path, p)
				}
				return api.OnResolveResult{Path: p, Namespace: sharedNamespace}, nil
			}
			if a.Namespace != namespace {
				return api.OnResolveResult{}, nil // inside an npm package
			}
			if !strings.HasPrefix(a.Path, "./") && !strings.HasPrefix(a.Path, "../") {
				if nodeDir == "" {
					return api.OnResolveResult{}, fmt.Errorf("import %q: npm packages need Options.NodeModules", a.Path)
				}
				return api.OnResolveResult{}, nil // esbuild resolves it from ResolveDir/node_modules
			}
			p := path.Join(path.Dir(a.Importer), a.Path)
			if !fs.ValidPath(p) {
				return api.OnResolveResult{}, fmt.Errorf("import %q leaves the sources", a.Path)
			}
			switch _, ok := loaders[path.Ext(p)]; {
			case path.Ext(p) == "":
				p += ".ts"
			case !ok:
				return api.OnResolveResult{}, fmt.Errorf("import %q: only .ts, .js and .json sources", a.Path)
			}
			return api.OnResolveResult{Path: p, Namespace: namespace}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: sharedNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := fs.ReadFile(shared, a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			s := string(src)
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderTS}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: namespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := fs.ReadFile(fsys, a.Path)
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("no source %s", a.Path)
			}
			s := string(src)
			return api.OnLoadResult{Contents: &s, Loader: loaders[path.Ext(a.Path)], ResolveDir: nodeDir}, nil
		})
	}}
}
