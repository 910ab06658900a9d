package main

import (
	"fmt"
	"log/slog"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/address/dev"
	"github.com/idgate/idgate/verifier/address/lob"
)

// addressProvider is the provider of address_verification by
// IDGATE_ADDRESS_PROVIDER: nil for none (address_verification is then
// absent from results), Lob with its key, or the dev stand-in, which
// dev.New refuses outside IDGATE_ENV=dev so production never reports
// made-up answers.
func addressProvider(cfg config.Config, log *slog.Logger) (address.Provider, error) {
	switch name := cfg.AddressProviderName(); name {
	case "none":
		log.Info("address verification off: no address provider (IDGATE_ADDRESS_PROVIDER)")
		return nil, nil
	case "lob":
		c, err := lob.New(lob.Config{APIKey: cfg.LobAPIKey})
		if err != nil {
			return nil, fmt.Errorf("IDGATE_ADDRESS_PROVIDER=lob: %w (set IDGATE_LOB_API_KEY)", err)
		}
		return c, nil
	case "dev":
		p, err := dev.New(cfg.Env, log)
		if err != nil {
			return nil, fmt.Errorf("IDGATE_ADDRESS_PROVIDER=dev: %w", err)
		}
		return p, nil
	default:
		return nil, fmt.Errorf("IDGATE_ADDRESS_PROVIDER=%q: want lob, dev or none", name)
	}
}
