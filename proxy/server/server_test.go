package server

import (
	"crypto/rand"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/storefile"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoad(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	k := base64.StdEncoding.EncodeToString(key)
	c, err := Load(env(map[string]string{"IDGATE_PROXY_KEY": k}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8081" || c.PublicURL != "http://127.0.0.1:8081" || c.CacheTTL != 30*time.Second || c.Stores != "./var/proxy-stores.json" {
		t.Fatalf("defaults: %+v", c)
	}
	_, err = Load(env(map[string]string{"IDGATE_PROXY_ADDR": "nope", "IDGATE_PROXY_PUBLIC_URL": "ftp://x", "IDGATE_PROXY_CACHE_TTL": "-1s", "IDGATE_TRUSTED_PROXIES": "10.0.0.0/8,lb"}))
	for _, name := range []string{"IDGATE_PROXY_ADDR", "IDGATE_PROXY_PUBLIC_URL", "IDGATE_PROXY_KEY", "IDGATE_PROXY_CACHE_TTL", "IDGATE_TRUSTED_PROXIES"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("error %v does not name %s", err, name)
		}
	}
}

// Build serves the stores of the file, with the Redis cache when asked.
func TestBuildServesConfiguredStore(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	sealer, _ := seal.New(key)
	file := filepath.Join(t.TempDir(), "stores.json")
	st := &proxy.Store{Hash: "abc", AccessToken: "t", AppClientID: "c", AppClientSecret: "s", IntegrationKey: "k",
		WebhookSecret: "w", WebhookHeaderValue: "h", AllowedOrigins: []string{"https://shop.example"}}
	if err := storefile.Put(file, sealer, st); err != nil {
		t.Fatal(err)
	}
	client, _ := testkit.Redis(t)
	redisURL := "redis://" + client.Options().Addr
	c, err := Load(env(map[string]string{"IDGATE_PROXY_KEY": base64.StdEncoding.EncodeToString(key), "IDGATE_PROXY_STORES": file, "IDGATE_REDIS_URL": redisURL}))
	if err != nil {
		t.Fatal(err)
	}
	app, closeFn, err := Build(c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	req := httptest.NewRequest("OPTIONS", "/proxy/v1/stores/abc/status", nil)
	req.Header.Set("Origin", "https://shop.example")
	resp, err := app.Test(req)
	if err != nil || resp.StatusCode != 204 {
		t.Fatalf("preflight for the configured store: %v %v", resp, err)
	}
	req = httptest.NewRequest("OPTIONS", "/proxy/v1/stores/zzz/status", nil)
	req.Header.Set("Origin", "https://shop.example")
	if resp, err := app.Test(req); err != nil || resp.StatusCode != 404 {
		t.Fatalf("unknown store: %v %v", resp, err)
	}
}
