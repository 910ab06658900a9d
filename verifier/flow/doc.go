// Package flow owns the end-user side of a verification: the session of
// one link that the browser behind a verification's url walks through, its
// step machine and limits. The steps, in the order the page shows them:
// license front, license back, liveness challenge, and phone (only on links
// that requested phone verification, while a phone provider is configured);
// then submit, with an offer of manual review when the face match is
// inconclusive or failed. The flow calls the CPU-heavy engines through the
// Engines port and ends with verifier.Complete, which stores the result and
// enqueues its webhook.
//
// Where to look:
//   - flow.go: Flow (the service, built with its fields set), its Store port
//     (sealed sessions and review images), Limits and the flow's errors,
//     which verifier/http maps to statuses.
//   - session.go: Session (sealed at rest: it holds personal data), Step,
//     Phase and Action; view.go: View, what the page is told of the session.
//   - engines.go: the Engines port (implemented by verifier/engines) and
//     the reports and Problems it returns.
//   - documents.go: each document kind's steps (DocumentKind) and its
//     Capture, the document (verifier.Document) and evidence that submit
//     and completion read (docs/documents.md).
//   - One file per step: license.go (Front, Back), liveness.go
//     (NewChallenge, Liveness; exhausted.go ends a link whose attempts are
//     used up), phone.go (PhoneSend, PhoneCheck), submit.go (Submit, Review,
//     DeclineReview). At completion address.go and ipintel.go add the
//     address and IP checks; link.go resolves a link token to its
//     verification.
//   - testmode.go: test verifications, where the tester picks the outcome
//     (TestComplete; OutcomeOfPick is what a pick completes with, on
//     FixtureIdentity's license).
//   - purge.go, review.go, serverkey.go: purging the flow's personal data,
//     review images, sealing under the server key.
//
// flowtest (a subpackage) is a test helper for the flow's tests;
// verifier/http/testcomplete.go serves the test-mode endpoint.
package flow
