package main

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/address/dev"
)

// The dev address provider (made-up answers) is never selected in
// production: not by default, and not when asked for.
func TestAddressProviderSelection(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if p, err := addressProvider(envConfig(t, nil), log); p != nil || err != nil {
		t.Errorf("production default: %v, %v; want none", p, err)
	}
	if p, err := addressProvider(envConfig(t, map[string]string{"IDGATE_ADDRESS_PROVIDER": "dev"}), log); p != nil || !errors.Is(err, dev.ErrNotDev) {
		t.Errorf("dev provider in production: %v, %v; want refused", p, err)
	}
	if p, err := addressProvider(envConfig(t, map[string]string{"IDGATE_ENV": "dev"}), log); err != nil || p == nil || p.Name() != "dev" {
		t.Errorf("dev default: %v, %v", p, err)
	}
	if _, err := addressProvider(envConfig(t, map[string]string{"IDGATE_ADDRESS_PROVIDER": "lob"}), log); err == nil {
		t.Error("lob without a key starts")
	}
	p, err := addressProvider(envConfig(t, map[string]string{"IDGATE_ADDRESS_PROVIDER": "lob", "IDGATE_LOB_API_KEY": "live_secret"}), log)
	if err != nil || p.Name() != "lob" {
		t.Errorf("lob: %v, %v", p, err)
	}
	if _, err := config.Load(func(k string) string { return map[string]string{"IDGATE_ADDRESS_PROVIDER": "usps"}[k] }); err == nil || !strings.Contains(err.Error(), "IDGATE_ADDRESS_PROVIDER") {
		t.Errorf("an unknown provider: %v", err)
	}
}
