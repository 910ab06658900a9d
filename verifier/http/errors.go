package http

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// msgUnauthenticated is the one body of every bearer failure, whatever the
// reason (missing, malformed, expired, wrong key, account gone): the reason
// is logged at debug level, never sent.
const msgUnauthenticated = "missing, invalid or expired access token; sign in again with POST /auth"

// domainErrors is the one table from domain sentinels to public errors.
// First match wins, so more specific errors come first.
var domainErrors = []struct {
	target  error
	code    httperr.Code
	message string
	headers map[string]string
}{
	{verifier.ErrInvalidCredentials, httperr.Unauthenticated, "invalid e-mail or password", nil},
	{verifier.ErrInvalidToken, httperr.Unauthenticated, msgUnauthenticated, map[string]string{"WWW-Authenticate": `Bearer realm="idgate"`}},
	{verifier.ErrInvalidKey, httperr.Unauthenticated, "invalid or revoked integration key", nil},
	{verifier.ErrOriginNotAllowed, httperr.OriginNotAllowed, "the request's Origin is not on this integration key's allowlist", nil},
	{verifier.ErrQuotaExceeded, httperr.QuotaExceeded, "no allowance left for this verification type", nil},
	{flow.ErrBusy, httperr.Unavailable, "the service is busy; try again in a few seconds", map[string]string{"Retry-After": busyRetryAfter}},
	{verifier.ErrUnknownLink, httperr.NotFound, "this verification link is not valid; check that the whole link was opened", nil},
	{flow.ErrNotTestLink, httperr.NotFound, "no test verification behind this link: test/complete takes only links of test verifications (made with a test key or test-mode token)", nil},
	{flow.ErrChallengeUnknown, httperr.NotFound, "no such liveness challenge on this link; request a new one", nil},
	{flow.ErrChallengeVoided, httperr.Conflict, "this liveness challenge was replaced by a newer one; answer the newest", nil},
	{flow.ErrChallengeUsed, httperr.Conflict, "this liveness challenge was already answered; request a new one", nil},
	{flow.ErrChallengeExpired, httperr.Conflict, "this liveness challenge has expired; request a new one", nil},
	{flow.ErrNoAttemptsLeft, httperr.RateLimited, "no liveness attempts left on this link", nil},
	{flow.ErrPhoneSendsExhausted, httperr.RateLimited, "no more codes can be sent on this link", nil},
	{flow.ErrPhoneCodeExpired, httperr.Conflict, "this code has expired; ask for a new one", nil},
	{flow.ErrPhoneUnavailable, httperr.Unavailable, "the code could not be sent just now; try again in a minute", map[string]string{"Retry-After": phoneRetryAfter}},
	{flow.ErrDocumentNotChosen, httperr.Conflict, "this link accepts several documents: choose one first (POST /v/{token}/document)", nil},
	{flow.ErrOtherDocument, httperr.Conflict, "this step is for a document this link does not take now: the link's session names the document and its steps", nil},
	{flow.ErrDocumentFixed, httperr.Conflict, "the document cannot change on this link: a photo of the one chosen was already accepted", nil},
	{flow.ErrOutOfOrder, httperr.Conflict, "this step is not available now: the document's photos and liveness (and the phone, when asked) come before submit; review is offered only after submit", nil},
	{verifier.ErrNotFound, httperr.NotFound, "not found", nil},
	{verifier.ErrConflict, httperr.Conflict, "conflicts with an existing record", nil},
	{verifier.ErrInvalidTransition, httperr.Conflict, "the verification's status does not allow this", nil},
}

// toHTTP turns domain errors into *httperr.Error; other errors pass through
// (httperr answers them as INTERNAL).
func toHTTP(err error) error {
	var he *httperr.Error
	if errors.As(err, &he) {
		return he
	}
	var ve *verifier.ValidationError
	if errors.As(err, &ve) {
		return httperr.Validation(ve.Fields...)
	}
	var pe *flow.ProblemsError
	if errors.As(err, &pe) {
		details := make([]problem.Detail, len(pe.Problems))
		for i, p := range pe.Problems {
			details[i] = problem.Detail{Field: string(pe.Step), Code: string(p), Message: flow.StepSentence(pe.Step, p)}
		}
		return httperr.Validation(details...)
	}
	if e, ok := phoneError(err); ok {
		return e
	}
	var le *flow.LinkEndedError
	if errors.As(err, &le) {
		e := httperr.New(httperr.Gone, linkEnded[le.Status])
		if e.Message == "" {
			e.Message = "this verification link can no longer be used"
		}
		return e
	}
	for _, d := range domainErrors {
		if errors.Is(err, d.target) {
			e := httperr.New(d.code, d.message)
			e.Headers, e.Cause = d.headers, err
			var qe *verifier.QuotaError
			if errors.As(err, &qe) {
				e.VerificationType = string(qe.Type)
			}
			return e
		}
	}
	return err
}

// linkEnded says why a link refuses every step (410 GONE).
var linkEnded = map[verifier.Status]string{
	verifier.StatusExpired:      "this verification link has expired; ask the sender for a new one",
	verifier.StatusCanceled:     "this verification was canceled by the sender",
	verifier.StatusCompleted:    "this verification is already complete",
	verifier.StatusManualReview: "this verification was sent for manual review",
}

// msgIDInQuery answers the unknown path newcomers try first: a
// verification's id in the path (/verification/{id}, the REST habit).
const msgIDInQuery = "no such endpoint: a verification's id goes in the query, as in GET /verification?id=…"

// pathHint replaces the unknown-route 404 under /verification/ and
// /verifications/ with one that says where the id goes; every other error,
// and every other unknown path, is left as it is.
func pathHint(path string, err error) error {
	var fe *fiber.Error
	if !errors.As(err, &fe) || fe.Code != fiber.StatusNotFound {
		return err
	}
	if strings.HasPrefix(path, "/verification/") || strings.HasPrefix(path, "/verifications/") {
		return httperr.New(httperr.NotFound, msgIDInQuery)
	}
	return err
}
