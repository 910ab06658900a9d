// Package dev is the address.Provider of `make run`: a deterministic
// stand-in that calls an address deliverable when it has a street line and
// a well-formed US ZIP or Canadian postal code, and matches no names. It
// checks nothing real, says so in the log on every answer, and refuses to
// exist outside dev (New), so production never reports its answers.
package dev

import (
	"context"
	"errors"
	"log/slog"

	"github.com/idgate/idgate/verifier/address"
)

// ErrNotDev: the dev provider was asked for outside IDGATE_ENV=dev.
var ErrNotDev = errors.New("the dev address provider only runs with IDGATE_ENV=dev: its answers are not real checks")

// Provider is the dev stand-in.
type Provider struct{ log *slog.Logger }

// New is the dev provider when env is "dev"; ErrNotDev otherwise.
func New(env string, log *slog.Logger) (*Provider, error) {
	if env != "dev" {
		return nil, ErrNotDev
	}
	if log == nil {
		log = slog.Default()
	}
	log.Warn("DEV address provider: address_verification answers are made up from the address's form, not checked")
	return &Provider{log: log}, nil
}

// Name is "dev".
func (p *Provider) Name() string { return "dev" }

// Verify answers from the address's form alone.
func (p *Provider) Verify(_ context.Context, q address.Query) (address.Result, error) {
	r := address.Result{Deliverable: address.WellFormed(q)}
	p.log.Warn("DEV address provider: not a real check", "deliverable", r.Deliverable)
	return r, nil
}
