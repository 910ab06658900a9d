package http

import (
	"errors"
	"net/http"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/verifierapi"
)

// domainErrors is the one table from the proxy's sentinels to public
// errors; first match wins.
var domainErrors = []struct {
	target  error
	code    httperr.Code
	message string
}{
	{proxy.ErrUnknownStore, httperr.NotFound, "no such store"},
	{proxy.ErrOriginNotAllowed, httperr.OriginNotAllowed, "this origin is not a storefront of the store"},
	{proxy.ErrLoginRequired, httperr.Unauthenticated, "log in first: a verification carries to the account the shopper is logged in as"},
	{proxy.ErrCustomerToken, httperr.Unauthenticated, "the customer token is invalid or expired"},
	{proxy.ErrWebhookAuth, httperr.Unauthenticated, "webhook authentication failed"},
	{proxy.ErrInvalidInput, httperr.ValidationFailed, "the request is invalid"},
	{proxy.ErrMalformedJSON, httperr.MalformedJSON, "the body is not valid JSON"},
	{proxy.ErrNotLinked, httperr.Conflict, "the store is not set up for verification yet"},
	{proxy.ErrInstallRefused, httperr.Unauthenticated, "BigCommerce refused this install (its code was used or has expired); install the app again from the control panel"},
	{proxy.ErrPayloadReused, httperr.Unauthenticated, "this link from the control panel was used already; open the app again from the control panel"},
	{proxy.ErrSignedPayload, httperr.Unauthenticated, "the control panel's signed payload is invalid or expired"},
	{proxy.ErrAppSession, httperr.Unauthenticated, "the settings session is invalid or expired; open the app again from the control panel"},
}

// toHTTP maps a service error to the error body. The verifier's refusals
// keep their meaning (quota, rate limit, a storefront its key does not
// allow: 409); other upstream failures are 503.
func toHTTP(err error) error {
	var he *httperr.Error
	if errors.As(err, &he) {
		return he
	}
	var limited *proxy.RateLimitedError
	if errors.As(err, &limited) {
		e := httperr.New(httperr.RateLimited, "too many verifications started; try again later")
		e.Headers = ratelimit.Headers(limited.Result)
		return e
	}
	for _, d := range domainErrors {
		if !errors.Is(err, d.target) {
			continue
		}
		var in *proxy.InputError
		if d.code == httperr.ValidationFailed && errors.As(err, &in) {
			code := in.Code
			if code == "" {
				code = "invalid"
			}
			return httperr.Validation(problem.Detail{Field: in.Field, Code: code, Message: in.Message})
		}
		return httperr.New(d.code, d.message)
	}
	var refused *verifierapi.RefusedError
	if errors.As(err, &refused) {
		switch refused.Status {
		case http.StatusPaymentRequired:
			return httperr.New(httperr.QuotaExceeded, "the store's verification allowance is used up")
		case http.StatusTooManyRequests:
			return httperr.New(httperr.RateLimited, "too many verifications started; try again later")
		case http.StatusForbidden:
			// The storefront is the store's (the proxy checked), but the
			// key was made before it was added (proxy.Store.HostsOffKey):
			// a retry cannot help, the merchant's new key does.
			if refused.Code == string(httperr.OriginNotAllowed) {
				return httperr.New(httperr.Conflict, "this storefront is not on the store's verification key yet; the store owner renews the key in the idgate app's settings")
			}
		}
	}
	if errors.Is(err, proxy.ErrUpstream) {
		e := httperr.New(httperr.Unavailable, "a service the proxy depends on failed; try again")
		e.Cause = err
		return e
	}
	return httperr.InternalError(err)
}

// asInput reports whether err carries a domain InputError.
func asInput(err error, target **proxy.InputError) bool {
	return err != nil && errors.As(err, target)
}
