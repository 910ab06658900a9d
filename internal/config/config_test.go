package config

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.Env != EnvProduction || c.Dev() || c.RedisURL != "" {
		t.Fatalf("defaults: %+v", c)
	}
	if c.DatabaseURL != "sqlite:./var/idgate.db" || c.TokenTTL != time.Hour || c.BodyLimit != 1<<20 {
		t.Fatalf("defaults: %+v", c)
	}
	if c.PublicURL != "" || c.LogLevel != slog.LevelInfo || c.ShutdownTimeout != 15*time.Second {
		t.Fatalf("defaults: %+v", c)
	}
	if c.PIIRetention != 30*24*time.Hour {
		t.Fatalf("PII retention %v, want 30 days", c.PIIRetention)
	}
	// 0 switches the scheduled purge off.
	if c, err := Load(env(map[string]string{"IDGATE_PII_RETENTION": "0"})); err != nil || c.PIIRetention != 0 {
		t.Fatalf("IDGATE_PII_RETENTION=0: %v, %v", c.PIIRetention, err)
	}
}

func TestOverrides(t *testing.T) {
	c, err := Load(env(map[string]string{
		"IDGATE_ENV":             "dev",
		"IDGATE_ADDR":            "0.0.0.0:9000",
		"IDGATE_DATABASE_URL":    "postgres://db/idgate",
		"IDGATE_REDIS_URL":       "redis://127.0.0.1:6379/0",
		"IDGATE_PUBLIC_URL":      "https://id.example.com/",
		"IDGATE_TOKEN_TTL":       "15m",
		"IDGATE_BODY_LIMIT":      "2048",
		"IDGATE_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1",
		"IDGATE_LOG_LEVEL":       "debug",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Dev() || c.Addr != "0.0.0.0:9000" || c.DatabaseURL != "postgres://db/idgate" || c.RedisURL == "" {
		t.Fatalf("%+v", c)
	}
	if c.PublicURL != "https://id.example.com" || c.TokenTTL != 15*time.Minute || c.BodyLimit != 2048 {
		t.Fatalf("%+v", c)
	}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[1] != "192.0.2.1" || c.LogLevel != slog.LevelDebug {
		t.Fatalf("%+v", c)
	}
}

func TestInvalidValuesNameTheirVariable(t *testing.T) {
	bad := map[string]string{
		"IDGATE_ADDR":             "no-port",
		"IDGATE_ENV":              "staging",
		"IDGATE_REDIS_URL":        "http://x",
		"IDGATE_PUBLIC_URL":       "ftp://x",
		"IDGATE_TOKEN_TTL":        "-1s",
		"IDGATE_BODY_LIMIT":       "0",
		"IDGATE_SHUTDOWN_TIMEOUT": "soon",
		"IDGATE_TRUSTED_PROXIES":  "not-an-ip",
		"IDGATE_LOG_LEVEL":        "chatty",
		"IDGATE_PII_RETENTION":    "-1h",
	}
	for name, value := range bad {
		_, err := Load(env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%q: err %v", name, value, err)
		}
	}
	_, err := Load(env(bad))
	for name := range bad {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("combined error misses %s: %v", name, err)
		}
	}
}

func TestVarsTableIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars() {
		if !strings.HasPrefix(v.Name, "IDGATE_") || v.Meaning == "" || seen[v.Name] {
			t.Errorf("bad or duplicate entry %+v", v)
		}
		seen[v.Name] = true
	}
	for _, want := range []string{"IDGATE_ADDR", "IDGATE_DATABASE_URL", "IDGATE_REDIS_URL", "IDGATE_ENV", "IDGATE_PUBLIC_URL", "IDGATE_JWT_KEYS", "IDGATE_TOKEN_TTL", "IDGATE_BODY_LIMIT", "IDGATE_SHUTDOWN_TIMEOUT"} {
		if !seen[want] {
			t.Errorf("missing %s", want)
		}
	}
}
