package main

import (
	"fmt"
	"log/slog"

	"github.com/idgate/idgate/internal/config"
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
