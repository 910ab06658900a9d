// Package widget builds the storefront footer script from its TypeScript
// sources (src/, embedded) with internal/bundle: one minified IIFE, built
// once per process, with its gzip form and ETag ready for serving. The
// widget imports no npm packages.
package widget

import (
	"embed"

	"github.com/idgate/idgate/internal/bundle"
)

//go:embed src/*.ts src/*.json
var sources embed.FS

// Entry is the bundle's entry point.
const Entry = "src/main.ts"

// Bundle is the built script.
type Bundle = bundle.Bundle

// Get returns the bundle, building it on first use.
var Get = bundle.Once(bundle.Options{Sources: sources, Entry: Entry})

// Build bundles the sources afresh.
func Build() (*Bundle, error) { return bundle.Build(bundle.Options{Sources: sources, Entry: Entry}) }
