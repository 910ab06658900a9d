package server

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// With the app's client ID and secret the proxy serves the app's
// callbacks; the secret is never printed with the configuration nor
// written to the log, and one without the other is refused.
func TestAppConfig(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	const secret = "app-secret-never-shown-7d1c"
	vars := map[string]string{
		"IDGATE_PROXY_KEY": base64.StdEncoding.EncodeToString(key), "IDGATE_PROXY_STORES": filepath.Join(t.TempDir(), "s.json"),
		"IDGATE_BC_APP_CLIENT_ID": "cid", "IDGATE_BC_APP_CLIENT_SECRET": secret,
	}
	c, err := Load(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprintf("%+v %#v", c, c); strings.Contains(s, secret) {
		t.Fatalf("the configuration prints the secret: %s", s)
	}
	var logs bytes.Buffer
	app, closeFn, err := Build(c, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	resp, err := app.Test(httptest.NewRequest("GET", "/bigcommerce/load?signed_payload_jwt=x.y.z", nil))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 401 || strings.Contains(string(body), secret) || strings.Contains(logs.String(), secret) {
		t.Errorf("load with a forged payload: %d %s; log %s", resp.StatusCode, body, logs.String())
	}
	delete(vars, "IDGATE_BC_APP_CLIENT_SECRET")
	if _, err := Load(env(vars)); err == nil || !strings.Contains(err.Error(), "IDGATE_BC_APP_CLIENT_SECRET") {
		t.Errorf("client ID without secret: %v", err)
	}
}
