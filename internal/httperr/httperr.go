// Package httperr is the one error body of every idgate HTTP API:
//
//	{"error":{"code":"VALIDATION_FAILED","message":"...","details":[{"field":"webhook_url","code":"must_be_https","message":"..."}]}}
//
// Codes map to statuses in exactly one table (statusOf). Details
// (internal/problem, the one field-error type of domain and API) appear only
// on validation errors; QUOTA_EXCEEDED also carries "verification_type".
// Internal causes are logged with the request's logger and never sent.
package httperr

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/secheaders"
)

// Code is the stable, machine-readable error code of the public API.
type Code string

// The public error codes. Adding one means adding it to statusOf too.
const (
	BadRequest           Code = "BAD_REQUEST"
	MalformedJSON        Code = "MALFORMED_JSON"
	ValidationFailed     Code = "VALIDATION_FAILED"
	Unauthenticated      Code = "UNAUTHENTICATED"
	QuotaExceeded        Code = "QUOTA_EXCEEDED"
	Forbidden            Code = "FORBIDDEN"
	OriginNotAllowed     Code = "ORIGIN_NOT_ALLOWED"
	NotFound             Code = "NOT_FOUND"
	MethodNotAllowed     Code = "METHOD_NOT_ALLOWED"
	RequestTimeout       Code = "REQUEST_TIMEOUT"
	Conflict             Code = "CONFLICT"
	Gone                 Code = "GONE"
	PayloadTooLarge      Code = "PAYLOAD_TOO_LARGE"
	UnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE"
	RateLimited          Code = "RATE_LIMITED"
	Internal             Code = "INTERNAL"
	Unavailable          Code = "UNAVAILABLE"
)

// statusOf is the single code → HTTP status table. VALIDATION_FAILED is 422:
// the JSON was well-formed (else MALFORMED_JSON, 400) but its content breaks
// a rule, which lets clients tell "fix your encoder" from "fix your data".
var statusOf = map[Code]int{
	BadRequest:           http.StatusBadRequest,
	MalformedJSON:        http.StatusBadRequest,
	ValidationFailed:     http.StatusUnprocessableEntity,
	Unauthenticated:      http.StatusUnauthorized,
	QuotaExceeded:        http.StatusPaymentRequired,
	Forbidden:            http.StatusForbidden,
	OriginNotAllowed:     http.StatusForbidden,
	NotFound:             http.StatusNotFound,
	MethodNotAllowed:     http.StatusMethodNotAllowed,
	RequestTimeout:       http.StatusRequestTimeout,
	Conflict:             http.StatusConflict,
	Gone:                 http.StatusGone,
	PayloadTooLarge:      http.StatusRequestEntityTooLarge,
	UnsupportedMediaType: http.StatusUnsupportedMediaType,
	RateLimited:          http.StatusTooManyRequests,
	Internal:             http.StatusInternalServerError,
	Unavailable:          http.StatusServiceUnavailable,
}

// Codes returns every code with its status, for documentation and tests.
func Codes() map[Code]int {
	out := make(map[Code]int, len(statusOf))
	for c, s := range statusOf {
		out[c] = s
	}
	return out
}

// Error is an API error. Build it with New or Validation so Status always
// agrees with the table.
type Error struct {
	Status  int
	Code    Code
	Message string
	Details []problem.Detail
	// VerificationType is the allowance that ran out (QUOTA_EXCEEDED only).
	VerificationType string
	// Headers are sent with the error (Retry-After, RateLimit-*).
	Headers map[string]string
	// Cause is logged for 5xx responses and never sent to the client.
	Cause error
}

// New returns an error with code's status from the table.
func New(code Code, message string) *Error {
	status, ok := statusOf[code]
	if !ok {
		panic(fmt.Sprintf("httperr: code %q missing from the status table", code))
	}
	return &Error{Status: status, Code: code, Message: message}
}

// MaxDetails bounds the details of one answer, so a request with a
// thousand bad items cannot make the server write a thousand-fold answer;
// the last kept detail says how many were left out.
const MaxDetails = 50

// Validation returns a VALIDATION_FAILED error listing every issue (at
// most MaxDetails).
func Validation(details ...problem.Detail) *Error {
	e := New(ValidationFailed, "the request is invalid; see details")
	if len(details) > MaxDetails {
		left := len(details) - (MaxDetails - 1)
		details = append(details[:MaxDetails-1:MaxDetails-1], problem.Detail{Field: "body", Code: "more_details",
			Message: fmt.Sprintf("%d more problems not listed; fix these first", left)})
	}
	e.Details = details
	return e
}

// InternalError hides cause behind a generic message.
func InternalError(cause error) *Error {
	e := New(Internal, "internal error")
	e.Cause = cause
	return e
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// Body is the JSON shape of every error response.
type Body struct {
	Error BodyError `json:"error"`
}

// BodyError is the member of Body.
type BodyError struct {
	Code             Code             `json:"code"`
	Message          string           `json:"message"`
	Details          []problem.Detail `json:"details,omitempty"`
	VerificationType string           `json:"verification_type,omitempty"`
}

// fromFiber maps fiber's own errors (unknown route, oversize body, unreadable
// request) onto the table; statuses we do not list become BAD_REQUEST or
// INTERNAL so the body format never varies.
func fromFiber(fe *fiber.Error) *Error {
	switch fe.Code {
	case http.StatusNotFound:
		return New(NotFound, "no such endpoint")
	case http.StatusMethodNotAllowed:
		return New(MethodNotAllowed, "method not allowed on this endpoint")
	case http.StatusRequestEntityTooLarge:
		return New(PayloadTooLarge, "request body too large")
	case http.StatusUnsupportedMediaType:
		return New(UnsupportedMediaType, "unsupported content type")
	case http.StatusRequestTimeout:
		// The server's read timeout ran out before a whole request came,
		// most often on a connection a browser opened ahead of need and
		// left unused. fasthttp writes this answer on that connection
		// before closing it, and a browser that sends its request there
		// just then reads it: on 408 from a reused or preconnected socket
		// (and not on 400) Chromium sends the request again on a new
		// connection (net/http/http_network_transaction.cc). As
		// BAD_REQUEST the end user would see this body instead of the page.
		return New(RequestTimeout, "no whole request came in time; send it again")
	}
	if fe.Code >= 400 && fe.Code < 500 {
		return New(BadRequest, "the request could not be read")
	}
	return InternalError(fe)
}

// From turns any error into an *Error: *Error as is, fiber errors through
// the table, anything else INTERNAL with the original kept as Cause.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fromFiber(fe)
	}
	return InternalError(err)
}

// Respond writes err in the error format, logging the cause of 5xx errors
// on log (which carries the request ID).
func Respond(c *fiber.Ctx, err error, log *slog.Logger) error {
	e := From(err)
	if e.Status >= 500 {
		log.Error("request failed", "code", e.Code, "err", err)
	}
	secheaders.Set(c) // errors raised before any middleware ran carry them too
	for k, v := range e.Headers {
		c.Set(k, v)
	}
	body := Body{Error: BodyError{Code: e.Code, Message: e.Message, Details: e.Details, VerificationType: e.VerificationType}}
	return c.Status(e.Status).JSON(body)
}

// ErrorHandler is a fiber.Config.ErrorHandler answering in the error format.
// loggerFor returns the request-scoped logger.
func ErrorHandler(loggerFor func(*fiber.Ctx) *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		return Respond(c, err, loggerFor(c))
	}
}
