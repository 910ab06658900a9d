package proxy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
)

// Start limits: every start uses one of the store's integration-key
// requests at the verifier (30 per hour by default), so a script hammering
// the public start endpoint must not spend them all. A shopper retrying a
// failed verification stays far below both.
var (
	DefaultStartPerIP   = ratelimit.Limit{Rate: 10, Period: time.Hour}
	DefaultStartPerCart = ratelimit.Limit{Rate: 5, Period: time.Hour}
)

// RateLimitedError is a start refused by a limit; it wraps ErrRateLimited
// and carries the limiter's result for the Retry-After headers.
type RateLimitedError struct{ Result ratelimit.Result }

// ErrRateLimited is wrapped by RateLimitedError.
var ErrRateLimited = errors.New("too many verifications started")

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("%v: retry after %s", ErrRateLimited, e.Result.RetryAfter)
}

func (e *RateLimitedError) Unwrap() error { return ErrRateLimited }

// allowStart checks the per-IP and per-cart limits. Without a Limiter
// nothing is limited. A limiter failure lets the start through: the
// verifier's own limit on the integration key still holds.
func (s *Service) allowStart(ctx context.Context, hash, clientIP, cartID string) error {
	if err := s.allow(ctx, "proxy:start:"+hash+":ip:"+clientIP, DefaultStartPerIP); err != nil {
		return err
	}
	return s.allowCart(ctx, hash, cartID)
}

// allowCart checks the per-cart limit alone: a link the merchant makes
// for an order's cart counts as a start of that cart.
func (s *Service) allowCart(ctx context.Context, hash, cartID string) error {
	return s.allow(ctx, "proxy:start:"+hash+":cart:"+cartID, DefaultStartPerCart)
}

func (s *Service) allow(ctx context.Context, key string, limit ratelimit.Limit) error {
	if s.Limiter == nil {
		return nil
	}
	r, err := s.Limiter.Allow(ctx, key, limit)
	if err == nil && !r.Allowed {
		return &RateLimitedError{Result: r}
	}
	return nil
}
