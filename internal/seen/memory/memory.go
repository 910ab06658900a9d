// Package memory is the in-process seen.Set: a map of expiries bounded by a
// count of live records.
package memory

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/idgate/idgate/internal/seen"
)

// DefaultMaxKeys bounds the live records (about 100 bytes each). The proxy
// records one per control panel load of the app, a day each: a million is
// far above what a person opening the app makes.
const DefaultMaxKeys = 1 << 20

// ErrFull is returned by Add when MaxKeys live records are held: dropping
// one before it expires would let it be used again, so a new key is
// refused instead (the caller refuses what it guards).
var ErrFull = errors.New("seen: full")

// Set is safe for concurrent use.
type Set struct {
	now     func() time.Time
	maxKeys int

	mu      sync.Mutex
	expires map[string]time.Time
}

// New returns an empty Set reading the time from now (time.Now if nil) and
// holding at most maxKeys live records (DefaultMaxKeys if < 1).
func New(now func() time.Time, maxKeys int) *Set {
	if now == nil {
		now = time.Now
	}
	if maxKeys < 1 {
		maxKeys = DefaultMaxKeys
	}
	return &Set{now: now, maxKeys: maxKeys, expires: map[string]time.Time{}}
}

// Add implements seen.Set.
func (s *Set) Add(_ context.Context, key string, ttl time.Duration) (bool, error) {
	if err := seen.CheckTTL(key, ttl); err != nil {
		return false, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if exp, ok := s.expires[key]; ok && now.Before(exp) {
		return false, nil
	}
	if len(s.expires) >= s.maxKeys {
		s.sweep(now)
		if len(s.expires) >= s.maxKeys {
			return false, fmt.Errorf("seen add %q: %w (%d live records)", key, ErrFull, len(s.expires))
		}
	}
	s.expires[key] = now.Add(ttl)
	return true, nil
}

// sweep drops expired records; it runs only when the set is full, so its
// cost is paid once per maxKeys adds at most.
func (s *Set) sweep(now time.Time) {
	for k, exp := range s.expires {
		if !now.Before(exp) {
			delete(s.expires, k)
		}
	}
}
