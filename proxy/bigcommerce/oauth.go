package bigcommerce

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// DefaultLoginURL is where the platform exchanges an auth callback's code
// for a store's access token (POST {login}/oauth2/token).
const DefaultLoginURL = "https://login.bigcommerce.com"

// AppScopes are the OAuth scopes the app asks for, the same rights an
// operator's API account needs today: the footer script on all pages
// (Content, and Checkout Content for all_pages), cart, customer and order
// metafields and order status. Webhooks and the app's own metafields come
// with every API account (the default scope).
var AppScopes = []string{"store_cart", "store_content_checkout", "store_v2_content", "store_v2_customers", "store_v2_orders"}

// ErrOAuth is wrapped by every failed code exchange the platform refused or
// answered oddly.
var ErrOAuth = errors.New("bigcommerce oauth: code exchange failed")

// App is a single-click app's registration: its client ID and secret and
// the auth callback URL registered with it.
type App struct {
	ClientID     string
	ClientSecret Secret
	// RedirectURI is the auth callback exactly as registered.
	RedirectURI string
	// LoginURL overrides DefaultLoginURL (tests and the demo).
	LoginURL string
	Timeout  time.Duration // default DefaultTimeout
}

// AuthCallback is the query of the auth callback: the code to exchange, the
// scopes the merchant granted and the store as "stores/{hash}".
type AuthCallback struct {
	Code, Scope, Context string
}

// Installation is the platform's answer to a code exchange.
type Installation struct {
	StoreHash   string
	AccessToken Secret
	Scopes      []string
	User, Owner AppUser
}

// tokenRequest is the documented body of POST /oauth2/token.
type tokenRequest struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Code         string `json:"code"`
	Context      string `json:"context"`
	Scope        string `json:"scope"`
	GrantType    string `json:"grant_type"`
	RedirectURI  string `json:"redirect_uri"`
}

// tokenResponse is the documented answer.
type tokenResponse struct {
	AccessToken string  `json:"access_token"`
	Scope       string  `json:"scope"`
	User        AppUser `json:"user"`
	Owner       AppUser `json:"owner"`
	Context     string  `json:"context"`
	AccountUUID string  `json:"account_uuid"`
}

// Exchange trades an auth callback's code for the store's access token. The
// callback's context must name a valid store, its scopes must include every
// one of AppScopes, and the answer must be for the same store with a token.
// One attempt, no retries: a code is single-use.
func (a App) Exchange(ctx context.Context, cb AuthCallback) (Installation, error) {
	const op = "exchange auth code"
	hash, err := StoreHashFromContext(cb.Context)
	if err != nil {
		return Installation{}, fmt.Errorf("%s: context: %w: %v", op, ErrInvalidInput, err)
	}
	if cb.Code == "" || len(cb.Code) > 512 {
		return Installation{}, fmt.Errorf("%s: %w: code missing or too long", op, ErrInvalidInput)
	}
	if missing := MissingScopes(cb.Scope); len(missing) > 0 {
		return Installation{}, fmt.Errorf("%s: %w: scopes %s not granted", op, ErrInvalidInput, strings.Join(missing, ", "))
	}
	if a.ClientID == "" || a.ClientSecret == "" || a.RedirectURI == "" {
		return Installation{}, fmt.Errorf("%s: the app's client ID, secret and redirect URI are required", op)
	}
	login := strings.TrimSuffix(a.LoginURL, "/")
	if login == "" {
		login = DefaultLoginURL
	}
	if u, err := url.Parse(login); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return Installation{}, fmt.Errorf("%s: login URL %q is not an absolute http(s) URL", op, login)
	}
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var out tokenResponse
	resp, err := resty.New().SetTimeout(timeout).SetResponseBodyLimit(64<<10).SetRedirectPolicy(resty.NoRedirectPolicy()).
		R().SetContext(ctx).
		SetHeader("Accept", "application/json").
		SetHeader("Content-Type", "application/json").
		SetBody(tokenRequest{
			ClientID: a.ClientID, ClientSecret: string(a.ClientSecret), Code: cb.Code, Context: cb.Context,
			Scope: cb.Scope, GrantType: "authorization_code", RedirectURI: a.RedirectURI,
		}).
		SetResult(&out).
		Post(login + "/oauth2/token")
	if err != nil {
		// resty's error names the URL, never the body with the secret.
		return Installation{}, fmt.Errorf("%s: %w", op, err)
	}
	if resp.StatusCode() != 200 {
		return Installation{}, fmt.Errorf("%s: %w: %w", op, ErrOAuth, newAPIError(op, resp.StatusCode(), resp.Body()))
	}
	switch {
	case out.AccessToken == "":
		return Installation{}, fmt.Errorf("%s: %w: no access_token", op, ErrOAuth)
	case out.Context != cb.Context:
		return Installation{}, fmt.Errorf("%s: %w: token for %q, asked for %q", op, ErrOAuth, out.Context, cb.Context)
	}
	return Installation{
		StoreHash: hash, AccessToken: Secret(out.AccessToken), Scopes: strings.Fields(out.Scope), User: out.User, Owner: out.Owner,
	}, nil
}

// MissingScopes lists the AppScopes a space-separated grant lacks.
func MissingScopes(granted string) []string {
	have := strings.Fields(granted)
	var missing []string
	for _, s := range AppScopes {
		if !slices.Contains(have, s) {
			missing = append(missing, s)
		}
	}
	return missing
}
