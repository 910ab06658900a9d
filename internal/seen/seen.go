// Package seen remembers single-use identifiers until they expire, so that a
// second use inside their validity is refused: the storefront proxy's
// BigCommerce load payloads (their jti). Backends: memory (in-process, the
// embedded default) and redis (shared by every instance on one Redis). Both
// pass seentest.Run.
//
// Unlike internal/cache, a record here is the source of truth for its
// lifetime: a backend never drops one before it expires (the memory backend
// refuses new ones when full instead), and a caller treats an error as
// "seen", never as "new".
package seen

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrInvalidTTL is returned by Add for a TTL <= 0: every record expires.
var ErrInvalidTTL = errors.New("seen: ttl must be positive")

// Set records keys, each until its TTL runs out. Implementations are safe
// for concurrent use, and of concurrent Adds of one key exactly one reports
// it new.
type Set interface {
	// Add records key for ttl and reports true when it was not recorded
	// (or its record had expired); false, leaving the record as it was,
	// when a live record exists.
	Add(ctx context.Context, key string, ttl time.Duration) (bool, error)
}

// CheckTTL returns ErrInvalidTTL, wrapped with the key, unless ttl > 0.
func CheckTTL(key string, ttl time.Duration) error {
	if ttl <= 0 {
		return fmt.Errorf("seen add %q: %w (got %s)", key, ErrInvalidTTL, ttl)
	}
	return nil
}
