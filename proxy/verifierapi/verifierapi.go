package verifierapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/idgate/idgate/proxy"
)

// DefaultTimeout bounds one create call: a shopper is waiting.
const DefaultTimeout = 10 * time.Second

// maxResponseBytes bounds the verifier's answer (an id and a url).
const maxResponseBytes = 64 << 10

// ErrRefused is wrapped when the verifier answers non-2xx; Status and Code
// say why (403 ORIGIN_NOT_ALLOWED, 402 QUOTA_EXCEEDED, 429 RATE_LIMITED...).
var ErrRefused = errors.New("verifier refused to create the verification")

// RefusedError is a non-2xx answer to Op.
type RefusedError struct {
	Op     string
	Status int
	Code   string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: verifier answered %d %s", e.Op, e.Status, e.Code)
}

func (e *RefusedError) Unwrap() error { return ErrRefused }

// Client calls one verifier. Safe for concurrent use.
type Client struct {
	http *resty.Client
}

// New returns a client for the verifier at baseURL (IDGATE_PUBLIC_URL of
// the verifier).
func New(baseURL string, timeout time.Duration) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("new verifier client: %q is not an absolute http(s) URL", baseURL)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	h := resty.New().SetBaseURL(baseURL).SetTimeout(timeout).
		SetResponseBodyLimit(maxResponseBytes).
		SetHeader("Accept", "application/json").
		SetRedirectPolicy(resty.NoRedirectPolicy())
	return &Client{http: h}, nil
}

type createBody struct {
	ExternalID     string            `json:"external_id"`
	WebhookURL     string            `json:"webhook_url"`
	WebhookHeaders map[string]string `json:"webhook_headers"`
}

// CreateVerification implements proxy.Verifier. It is not retried: a
// create that failed half-way may have used a verification slot.
func (c *Client) CreateVerification(ctx context.Context, r proxy.CreateRequest) (proxy.Created, error) {
	var out proxy.Created
	resp, err := c.http.R().SetContext(ctx).
		SetHeader("X-API-Key", r.IntegrationKey).
		SetHeader("Origin", r.Origin).
		SetHeader("Content-Type", "application/json").
		SetBody(createBody{ExternalID: r.ExternalID, WebhookURL: r.WebhookURL, WebhookHeaders: r.WebhookHeaders}).
		Post("/verification")
	if err != nil {
		return proxy.Created{}, fmt.Errorf("create verification: %w", err)
	}
	if resp.StatusCode() < 200 || resp.StatusCode() > 299 {
		return proxy.Created{}, refusal("create verification", resp)
	}
	if err := json.Unmarshal(resp.Body(), &out); err != nil {
		return proxy.Created{}, fmt.Errorf("create verification: decode response: %w", err)
	}
	if out.ID == "" || out.URL == "" {
		return proxy.Created{}, errors.New("create verification: response without id or url")
	}
	if u, err := url.Parse(out.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return proxy.Created{}, fmt.Errorf("create verification: url %q is not http(s)", out.URL)
	}
	return out, nil
}
