package widget

import "github.com/idgate/idgate/internal/bundle"

// BuildEntry bundles one source file with its exports on a global, so the
// browser test can drive parts of the widget (the QR encoder) directly.
func BuildEntry(entry, globalName string) (*Bundle, error) {
	return bundle.Build(bundle.Options{Sources: sources, Entry: "src/" + entry, GlobalName: globalName})
}
