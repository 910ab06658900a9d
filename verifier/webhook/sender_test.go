package webhook_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

var (
	secret  = []byte("whsec_sendertest")
	secrets = webhooktest.Secrets{"acct": {secret}}
	t0      = time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
)

func delivery(url string) webhook.Delivery {
	return webhook.Delivery{
		ID: "5f0c6c6e-8a57-4c3e-9a40-1d2b3c4d5e6f", AccountID: "acct", VerificationID: "v1",
		URL: url, Attempt: 2, Payload: []byte(`{"request_id":"v1","verification":{"over_18":true}}`),
		Headers: map[string]string{
			"X-Token": "s3cret",
			// Reserved names cannot get here through ValidateHeaders; the
			// sender skips them anyway.
			"Content-Type": "text/plain", "Idgate-Attempt": "9", "User-Agent": "evil",
		},
	}
}

func loopbackSender(r *webhooktest.Receiver) *webhook.Sender {
	return webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: r.Pool, Secrets: secrets,
		Now: func() time.Time { return t0 }})
}

func TestDeliverSuccessHeadersAndSignature(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	d := delivery(r.URL)
	res := loopbackSender(r).Deliver(context.Background(), d)
	if !res.OK() || res.StatusCode != 200 || res.Attempt != 2 || res.Duration <= 0 || !res.StartedAt.Equal(t0) {
		t.Fatalf("result %+v", res)
	}
	if res.Snippet != `{"received":true}` {
		t.Errorf("snippet %q", res.Snippet)
	}
	reqs := r.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := reqs[0]
	if !bytes.Equal(got.Body, d.Payload) {
		t.Errorf("body %q, want the payload bytes", got.Body)
	}
	want := map[string]string{
		"Content-Type": "application/json", "User-Agent": "idgate-webhook/1",
		"Idgate-Delivery-Id": d.ID, "Idgate-Attempt": "2", "X-Token": "s3cret",
	}
	for k, v := range want {
		if got.Header.Get(k) != v || len(got.Header.Values(k)) != 1 {
			t.Errorf("header %s = %q, want exactly %q", k, got.Header.Values(k), v)
		}
	}
	sig := got.Header.Get("Idgate-Signature")
	if err := client.VerifySignature(secret, sig, got.Body, t0.Add(time.Second), 0); err != nil {
		t.Errorf("signature %q does not verify: %v", sig, err)
	}
	if !strings.HasPrefix(sig, "t=1777888800,v1=") {
		t.Errorf("signature %q: want t = the injected clock", sig)
	}
}

func TestDeliverNon2xxIsFailure(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusServiceUnavailable))
	res := loopbackSender(r).Deliver(context.Background(), delivery(r.URL))
	if res.OK() || res.StatusCode != 503 || !errors.Is(res.Err, webhook.ErrStatus) {
		t.Fatalf("result %+v", res)
	}
}

func TestDeliverBoundsSnippet(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte("é"), webhook.MaxResponseRead)) // 2 bytes each
	}))
	defer srv.Close()
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: pool(srv), Secrets: secrets})
	res := s.Deliver(context.Background(), delivery(srv.URL))
	if !res.OK() || len(res.Snippet) > webhook.SnippetBytes+3 || !strings.HasPrefix(res.Snippet, "éé") {
		t.Fatalf("ok=%v snippet len %d", res.OK(), len(res.Snippet))
	}
}

func TestDeliverDoesNotFollowRedirects(t *testing.T) {
	target := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, target.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: pool(srv), Secrets: secrets})
	res := s.Deliver(context.Background(), delivery(srv.URL))
	if res.OK() || res.StatusCode != 307 || !strings.Contains(res.Err.Error(), "redirect not followed") {
		t.Fatalf("result %+v", res)
	}
	if n := len(target.Requests()); n != 0 {
		t.Fatalf("redirect target got %d requests", n)
	}
}

func TestDeliverTimeoutIsFailure(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		select {
		case <-release:
		case <-req.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: pool(srv), Secrets: secrets,
		Timeout: 50 * time.Millisecond})
	res := s.Deliver(context.Background(), delivery(srv.URL))
	if res.OK() || res.StatusCode != 0 || !strings.Contains(res.Err.Error(), "Client.Timeout") {
		t.Fatalf("result %+v", res)
	}
}

func TestDeliverConnectionErrorIsFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, Secrets: secrets})
	res := s.Deliver(context.Background(), delivery("https://"+addr+"/"))
	if res.OK() || res.StatusCode != 0 || res.Err == nil {
		t.Fatalf("result %+v", res)
	}
}

func TestDeliverWithoutSecretsIsFailure(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	d := delivery(r.URL)
	d.AccountID = "no-such-account"
	res := loopbackSender(r).Deliver(context.Background(), d)
	if res.OK() || len(r.Requests()) != 0 {
		t.Fatalf("unsigned delivery sent: %+v", res)
	}
}

// With AllowLoopback off (production), every non-public target is refused
// before a byte is sent, with a reason to log.
func TestDeliverRefusesNonPublicTargets(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	port := r.URL[strings.LastIndex(r.URL, ":")+1:]
	port = port[:strings.Index(port, "/")]
	redirector := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, r.URL, http.StatusFound)
	}))
	defer redirector.Close()
	s := webhook.NewSender(webhook.SenderOptions{RootCAs: r.Pool, Secrets: secrets})
	targets := []string{
		r.URL, // 127.0.0.1
		"https://10.0.0.1/hook",
		"https://169.254.169.254/latest/meta-data/",
		"https://[::1]:" + port + "/hook",
		"https://[::ffff:127.0.0.1]:" + port + "/hook",
		"https://localhost:" + port + "/hook", // refused as written (HostRefusal); for names that resolve there, TestDeliverRefusesNameResolvingToLoopback
		// A redirector redirecting to loopback: refused at its own (loopback)
		// address; that a 3xx is never followed even from an allowed host is
		// TestDeliverDoesNotFollowRedirects.
		redirector.URL,
		"http://example.com/hook", // plain http
	}
	for _, u := range targets {
		res := s.Deliver(context.Background(), delivery(u))
		var re *webhook.RefusedError
		if res.OK() || !errors.As(res.Err, &re) || re.Reason == "" || res.StatusCode != 0 {
			t.Errorf("%s: got %+v, want refused with a reason", u, res)
			continue
		}
		t.Logf("%s refused: %v", u, res.Err)
	}
	if n := len(r.Requests()); n != 0 {
		t.Fatalf("receiver got %d requests", n)
	}
}

func pool(srv *httptest.Server) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(srv.Certificate())
	return p
}
