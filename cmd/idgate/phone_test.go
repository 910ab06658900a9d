package main

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/verifier/phone/dev"
)

// The dev provider (codes in the log) is never selected in production:
// not by default, and not when asked for.
func TestPhoneProviderSelection(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	if p, err := phoneProvider(envConfig(t, nil), log); p != nil || err != nil {
		t.Errorf("production default: %v, %v; want none", p, err)
	}
	if p, err := phoneProvider(envConfig(t, map[string]string{"IDGATE_PHONE_PROVIDER": "dev"}), log); p != nil || !errors.Is(err, dev.ErrNotDev) {
		t.Errorf("dev provider in production: %v, %v; want refused", p, err)
	}
	if p, err := phoneProvider(envConfig(t, map[string]string{"IDGATE_ENV": "dev"}), log); err != nil || p == nil || p.Name() != "dev" {
		t.Errorf("dev default: %v, %v", p, err)
	}
	if p, err := phoneProvider(envConfig(t, map[string]string{"IDGATE_ENV": "dev", "IDGATE_PHONE_PROVIDER": "none"}), log); p != nil || err != nil {
		t.Errorf("none in dev: %v, %v", p, err)
	}
	_, err := phoneProvider(envConfig(t, map[string]string{"IDGATE_PHONE_PROVIDER": "twilio", "IDGATE_TWILIO_AUTH_TOKEN": "s3cret"}), log)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("twilio without its settings: %v", err)
	}
	p, err := phoneProvider(envConfig(t, map[string]string{"IDGATE_PHONE_PROVIDER": "twilio", "IDGATE_TWILIO_ACCOUNT_SID": "AC" + strings.Repeat("a", 32),
		"IDGATE_TWILIO_AUTH_TOKEN": "s3cret", "IDGATE_TWILIO_VERIFY_SERVICE_SID": "VA" + strings.Repeat("b", 32)}), log)
	if err != nil || p.Name() != "twilio" {
		t.Errorf("twilio: %v, %v", p, err)
	}
	if _, err := config.Load(func(k string) string {
		return map[string]string{"IDGATE_PHONE_PROVIDER": "sms"}[k]
	}); err == nil {
		t.Error("an unknown provider name loads")
	}
}

// envConfig is the configuration the environment env gives.
func envConfig(t *testing.T, env map[string]string) config.Config {
	t.Helper()
	c, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The names at the address come from the phone provider's subscriber
// records: Twilio's only when asked for, the dev provider's in dev; asking
// for Identity Match without Twilio is refused.
func TestSubscriberMatcherSelection(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	twilioEnv := map[string]string{"IDGATE_PHONE_PROVIDER": "twilio", "IDGATE_TWILIO_ACCOUNT_SID": "AC" + strings.Repeat("a", 32),
		"IDGATE_TWILIO_AUTH_TOKEN": "s3cret", "IDGATE_TWILIO_VERIFY_SERVICE_SID": "VA" + strings.Repeat("b", 32)}
	pick := func(env map[string]string) (string, error) {
		t.Helper()
		cfg := envConfig(t, env)
		ph, err := phoneProvider(cfg, log)
		if err != nil {
			t.Fatal(err)
		}
		m, err := subscriberMatcher(cfg, ph, log)
		if m == nil {
			return "", err
		}
		return m.Name(), err
	}
	if name, err := pick(twilioEnv); name != "" || err != nil {
		t.Errorf("twilio by default: %q %v; want none (Identity Match is opt-in)", name, err)
	}
	twilioEnv["IDGATE_TWILIO_IDENTITY_MATCH"] = "true"
	if name, err := pick(twilioEnv); name != "twilio" || err != nil {
		t.Errorf("twilio with Identity Match: %q %v", name, err)
	}
	if name, err := pick(map[string]string{"IDGATE_ENV": "dev"}); name != "dev" || err != nil {
		t.Errorf("dev: %q %v", name, err)
	}
	if name, err := pick(nil); name != "" || err != nil {
		t.Errorf("production without a phone provider: %q %v", name, err)
	}
	if _, err := pick(map[string]string{"IDGATE_ENV": "dev", "IDGATE_TWILIO_IDENTITY_MATCH": "true"}); err == nil {
		t.Error("Identity Match without Twilio accepted")
	}
}
