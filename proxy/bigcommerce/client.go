package bigcommerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-resty/resty/v2"
)

// DefaultBaseURL is the Management API; {store_hash} is substituted.
const DefaultBaseURL = "https://api.bigcommerce.com/stores/{store_hash}/"

// Defaults for the zero values of Config.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultMaxAttempts = 4
	DefaultBackoff     = 250 * time.Millisecond
	DefaultMaxBackoff  = 8 * time.Second
	DefaultMaxWait     = 30 * time.Second
	// Responses are metafields, scripts and orders: a few KB. The cap stops
	// a misbehaving upstream from filling memory.
	maxResponseBytes = 4 << 20
)

// Config configures a Client. Only StoreHash and Token are required.
type Config struct {
	StoreHash string
	Token     Secret
	// BaseURL overrides DefaultBaseURL (the local demo and tests point it at
	// the test double). "{store_hash}" in it is replaced by StoreHash.
	BaseURL string
	// Timeout bounds one attempt. Default 10 s.
	Timeout time.Duration
	// MaxAttempts bounds attempts per call, retries included. Default 4;
	// 1 disables retries.
	MaxAttempts int
	// Backoff is the first retry delay, doubled per retry up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxWait is the longest the client waits for the platform's rate-limit
	// window to reset; a longer wait fails at once with ErrRateLimited
	// instead of holding a shopper's request. Default 30 s.
	MaxWait time.Duration
	// Now and Sleep are the clock; tests inject a fake one. Sleep must
	// return early with ctx.Err() when ctx ends.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives retries and rate-limit waits (never headers or
	// bodies). Default: discarded.
	Logger *slog.Logger
	// LoopbackPlatform: the platform is a local double (the demo), which
	// delivers webhooks to a loopback destination over http on any port;
	// BigCommerce itself delivers to https on port 443 only.
	LoopbackPlatform bool
}

// Client calls one store's Management API. It is safe for concurrent use;
// concurrent calls share the store's rate-limit state.
type Client struct {
	cfg  Config
	http *resty.Client

	mu           sync.Mutex
	blockedUntil time.Time // set when the platform says the quota is spent
}

// New validates cfg, applies defaults and returns a Client.
func New(cfg Config) (*Client, error) {
	if err := ValidateStoreHash(cfg.StoreHash); err != nil {
		return nil, fmt.Errorf("new bigcommerce client: %w", err)
	}
	if cfg.Token == "" {
		return nil, errors.New("new bigcommerce client: empty access token")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	base := strings.ReplaceAll(cfg.BaseURL, "{store_hash}", cfg.StoreHash)
	if u, err := url.Parse(base); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("new bigcommerce client: base URL %q is not an absolute http(s) URL", base)
	}
	setDefault(&cfg.Timeout, DefaultTimeout)
	setDefault(&cfg.Backoff, DefaultBackoff)
	setDefault(&cfg.MaxBackoff, DefaultMaxBackoff)
	setDefault(&cfg.MaxWait, DefaultMaxWait)
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h := resty.New().
		SetBaseURL(strings.TrimSuffix(base, "/")+"/").
		SetTimeout(cfg.Timeout).
		SetResponseBodyLimit(maxResponseBytes).
		SetHeader("Accept", "application/json").
		SetHeader("X-Auth-Token", string(cfg.Token)).
		SetLogger(quietLogger{cfg.Logger}).
		SetRedirectPolicy(resty.NoRedirectPolicy())
	return &Client{cfg: cfg, http: h}, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// sleep is the real clock's Sleep.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// request is one API call.
type request struct {
	op     string // names the call in errors and logs
	method string
	path   string // relative to the base URL, e.g. "v3/hooks"
	query  url.Values
	body   any
	out    any // decoded from a 2xx body when non-nil
}

// do runs r with retries. 429 is retried for every method (the platform did
// not process it); 5xx and transport errors only for GET, PUT and DELETE,
// because a POST that failed half-way may have created something.
func (c *Client) do(ctx context.Context, r request) error {
	for attempt := 1; ; attempt++ {
		if err := c.waitForQuota(ctx, r.op); err != nil {
			return err
		}
		req := c.http.R().SetContext(ctx)
		if r.query != nil {
			req.SetQueryParamsFromValues(r.query)
		}
		if r.body != nil {
			req.SetHeader("Content-Type", "application/json").SetBody(r.body)
		}
		resp, err := req.Execute(r.method, r.path)
		last := attempt >= c.cfg.MaxAttempts
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: %w", r.op, ctx.Err())
			}
			if last || r.method == http.MethodPost {
				return fmt.Errorf("%s: %w", r.op, err)
			}
			if err := c.backoff(ctx, r, attempt, "transport error"); err != nil {
				return err
			}
			continue
		}
		status := resp.StatusCode()
		c.noteQuota(status, resp.Header())
		switch {
		case status >= 200 && status < 300:
			return decode(r, resp.Body())
		case status == http.StatusTooManyRequests && !last:
			if !c.quotaBlocked() {
				// No reset header: fall back to our own backoff.
				if err := c.backoff(ctx, r, attempt, "429 without reset header"); err != nil {
					return err
				}
			}
			continue
		case status >= 500 && !last && r.method != http.MethodPost:
			if err := c.backoff(ctx, r, attempt, "status "+strconv.Itoa(status)); err != nil {
				return err
			}
			continue
		}
		return newAPIError(r.op, status, resp.Body())
	}
}

func decode(r request, body []byte) error {
	if r.out == nil || len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, r.out); err != nil {
		return fmt.Errorf("%s: decode response: %w", r.op, err)
	}
	return nil
}

// backoff sleeps Backoff * 2^(attempt-1), capped at MaxBackoff.
func (c *Client) backoff(ctx context.Context, r request, attempt int, why string) error {
	d := c.cfg.Backoff << (attempt - 1)
	if d > c.cfg.MaxBackoff || d <= 0 {
		d = c.cfg.MaxBackoff
	}
	c.cfg.Logger.Warn("bigcommerce retry", "op", r.op, "attempt", attempt, "reason", why, "wait", d)
	if err := c.cfg.Sleep(ctx, d); err != nil {
		return fmt.Errorf("%s: %w", r.op, err)
	}
	return nil
}

// noteQuota records the platform's rate-limit window: when no request is
// left in it (or a 429 says so), every call waits until the reported reset.
func (c *Client) noteQuota(status int, h http.Header) {
	left, err := strconv.Atoi(h.Get("X-Rate-Limit-Requests-Left"))
	if status == http.StatusTooManyRequests {
		left, err = 0, nil
	}
	resetMs, err2 := strconv.Atoi(h.Get("X-Rate-Limit-Time-Reset-Ms"))
	if err != nil || err2 != nil || left > 0 || resetMs < 0 {
		return
	}
	until := c.cfg.Now().Add(time.Duration(resetMs) * time.Millisecond)
	c.mu.Lock()
	if until.After(c.blockedUntil) {
		c.blockedUntil = until
	}
	c.mu.Unlock()
}

func (c *Client) quotaBlocked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.Now().Before(c.blockedUntil)
}

// waitForQuota sleeps until the rate-limit window resets, or fails with
// ErrRateLimited when that is further away than MaxWait.
func (c *Client) waitForQuota(ctx context.Context, op string) error {
	c.mu.Lock()
	wait := c.blockedUntil.Sub(c.cfg.Now())
	c.mu.Unlock()
	if wait <= 0 {
		return nil
	}
	if wait > c.cfg.MaxWait {
		return fmt.Errorf("%s: %w: window resets in %s", op, ErrRateLimited, wait)
	}
	c.cfg.Logger.Info("bigcommerce rate limit: waiting for the window to reset", "op", op, "wait", wait)
	if err := c.cfg.Sleep(ctx, wait); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// quietLogger routes resty's own messages to our logger at debug level.
// resty only logs errors it also returns, and never headers.
type quietLogger struct{ l *slog.Logger }

func (q quietLogger) Errorf(format string, v ...any) {
	q.l.Debug("resty: " + fmt.Sprintf(format, v...))
}
func (q quietLogger) Warnf(format string, v ...any) { q.l.Debug("resty: " + fmt.Sprintf(format, v...)) }
func (q quietLogger) Debugf(format string, v ...any) {
	q.l.Debug("resty: " + fmt.Sprintf(format, v...))
}
