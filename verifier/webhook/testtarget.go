package webhook

import (
	"net/url"
	"strings"
)

// FailingTestURL is a webhook_url that fails every attempt on purpose, so
// integrators can watch the retries and webhook_status "failed" of a test
// verification (docs/test-mode.md). Its host is under .test, a domain RFC 6761
// reserves so that no DNS ever resolves it: the sender never dials it, it
// answers the attempt itself (FailingTestStatus) after building and
// signing the request as for any target. Nothing of the SSRF guard changes:
// every other host is dialed, and checked, as before. The verifier accepts
// it only on test verifications.
const (
	FailingTestHost   = "fail.webhook.idgate.test"
	FailingTestURL    = "https://" + FailingTestHost + "/"
	FailingTestStatus = 503
	failingSnippet    = "idgate test mode: this webhook target fails on purpose"
)

// FailsOnPurpose reports whether raw is on FailingTestHost (any path).
func FailsOnPurpose(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.EqualFold(strings.TrimSuffix(u.Hostname(), "."), FailingTestHost)
}
