package bigcommerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Sentinels callers branch on; an *APIError matches the one for its status.
var (
	ErrNotFound     = errors.New("bigcommerce: not found")
	ErrUnauthorized = errors.New("bigcommerce: unauthorized")
	ErrConflict     = errors.New("bigcommerce: conflict")
	ErrRateLimited  = errors.New("bigcommerce: rate limited")
	ErrInvalidInput = errors.New("bigcommerce: invalid input")
)

// APIError is a non-2xx answer after retries. Title is the platform's
// error title, truncated; the request (and so the token) is never part of it.
type APIError struct {
	Op     string
	Status int
	Title  string
}

func (e *APIError) Error() string {
	if e.Title == "" {
		return fmt.Sprintf("%s: bigcommerce answered %d", e.Op, e.Status)
	}
	return fmt.Sprintf("%s: bigcommerce answered %d: %s", e.Op, e.Status, e.Title)
}

// Is maps statuses to the sentinels.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrConflict:
		return e.Status == http.StatusConflict
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrInvalidInput:
		return e.Status == http.StatusBadRequest || e.Status == http.StatusUnprocessableEntity
	}
	return false
}

const maxTitle = 200

func newAPIError(op string, status int, body []byte) *APIError {
	var b struct {
		Title string `json:"title"`
	}
	_ = json.Unmarshal(body, &b) // the title is a courtesy; its absence is fine
	title := []rune(b.Title)
	if len(title) > maxTitle {
		title = append(title[:maxTitle], '…')
	}
	return &APIError{Op: op, Status: status, Title: string(title)}
}
