// Package e2ee is the end-to-end encryption of personal data in verification
// results: passphrase keys (Argon2id → P-256), custom RSA keys, the sealed
// member envelopes and the JSON shapes that carry them in a result payload.
//
// It is a leaf package (standard library and golang.org/x/crypto only) so the
// service, the public client package and the CLI share one implementation.
// docs/encryption.md specifies the format byte by byte; any change here that
// alters bytes on the wire needs a new Version.
package e2ee
