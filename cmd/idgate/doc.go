// Command idgate is the one binary of the project. Subcommands register
// themselves from their own files (serve.go, account.go, license.go, ...)
// so each stays small and self-contained.
//
// main.go dispatches to the longest registered name and prints the list
// (`idgate` with no arguments). The subcommands, by file:
//   - serve.go: serve, the verifier; it wires the flow (flow.go), webhook
//     delivery (webhooks.go), the phone and address providers (phone.go,
//     address.go) and IP intelligence (ip.go).
//   - migrate.go: migrate; account.go: account create; keys.go: keys
//     fingerprint, keys passphrase create; decrypt.go: decrypt, opening an
//     encrypted result.
//   - store.go: store add, install, list, serve and demo, the storefront
//     proxy (store_demo_verifier.go prepares the demo store's account on a
//     running verifier).
//   - Tools that read one input: license parse, license scan (license.go), license
//     front (license_front.go), face detect, face compare (face.go), face
//     liveness (face_liveness.go), ip lookup, ip update-tor (ip.go).
//   - version.go: version. image.go reads the photos the tools take.
package main
