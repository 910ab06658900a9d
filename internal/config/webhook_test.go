package config

import (
	"strings"
	"testing"
)

func TestWebhookVariables(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.SecretKey != "" || c.SecretKeyFile != "./var/secret-key" || c.WebhookAllowLoopback || c.WebhookCAFile != "" {
		t.Fatalf("defaults: key %q file %q loopback %v CA file %q", c.SecretKey, c.SecretKeyFile, c.WebhookAllowLoopback, c.WebhookCAFile)
	}
	c, err = Load(env(map[string]string{"IDGATE_SECRET_KEY": " c2VjcmV0 ", "IDGATE_SECRET_KEY_FILE": "/etc/idgate/key",
		"IDGATE_WEBHOOK_ALLOW_LOOPBACK": "true", "IDGATE_WEBHOOK_CA_FILE": "var/demo-tls.crt"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.SecretKey != "c2VjcmV0" || c.SecretKeyFile != "/etc/idgate/key" || !c.WebhookAllowLoopback || c.WebhookCAFile != "var/demo-tls.crt" {
		t.Fatalf("overrides: key %q file %q loopback %v CA file %q", c.SecretKey, c.SecretKeyFile, c.WebhookAllowLoopback, c.WebhookCAFile)
	}
	if _, err := Load(env(map[string]string{"IDGATE_WEBHOOK_ALLOW_LOOPBACK": "yes please"})); err == nil ||
		!strings.Contains(err.Error(), "IDGATE_WEBHOOK_ALLOW_LOOPBACK") {
		t.Fatalf("bad switch: %v", err)
	}
}
