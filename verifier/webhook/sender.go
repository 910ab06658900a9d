package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/idgate/idgate/client"
)

// Sender timing and size limits.
const (
	// Timeout is the default bound on one attempt end to end: dial, TLS,
	// request, response headers and the bounded body read. Longer counts
	// as a failure.
	Timeout = 10 * time.Second
	// dialTimeout and tlsTimeout fail fast on dead hosts within Timeout.
	dialTimeout = 5 * time.Second
	tlsTimeout  = 5 * time.Second
	// MaxResponseRead is how much of a response body is read (so the
	// connection can be reused); anything beyond is dropped with the
	// connection.
	MaxResponseRead = 64 << 10
	// SnippetBytes is how much of the response body the log keeps.
	SnippetBytes = 256
)

// SenderOptions configure NewSender. The zero value is production: public
// https targets only, system roots.
type SenderOptions struct {
	// AllowLoopback permits 127.0.0.0/8 and ::1 — and nothing else — for
	// local development and tests. Off by default; never on in production.
	AllowLoopback bool
	// RootCAs replaces the system roots (tests trust httptest's cert).
	RootCAs *x509.CertPool
	// Secrets gives the account's signing secrets at each attempt.
	Secrets SecretSource
	// Now is the clock for the signature timestamp; time.Now if nil.
	Now func() time.Time
	// Timeout overrides the per-attempt Timeout (tests); 0 means Timeout.
	Timeout time.Duration
	// Resolver looks names up; nil is the system's. Tests point it at their
	// own DNS to show that a public-looking name resolving to a private
	// address is refused when dialed.
	Resolver *net.Resolver
}

// Sender performs webhook attempts. Make one with NewSender; it is safe for
// concurrent use.
type Sender struct {
	client        *http.Client
	allowLoopback bool
	secrets       SecretSource
	now           func() time.Time
}

// NewSender builds the SSRF-safe client: every dialed address is checked
// after DNS resolution, no proxy from the environment (it would make the
// proxy the dialed address), redirects are never followed, Timeout bounds
// each attempt.
func NewSender(o SenderOptions) *Sender {
	dialer := &net.Dialer{Timeout: dialTimeout, Control: checkDial(o.AllowLoopback), Resolver: o.Resolver}
	transport := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: tlsTimeout,
		// A receiver cannot make us buffer more than this of headers.
		MaxResponseHeaderBytes: 64 << 10,
		ForceAttemptHTTP2:      true,
		// Enough idle connections per host for a full worker to one receiver,
		// so a busy receiver does not cost a TLS handshake per delivery.
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = Timeout
	}
	return &Sender{
		client: &http.Client{
			Transport: transport,
			Timeout:   timeout,
			// A 3xx is returned as is and counts as a failure: following it
			// could lead anywhere, and the receiver must fix its URL.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		allowLoopback: o.AllowLoopback,
		secrets:       o.Secrets,
		now:           now,
	}
}

// ErrStatus is wrapped when the receiver answered but not with a 2xx.
var ErrStatus = errors.New("non-2xx response")

// Deliver performs one attempt of d (d.Attempt is its number): POST of the
// exact payload bytes with the signature, delivery ID, attempt, Content-Type
// and User-Agent headers and the custom headers. It never panics; every
// failure is in the result's Err.
func (s *Sender) Deliver(ctx context.Context, d Delivery) (res AttemptResult) {
	res = AttemptResult{Attempt: d.Attempt, StartedAt: s.now()}
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Errorf("deliver %s: internal error: %v", d.ID, p)
		}
		res.Duration = time.Since(start)
	}()
	if err := ValidateURL(d.URL, s.allowLoopback); err != nil {
		res.Err = err
		return res
	}
	if s.secrets == nil {
		res.Err = errors.New("signing secrets: sender has no SecretSource")
		return res
	}
	secrets, err := s.secrets.SigningSecrets(ctx, d.AccountID)
	if err != nil {
		res.Err = fmt.Errorf("signing secrets: %w", err)
		return res
	}
	if len(secrets) == 0 {
		res.Err = errors.New("signing secrets: account has none")
		return res
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		res.Err = fmt.Errorf("build request: %w", err)
		return res
	}
	for name, value := range d.Headers {
		if !reserved(name) && isToken(name) && validValue(value) {
			req.Header.Set(name, value)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderDeliveryID, d.ID)
	req.Header.Set(HeaderAttempt, strconv.Itoa(d.Attempt))
	req.Header.Set(HeaderSignature, client.Sign(secrets, res.StartedAt, d.Payload))
	if FailsOnPurpose(d.URL) { // test mode's failing target: never dialed
		res.StatusCode, res.Snippet = FailingTestStatus, failingSnippet
		res.Err = fmt.Errorf("%w: %d (test target that fails on purpose)", ErrStatus, FailingTestStatus)
		return res
	}

	resp, err := s.client.Do(req)
	if err != nil {
		res.Err = unwrapURLError(err)
		return res
	}
	defer resp.Body.Close()
	res.StatusCode = resp.StatusCode
	// A body read error is ignored: the status line decides, and a 2xx
	// whose body breaks off is still the receiver's acceptance.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxResponseRead))
	res.Snippet = snippet(body)
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		res.Err = fmt.Errorf("%w: %d redirect not followed (Location: %q)", ErrStatus, resp.StatusCode, resp.Header.Get("Location"))
	case resp.StatusCode < 200 || resp.StatusCode >= 300:
		res.Err = fmt.Errorf("%w: %d", ErrStatus, resp.StatusCode)
	}
	return res
}

// unwrapURLError drops *url.Error's "Post <url>:" so the reason reads
// plainly and a *RefusedError stays reachable with errors.As.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("post: %w", ue.Err)
	}
	return fmt.Errorf("post: %w", err)
}

// snippet is the first SnippetBytes of body with invalid UTF-8 (including a
// rune cut in half) replaced, fit for a JSON log.
func snippet(body []byte) string {
	if len(body) > SnippetBytes {
		body = body[:SnippetBytes]
	}
	return string(bytes.ToValidUTF8(body, []byte("\uFFFD")))
}
