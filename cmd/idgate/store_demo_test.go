package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/verifierapi"
)

// make run's demo store runs in test mode (docs/test-mode.md): demoVerifier hands
// it the demo account's test key, its verifications are test ones, and
// their links finish with the outcome a newcomer picks, without a camera
// or a license.
func TestDemoStoreIsInTestMode(t *testing.T) {
	dir := inTempDir(t)
	base, lines, stop := startServe(t)
	defer stop()
	var demoPassword string
	for _, l := range lines {
		if _, after, ok := strings.Cut(l, "demo account created: email demo@idgate.local password "); ok {
			demoPassword = after
		}
	}
	pwFile := filepath.Join(dir, "demo-password")
	if err := os.WriteFile(pwFile, []byte(demoPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const storefront = "http://127.0.0.1:8082"
	rv, err := demoVerifier(context.Background(), base, "demo@idgate.local", pwFile, storefront)
	if err != nil {
		t.Fatal(err)
	}
	if !rv.TestMode || !strings.HasPrefix(rv.IntegrationKey, "idgk_test_") || !strings.HasPrefix(rv.WebhookSecret, "whsec_") {
		t.Fatalf("demo verifier %+v: want the test key and a webhook secret", rv)
	}
	sealer := seal.Ephemeral()
	ref, err := proxy.SealRef(sealer, "abc123", proxy.Shopper{CartID: uuid.NewString()})
	if err != nil {
		t.Fatal(err)
	}
	client, err := verifierapi.New(base, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	created, err := client.CreateVerification(context.Background(), proxy.CreateRequest{
		IntegrationKey: rv.IntegrationKey, Origin: storefront, ExternalID: ref,
	})
	if err != nil {
		t.Fatalf("create with the demo's key: %v", err)
	}
	resp, err := http.Post(created.URL+"/test/complete", "application/json", strings.NewReader(`{"outcome":"verified"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("test/complete on the demo's link: %d (the verification is not a test one?)", resp.StatusCode)
	}
	http.DefaultClient.CloseIdleConnections()
}
