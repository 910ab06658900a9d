package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// newFlow wires the end-user flow for serve: the engines (models loaded
// once, a worker per core, the process under their memory limit unless
// GOMEMLIMIT sets one), the store's session persistence, sessions and
// review images sealed under the server key, the phone and address
// providers and the source of names at the address, IP intelligence (nil
// when no IP data is installed).
func newFlow(cfg config.Config, store *sqlstore.DB, log *slog.Logger, ip flow.IPIntel) (*flow.Flow, error) {
	sealer, err := serverSealer(cfg)
	if err != nil {
		return nil, err
	}
	eng, err := engines.Load(engines.Config{ModelsDir: cfg.ModelsDir})
	if err != nil {
		return nil, fmt.Errorf("end-user flow: %w", err)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(eng.MemoryLimit())
	}
	ph, err := phoneProvider(cfg, log)
	if err != nil {
		return nil, err
	}
	addr, err := addressProvider(cfg, log)
	if err != nil {
		return nil, err
	}
	subs, err := subscriberMatcher(cfg, ph, log)
	if err != nil {
		return nil, err
	}
	return &flow.Flow{Engines: eng, Store: store, Verifications: store, Sealer: flow.SealWith(sealer),
		Now: time.Now, Limits: flow.DefaultLimits, Phone: ph, Address: addr, Subscribers: subs, Log: log, IP: ip}, nil
}
