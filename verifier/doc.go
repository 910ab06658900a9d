// Package verifier is the core identity-verification service: its domain
// types, the rules of a verification's life and the one persistence port.
// Storage, HTTP, the end-user flow and the engines are subpackages.
//
// Where to look:
//   - verification.go: Verification, its Status machine (CheckTransition)
//     and Types; account.go, template.go, passphrasekey.go: the other
//     records an account owns.
//   - store.go: Store, the one persistence port, and its errors
//     (ErrNotFound, ErrConflict).
//   - create.go, lifecycle.go: Verifications, the service that creates,
//     reads, lists, cancels, deletes and opens verifications; every status
//     change goes through Verifications.Transition with a Step.
//   - options.go, typederive.go, quota.go: a request's options and settings,
//     the verification type they imply, plans and quotas.
//   - document.go: Document, the port of the identity document the
//     result is built from (license.License is its first adapter), and
//     DocumentKind (docs/documents.md).
//   - result.go, complete.go: Outcome (what the end-user flow measured;
//     not webhook.Outcome, a delivery attempt's, nor bigcommerce.Outcome, a
//     storefront's), BuildResult (the result payload) and Complete, which
//     seals and stores it; the store enqueues the webhook delivery
//     (DeliveryFor, delivery.go) in the same transaction.
//   - token.go, signingkey.go, integrationkey.go, origin.go, dashsession.go:
//     credentials: bearer tokens (Authenticator), publishable integration
//     keys with their origin allowlist, dashboard sessions;
//     webhooksecrets.go: the accounts' webhook signing secrets.
//   - sweeper.go: Sweeper expires links past their lifetime; purge.go:
//     PurgePII drops a finished verification's personal data.
//
// Subpackages: sqlstore (Store on PostgreSQL or SQLite; storetest is its
// conformance suite), http (the HTTP API and pages), flow (the end user's
// steps behind a verification's link), engines (the CPU-heavy barcode, card,
// face and liveness work), webhook (signed, retried delivery of results),
// e2ee (encryption of personal data in results), web and dashboard (the
// browser apps), face, license, phone, address, ipintel (the checks), imgio
// (untrusted images), openapi (the API document).
package verifier
