// Package lob is an address.Provider on Lob's US Verifications API
// (POST /v1/us_verifications): USPS deliverability of US addresses
// (CASS-certified, DPV-confirmed). Lob does not match names at an
// address, so its results leave the name checks unknown, and only the
// address is sent (never the name: data minimisation).
//
// The API key is only ever in the Authorization header (HTTP basic, the
// key as user name): never logged, never in an error.
package lob

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/idgate/idgate/verifier/address"
)

// DefaultBaseURL is Lob's API.
const DefaultBaseURL = "https://api.lob.com/v1"

// DefaultTimeout bounds one call: completion waits for it.
const DefaultTimeout = 10 * time.Second

const maxResponseBytes = 1 << 20

// Config configures a Client; APIKey is required.
type Config struct {
	// APIKey is a live secret key (live_…) or publishable key (live_pub_…);
	// a test key (test_…) answers canned values, not real checks.
	APIKey string
	// BaseURL overrides DefaultBaseURL (tests point it at the double).
	BaseURL   string
	Timeout   time.Duration
	Transport http.RoundTripper
}

// Client is the Lob provider; safe for concurrent use.
type Client struct {
	http *resty.Client
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" || strings.ContainsAny(cfg.APIKey, ": \t\r\n") {
		return nil, errors.New("lob: the API key is empty or malformed")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("lob: %q is not an absolute http(s) URL", cfg.BaseURL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	r := resty.New().
		SetBaseURL(strings.TrimSuffix(cfg.BaseURL, "/")).
		SetTimeout(cfg.Timeout).
		SetResponseBodyLimit(maxResponseBytes).
		SetBasicAuth(cfg.APIKey, "").
		SetHeader("Accept", "application/json").
		SetRedirectPolicy(resty.NoRedirectPolicy()).
		SetLogger(discard{})
	if cfg.Transport != nil {
		r.SetTransport(cfg.Transport)
	}
	return &Client{http: r}, nil
}

// Name is "lob".
func (c *Client) Name() string { return "lob" }

// request is us_verifications_writable's multiple-components form.
type request struct {
	PrimaryLine   string `json:"primary_line"`
	SecondaryLine string `json:"secondary_line,omitempty"`
	City          string `json:"city,omitempty"`
	State         string `json:"state,omitempty"`
	ZIPCode       string `json:"zip_code,omitempty"`
}

// verification is the part of us_verification read here.
type verification struct {
	Deliverability string `json:"deliverability"`
}

type apiError struct {
	Error struct {
		Code       string `json:"code"`
		StatusCode int    `json:"status_code"`
	} `json:"error"`
}

// deliverable are the deliverability values that mean mail reaches the
// address: the building is deliverable even where the unit is missing,
// wrong or unneeded (the license's address is the person's home).
var deliverable = map[string]bool{
	"deliverable": true, "deliverable_unnecessary_unit": true,
	"deliverable_incorrect_unit": true, "deliverable_missing_unit": true,
}

// Verify asks Lob whether the address is deliverable. Addresses outside
// the US (and its territories) are ErrNotCovered.
func (c *Client) Verify(ctx context.Context, q address.Query) (address.Result, error) {
	if !q.US() {
		return address.Result{}, fmt.Errorf("lob: %w: Lob verifies US addresses", address.ErrNotCovered)
	}
	body := request{PrimaryLine: q.Line1, SecondaryLine: q.Line2, City: q.City, State: q.State, ZIPCode: q.PostalCode}
	if len(body.State) != 2 {
		body.State = ""
	}
	var out verification
	resp, err := c.http.R().SetContext(ctx).
		SetBody(body).
		SetResult(&out).SetError(&apiError{}).
		Post("/us_verifications")
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = fmt.Errorf("%s: %w", ue.Op, ue.Err)
		}
		return address.Result{}, fmt.Errorf("lob verify: %w: %w", address.ErrUnavailable, err)
	}
	if resp.IsError() {
		code := ""
		if e, ok := resp.Error().(*apiError); ok {
			code = e.Error.Code
		}
		if resp.StatusCode() == http.StatusUnprocessableEntity {
			// Lob could not take the address as given (a malformed ZIP
			// code, say): the check cannot run on it.
			return address.Result{}, fmt.Errorf("lob verify: status %d %s: %w", resp.StatusCode(), code, address.ErrNotCovered)
		}
		return address.Result{}, fmt.Errorf("lob verify: status %d %s: %w", resp.StatusCode(), code, address.ErrUnavailable)
	}
	switch {
	case deliverable[out.Deliverability]:
		return address.Result{Deliverable: true}, nil
	case out.Deliverability == "undeliverable":
		return address.Result{}, nil
	}
	return address.Result{}, fmt.Errorf("lob verify: unknown deliverability %q: %w", out.Deliverability, address.ErrUnavailable)
}

type discard struct{}

func (discard) Errorf(string, ...any) {}
func (discard) Warnf(string, ...any)  {}
func (discard) Debugf(string, ...any) {}
