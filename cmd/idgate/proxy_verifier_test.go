package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/verifierapi"
)

// The proxy starts verifications with its own client against the real
// verifier: the publishable key with the shopper's Origin, the sealed
// 73-character cart reference as external_id, and the proxy's webhook
// target and authenticating header. Until now only a stand-in verifier had
// answered that client.
func TestProxyCreatesOnTheRealVerifier(t *testing.T) {
	inTempDir(t)
	base, lines, stop := startServe(t)
	defer stop()
	var demoPassword string
	for _, l := range lines {
		if _, after, ok := strings.Cut(l, "demo account created: email demo@idgate.local password "); ok {
			demoPassword = after
		}
	}
	code, token := signIn(t, base, "demo@idgate.local", demoPassword)
	if code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	body, _ := json.Marshal(map[string]any{"allowed_domains": []string{"shop.example.com"}})
	req, _ := http.NewRequest("POST", base+"/integration-key", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Key string `json:"key"`
	}
	err = json.NewDecoder(resp.Body).Decode(&key)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 201 || key.Key == "" {
		t.Fatalf("integration key: %d %v %+v", resp.StatusCode, err, key)
	}

	sealKey := make([]byte, 32)
	rand.Read(sealKey)
	sealer, err := seal.New(sealKey)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := proxy.SealRef(sealer, "abc123", proxy.Shopper{CartID: uuid.NewString(), CustomerID: 42})
	if err != nil {
		t.Fatal(err)
	}
	client, err := verifierapi.New(base, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	create := func(origin string) (proxy.Created, error) {
		return client.CreateVerification(context.Background(), proxy.CreateRequest{
			IntegrationKey: key.Key, Origin: origin, ExternalID: ref,
			WebhookURL:     "https://proxy.example.com" + proxy.WebhookPath("abc123"),
			WebhookHeaders: map[string]string{"X-Idgate-Proxy-Auth": "c2VjcmV0LXZhbHVlLWZvci10aGUtdGVzdA"},
		})
	}
	created, err := create("https://shop.example.com")
	if err != nil {
		t.Fatalf("create through the proxy's client: %v", err)
	}
	if _, err := uuid.Parse(created.ID); err != nil || !strings.HasPrefix(created.URL, base+"/v/") {
		t.Fatalf("created %+v (base %s)", created, base)
	}
	var refused *verifierapi.RefusedError
	if _, err := create("https://evil.example.net"); !errors.As(err, &refused) || refused.Status != 403 || refused.Code != "ORIGIN_NOT_ALLOWED" {
		t.Fatalf("other origin: %v", err)
	}
	http.DefaultClient.CloseIdleConnections()
}
