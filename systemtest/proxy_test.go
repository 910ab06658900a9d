package systemtest

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// proxyHash is the storefront the proxy serves in these tests.
const proxyHash = "sys0test"

// startProxy configures one storefront with `idgate store add` and runs
// `idgate store serve` for it, creating verifications through verifierURL
// (the balancer) with integrationKey; it returns the proxy's base URL.
func startProxy(t *testing.T, verifierURL, redisURL, integrationKey, webhookSecret, origin string) string {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	stores := filepath.Join(t.TempDir(), "stores.json")
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t)) // store serve listens on a fixed address: take a free one
	env := append(os.Environ(),
		"IDGATE_PROXY_KEY="+base64.StdEncoding.EncodeToString(key),
		"IDGATE_PROXY_STORES="+stores,
		"IDGATE_PROXY_ADDR="+addr,
		// The verifier delivers only over https; nothing completes the
		// proxy's verifications here, so the target is never called.
		"IDGATE_PROXY_PUBLIC_URL=https://shop-proxy.example.com",
		"IDGATE_VERIFIER_URL="+verifierURL,
		"IDGATE_REDIS_URL="+redisURL,
	)
	add := exec.Command(binary, "store", "add", "--hash", proxyHash, "--integration-key", integrationKey,
		"--origins", origin, "--client-id", "system-test-app", "--api-base-url", "http://127.0.0.1:9/stores/{store_hash}/")
	add.Env = env
	secrets, _ := json.Marshal(map[string]string{"access_token": "unused-token", "app_client_secret": "unused-client-secret", "webhook_secret": webhookSecret})
	add.Stdin = bytes.NewReader(secrets)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("idgate store add: %v\n%s", err, out)
	}
	serve := exec.Command(binary, "store", "serve")
	serve.Env = env
	log := &testkit.LogBuffer{}
	serve.Stdout, serve.Stderr = log, log
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { serve.Wait(); close(done) }()
	p := &instance{name: "proxy", cmd: serve, log: log, done: done, url: "http://" + addr}
	t.Cleanup(p.stop)
	for deadline := time.Now().Add(15 * time.Second); ; {
		if resp, err := http.Get(p.url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p.url
			}
		}
		select {
		case <-done:
			t.Fatalf("idgate store serve exited: %s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("idgate store serve did not answer /healthz: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startThroughProxy is the footer widget's start request for a guest cart.
func startThroughProxy(t *testing.T, proxyURL, origin, cartID string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", proxyURL+"/proxy/v1/stores/"+proxyHash+"/verifications", strings.NewReader(`{"cart_id":"`+cartID+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", origin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("start through the proxy: %v", err)
	}
	var out struct {
		ID string `json:"id"`
	}
	b := readAll(resp.Body)
	if resp.StatusCode == http.StatusCreated {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("start answer %s: %v", b, err)
		}
	} else {
		t.Logf("start through the proxy: %d %s", resp.StatusCode, b)
	}
	return resp.StatusCode, out.ID
}
