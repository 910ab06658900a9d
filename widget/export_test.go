package widget

// BuildEntry bundles one source file with its exports on a global, so the
// browser test can drive parts of the widget (the QR encoder) directly.
func BuildEntry(entry, globalName string) (*Bundle, error) { return build(entry, globalName) }
