package http

import (
	"errors"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
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
