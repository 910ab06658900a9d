package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone"
	"github.com/idgate/idgate/verifier/phone/dev"
	"github.com/idgate/idgate/verifier/phone/twilio"
)

// phoneProvider is the provider of the flow's phone step by
// IDGATE_PHONE_PROVIDER: nil for none (phone_verification is then absent
// from results), Twilio with its settings, or the dev provider, which
// dev.New refuses outside IDGATE_ENV=dev so production never logs codes
// instead of sending them.
func phoneProvider(cfg config.Config, log *slog.Logger) (phone.Provider, error) {
	switch name := cfg.PhoneProviderName(); name {
	case "none":
		log.Info("phone verification off: no phone provider (IDGATE_PHONE_PROVIDER)")
		return nil, nil
	case "twilio":
		c, err := twilio.New(twilio.Config{AccountSID: cfg.TwilioAccountSID, AuthToken: cfg.TwilioAuthToken,
			VerifyServiceSID: cfg.TwilioVerifySID})
		if err != nil {
			return nil, fmt.Errorf("IDGATE_PHONE_PROVIDER=twilio: %w (set IDGATE_TWILIO_ACCOUNT_SID, IDGATE_TWILIO_AUTH_TOKEN, IDGATE_TWILIO_VERIFY_SERVICE_SID)", err)
		}
		return c, nil
	case "dev":
		p, err := dev.New(cfg.Env, log)
		if err != nil {
			return nil, fmt.Errorf("IDGATE_PHONE_PROVIDER=dev: %w", err)
		}
		return p, nil
	default:
		return nil, fmt.Errorf("IDGATE_PHONE_PROVIDER=%q: want twilio, dev or none", name)
	}
}

// subscriberMatcher is where name_at_address and last_name_at_address come
// from when the address provider matches no names: the phone provider's
// subscriber records of the verified number — Twilio's Identity Match only
// when IDGATE_TWILIO_IDENTITY_MATCH says so (it sends the license's name
// and address to Twilio and is billed), the dev provider's made-up records
// always (dev only). nil leaves the names null.
func subscriberMatcher(cfg config.Config, ph phone.Provider, log *slog.Logger) (address.SubscriberMatcher, error) {
	name := cfg.PhoneProviderName()
	if cfg.TwilioIdentityMatch && name != "twilio" {
		return nil, errors.New("IDGATE_TWILIO_IDENTITY_MATCH=true needs IDGATE_PHONE_PROVIDER=twilio")
	}
	m, ok := ph.(address.SubscriberMatcher)
	if !ok || (name == "twilio" && !cfg.TwilioIdentityMatch) {
		return nil, nil
	}
	log.Info("names at the address from the verified number's subscriber record", "source", m.Name())
	return m, nil
}
