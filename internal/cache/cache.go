// Package cache defines the small byte-value cache idgate keeps short-lived
// data in, e.g. the storefront proxy's verification status, invalidated on
// webhook. Backends: memory (in-process, bounded, the embedded default) and
// redis (shared across instances). Both pass cachetest.Run.
//
// A cache is never the source of truth: callers treat any error like a miss
// and go to the store.
package cache

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned by Get for a key that is absent or expired.
var ErrNotFound = errors.New("cache: not found")

// ErrInvalidTTL is returned by Set for a TTL <= 0: every entry must expire.
var ErrInvalidTTL = errors.New("cache: ttl must be positive")

// Cache stores byte values under string keys, each with a time to live.
// Values are copied in and out, so callers may reuse their slices.
// Implementations are safe for concurrent use.
type Cache interface {
	// Get returns the value stored under key, or ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores value under key for ttl, replacing any value and TTL there.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Delete removes key; deleting an absent key is not an error.
	Delete(ctx context.Context, key string) error
}

// CheckTTL returns ErrInvalidTTL, wrapped with the key, unless ttl > 0.
func CheckTTL(key string, ttl time.Duration) error {
	if ttl <= 0 {
		return fmt.Errorf("cache set %q: %w (got %s)", key, ErrInvalidTTL, ttl)
	}
	return nil
}
