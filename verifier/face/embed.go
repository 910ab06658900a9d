// Package face is the face engine: detection, landmarks, descriptors, match
// tiers and liveness, computed by our own Go code from registry model files.
package face

import _ "embed"

// ModelHashes is models.sha256, the list `make models` installs and checks.
// It lives beside this package so the hash list and the code that trusts it
// change together; the models package verifies every file against it.
//
//go:embed models.sha256
var ModelHashes string
