// Package dev is the phone.Provider of `make run`: it sends nothing and
// writes each code to the log, so a developer can finish the phone step
// without an SMS account. It is also the demo's address.SubscriberMatcher,
// answering from the number's last digit (MatchSubscriber). It refuses to
// exist outside dev (New), so a production server can never verify a
// phone, or report names at an address, with it.
package dev

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone"
)

// ErrNotDev: the dev provider was asked for outside IDGATE_ENV=dev.
var ErrNotDev = errors.New("the dev phone provider only runs with IDGATE_ENV=dev: it writes codes to the log instead of sending them")

// Provider logs codes instead of sending them. Its lookup is what the
// numbering plan says (the line type where the plan tells; no caller or
// carrier name).
type Provider struct {
	log  *slog.Logger
	sent atomic.Int64
}

// New is the dev provider when env is "dev"; ErrNotDev otherwise.
func New(env string, log *slog.Logger) (*Provider, error) {
	if env != "dev" {
		return nil, ErrNotDev
	}
	if log == nil {
		log = slog.Default()
	}
	log.Warn("DEV phone provider: one-time codes are written to this log, never sent by SMS")
	return &Provider{log: log}, nil
}

// Name is "dev".
func (p *Provider) Name() string { return "dev" }

// Lookup answers from the numbering plan alone.
func (p *Provider) Lookup(_ context.Context, n phone.Number) (phone.Lookup, error) {
	t := n.Type
	if t == "" {
		t = phone.LineUnknown
	}
	return phone.Lookup{LineType: t}, nil
}

// Send writes the code to the log, labelled as the dev provider's.
func (p *Provider) Send(_ context.Context, n phone.Number, code, locale string) (string, error) {
	ref := fmt.Sprintf("dev-%d", p.sent.Add(1))
	p.log.Warn("DEV phone provider: SMS not sent; enter this code on the page",
		"to", n.Masked(), "code", code, "locale", locale, "ref", ref)
	return ref, nil
}

// Confirm logs the confirmation.
func (p *Provider) Confirm(_ context.Context, ref string) error {
	p.log.Info("DEV phone provider: code confirmed", "ref", ref)
	return nil
}

// MatchSubscriber is the demo's stand-in for a subscriber record, by the
// last digit of the verified number: 0 to 6, the license's own name at its
// address (name_at_address true); 7, a household member (the last name
// only: last_name_at_address true); 8, the record at another address
// (both false); 9, no record (both null). Nothing is looked up; the log
// says so on every answer and never carries the name or the address.
func (p *Provider) MatchSubscriber(_ context.Context, e164 string, _ address.Query) (address.SubscriberMatch, error) {
	e, n := address.LevelExact, address.LevelNoMatch
	m := address.SubscriberMatch{FirstName: e, LastName: e, AddressLine: e, City: e, State: e, PostalCode: e}
	last := ""
	if e164 != "" {
		last = e164[len(e164)-1:]
	}
	switch last {
	case "7":
		m.FirstName = n
	case "8":
		m.AddressLine, m.City, m.PostalCode = n, n, n
	case "9":
		d := address.LevelNoData
		m = address.SubscriberMatch{FirstName: d, LastName: d, AddressLine: d, City: d, State: d, PostalCode: d}
	}
	p.log.Warn("DEV phone provider: subscriber record made up from the number's last digit, not looked up", "last_digit", last)
	return m, nil
}
