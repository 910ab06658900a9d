package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/proxytest"
)

// demoVerifier prepares an account on the real verifier at base for the
// demo store, in test mode (docs/test-mode.md): signs in for a test-mode token,
// makes the account's test integration key whose allowlist is the
// storefront's host:port, and rotates the webhook secret (shown once) so
// the proxy can check the verifier's signatures. The demo's verifications
// are test ones: the link opens the test page, where a newcomer picks
// "verified" without a camera or a license.
func demoVerifier(ctx context.Context, base, email, passwordFile, storefront string) (*proxytest.RealVerifier, error) {
	pw, err := os.ReadFile(passwordFile)
	if err != nil {
		return nil, fmt.Errorf("demo verifier password: %w", err)
	}
	u, err := url.Parse(storefront)
	if err != nil {
		return nil, err
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	signIn, _ := json.Marshal(map[string]string{"email": email, "password": strings.TrimSpace(string(pw)), "mode": "test"})
	if err := demoCall(ctx, base+"/auth", "", signIn, &tok); err != nil {
		return nil, fmt.Errorf("sign in to the verifier as %s: %w", email, err)
	}
	var key struct {
		Key string `json:"key"`
	}
	allow, _ := json.Marshal(map[string]any{"allowed_domains": []string{u.Host}})
	if err := demoCall(ctx, base+"/integration-key", tok.AccessToken, allow, &key); err != nil {
		return nil, fmt.Errorf("integration key: %w", err)
	}
	var sec struct {
		Secret string `json:"secret"`
	}
	if err := demoCall(ctx, base+"/webhook-secret", tok.AccessToken, nil, &sec); err != nil {
		return nil, fmt.Errorf("webhook secret: %w", err)
	}
	return &proxytest.RealVerifier{URL: base, IntegrationKey: key.Key, WebhookSecret: sec.Secret, TestMode: true}, nil
}

// demoCall POSTs body (JSON, or nothing) with an optional bearer token and
// decodes a 2xx answer into out.
func demoCall(ctx context.Context, url, bearer string, body []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %d: %s", url, resp.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

// serveWebhookTLS forwards https requests on ln to the proxy at target:
// the verifier delivers results only over https, and the demo proxy
// speaks plain http to the browser.
func serveWebhookTLS(ln net.Listener, certFile, keyFile, target string) (*http.Server, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("webhook TLS certificate: %w", err)
	}
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: httputil.NewSingleHostReverseProxy(u), ReadHeaderTimeout: 5 * time.Second,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	return srv, nil
}

// demoApp reserves the address of the store that installs the BigCommerce
// app and says where the app keeps installed stores: a directory of this
// run (the control panel double's state lives in memory, so an install
// must not outlive it).
func demoApp(addr string) (net.Listener, *proxytest.AppOptions, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "idgate-demo-app-")
	if err != nil {
		ln.Close()
		return nil, nil, err
	}
	return ln, &proxytest.AppOptions{
		Hash: "demoapp1", StorefrontURL: "http://" + ln.Addr().String(), StoreFile: filepath.Join(dir, "stores.json"),
		Owner: bigcommerce.AppUser{ID: 1, Email: "owner@demo-store.example"},
	}, nil
}
