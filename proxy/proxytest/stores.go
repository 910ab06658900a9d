package proxytest

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/proxy"
)

// Stores is an in-memory proxy.Stores.
type Stores map[string]*proxy.Store

// Store implements proxy.Stores.
func (s Stores) Store(_ context.Context, hash string) (*proxy.Store, error) {
	st, ok := s[hash]
	if !ok {
		return nil, fmt.Errorf("store %q: %w", hash, proxy.ErrUnknownStore)
	}
	return st, nil
}
