package http

import (
	"errors"
	"fmt"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// TestDomainErrorTable: wrapped domain errors reach their public code; the
// quota error names the type that ran out; validation keeps every field.
func TestDomainErrorTable(t *testing.T) {
	cases := []struct {
		err  error
		code httperr.Code
	}{
		{fmt.Errorf("login: %w", verifier.ErrInvalidCredentials), httperr.Unauthenticated},
		{fmt.Errorf("%w: expired", verifier.ErrInvalidToken), httperr.Unauthenticated},
		{verifier.ErrInvalidKey, httperr.Unauthenticated},
		{fmt.Errorf("%w: %q", verifier.ErrOriginNotAllowed, "https://x"), httperr.OriginNotAllowed},
		{fmt.Errorf("create: %w", &verifier.QuotaError{Type: verifier.TypeFull, Limit: 10}), httperr.QuotaExceeded},
		{fmt.Errorf("get: %w", verifier.ErrNotFound), httperr.NotFound},
		{fmt.Errorf("create account: %w", verifier.ErrConflict), httperr.Conflict},
		{fmt.Errorf("cancel: %w", verifier.ErrInvalidTransition), httperr.Conflict},
		// The liveness answer's refusals (the flow's tests bring them about).
		{fmt.Errorf("answer: %w", flow.ErrChallengeUnknown), httperr.NotFound},
		{fmt.Errorf("answer: %w", flow.ErrChallengeVoided), httperr.Conflict},
		{fmt.Errorf("answer: %w", flow.ErrChallengeUsed), httperr.Conflict},
		{fmt.Errorf("answer: %w", flow.ErrChallengeExpired), httperr.Conflict},
		{fmt.Errorf("challenge: %w", flow.ErrNoAttemptsLeft), httperr.RateLimited},
	}
	for _, c := range cases {
		var e *httperr.Error
		if !errors.As(toHTTP(c.err), &e) || e.Code != c.code || e.Status != httperr.Codes()[c.code] {
			t.Errorf("%v → %+v, want %s", c.err, e, c.code)
		}
	}
	var e *httperr.Error
	errors.As(toHTTP(fmt.Errorf("create: %w", &verifier.QuotaError{Type: verifier.TypeBasic})), &e)
	if e.VerificationType != "basic" || e.Status != 402 {
		t.Errorf("quota: %+v", e)
	}
	errors.As(toHTTP(&verifier.ValidationError{Fields: []problem.Detail{{Field: "a", Code: "x", Message: "m"}, {Field: "b", Code: "y", Message: "n"}}}), &e)
	if e.Code != httperr.ValidationFailed || len(e.Details) != 2 || e.Details[1].Field != "b" {
		t.Errorf("validation: %+v", e)
	}
	plain := errors.New("disk on fire")
	if toHTTP(plain) != plain {
		t.Error("an unknown error must pass through to become INTERNAL")
	}
}
