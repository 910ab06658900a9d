// Package webhooktest holds the conformance suite every webhook.Queue
// backend passes (Run) and the HTTPS receiver the tests deliver to.
package webhooktest

import (
	"context"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Request is one POST a Receiver got.
type Request struct {
	Header http.Header
	Body   []byte
}

// Receiver is a real HTTPS server on loopback that records every request and
// answers with the status its respond function picks for the n-th request
// (1-based).
type Receiver struct {
	URL  string
	Pool *x509.CertPool // trusts the server's certificate
	// Cert is the server's certificate, for clients in other processes.
	Cert *x509.Certificate

	mu      sync.Mutex
	reqs    []Request
	respond func(n int) int
	echo    bool          // answer with the request's body
	arrived chan struct{} // one token per request, for Wait
}

// NewReceiver starts a receiver, closed when the test ends. It answers
// {"received":true}.
func NewReceiver(t testing.TB, respond func(n int) int) *Receiver {
	return newReceiver(t, respond, false)
}

// NewEchoReceiver starts a receiver that answers with the body it got, as
// some real receivers do: the delivery log's response snippets then hold
// what the payload held, personal data included.
func NewEchoReceiver(t testing.TB, respond func(n int) int) *Receiver {
	return newReceiver(t, respond, true)
}

func newReceiver(t testing.TB, respond func(n int) int, echo bool) *Receiver {
	r := &Receiver{respond: respond, echo: echo, arrived: make(chan struct{}, 1<<16)}
	srv := httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/hooks/idgate"
	r.Cert = srv.Certificate()
	r.Pool = x509.NewCertPool()
	r.Pool.AddCert(r.Cert)
	return r
}

// Always answers every request with status.
func Always(status int) func(int) int { return func(int) int { return status } }

// FailFirst answers the first k requests with status, then 200.
func FailFirst(k, status int) func(int) int {
	return func(n int) int {
		if n <= k {
			return status
		}
		return http.StatusOK
	}
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.reqs = append(r.reqs, Request{Header: req.Header.Clone(), Body: body})
	n := len(r.reqs)
	r.mu.Unlock()
	w.WriteHeader(r.respond(n))
	if r.echo {
		_, _ = w.Write(body)
	} else {
		_, _ = w.Write([]byte(`{"received":true}`))
	}
	select {
	case r.arrived <- struct{}{}:
	default:
	}
}

// Wait blocks until n requests have arrived in all, failing the test after
// timeout (a bound for asynchronous workers, not a schedule).
func (r *Receiver) Wait(t testing.TB, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for len(r.Requests()) < n {
		select {
		case <-r.arrived:
		case <-deadline:
			t.Fatalf("receiver got %d requests within %s, want %d", len(r.Requests()), timeout, n)
		}
	}
}

// Requests returns a copy of what was received so far.
func (r *Receiver) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

// Secrets is a fixed webhook.SecretSource: account ID → secrets.
type Secrets map[string][][]byte

// SigningSecrets implements webhook.SecretSource.
func (s Secrets) SigningSecrets(_ context.Context, accountID string) ([][]byte, error) {
	return s[accountID], nil
}
