package verifierapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"

	"github.com/go-resty/resty/v2"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// The account API calls (docs/api.md "Signing in", "The integration key",
// webhooks): the settings page's link, with the merchant's own sign-in. The
// bearer token lives in the proxy.AccountSession for that one link.

// SignIn implements proxy.Accounts: POST /auth with the e-mail, password
// and mode, then GET /me for the account's ID and e-mail. 401 (and a 422
// on the members) is proxy.ErrAccountSignIn, 429 proxy.ErrAccountSignInLimited.
func (c *Client) SignIn(ctx context.Context, email string, password bigcommerce.Secret, test bool, clientIP string) (proxy.AccountSession, error) {
	mode := "live"
	if test {
		mode = "test"
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err := c.callFor(ctx, clientIP, "sign in", http.MethodPost, "/auth", "", map[string]string{
		"email": email, "password": string(password), "mode": mode,
	}, http.StatusOK, &tok)
	var refused *RefusedError
	if errors.As(err, &refused) {
		switch refused.Status {
		case http.StatusUnauthorized, http.StatusUnprocessableEntity:
			return proxy.AccountSession{}, fmt.Errorf("%w: %w", proxy.ErrAccountSignIn, err)
		case http.StatusTooManyRequests:
			return proxy.AccountSession{}, fmt.Errorf("%w: %w", proxy.ErrAccountSignInLimited, err)
		}
	}
	if err != nil {
		return proxy.AccountSession{}, err
	}
	if tok.AccessToken == "" {
		return proxy.AccountSession{}, errors.New("sign in: answer without access_token")
	}
	s := proxy.AccountSession{Token: bigcommerce.Secret(tok.AccessToken), Test: test}
	var me struct {
		ID       string `json:"id"`
		Email    string `json:"email"`
		Livemode bool   `json:"livemode"`
	}
	if err := c.call(ctx, "read account", http.MethodGet, "/me", s.Token, nil, http.StatusOK, &me); err != nil {
		return proxy.AccountSession{}, err
	}
	if me.ID == "" || me.Livemode == test {
		return proxy.AccountSession{}, fmt.Errorf("read account: id %q, livemode %t for a %s sign-in", me.ID, me.Livemode, mode)
	}
	s.ID, s.Email = me.ID, me.Email
	return s, nil
}

// CreateIntegrationKey implements proxy.Accounts: GET /integration-key for
// the current key's allowlist (404: none), then POST /integration-key with
// it and domains.
func (c *Client) CreateIntegrationKey(ctx context.Context, s proxy.AccountSession, domains []string) (string, error) {
	var cur struct {
		AllowedDomains []string `json:"allowed_domains"`
	}
	err := c.call(ctx, "read integration key", http.MethodGet, "/integration-key", s.Token, nil, http.StatusOK, &cur)
	var refused *RefusedError
	if err != nil && (!errors.As(err, &refused) || refused.Status != http.StatusNotFound) {
		return "", err
	}
	allow := cur.AllowedDomains
	for _, d := range domains {
		if !slices.Contains(allow, d) {
			allow = append(allow, d)
		}
	}
	var made struct {
		Key      string `json:"key"`
		Livemode bool   `json:"livemode"`
	}
	if err := c.call(ctx, "create integration key", http.MethodPost, "/integration-key", s.Token,
		map[string][]string{"allowed_domains": allow}, http.StatusCreated, &made); err != nil {
		return "", err
	}
	if made.Key == "" || made.Livemode == s.Test {
		return "", fmt.Errorf("create integration key: answer without key, or livemode %t for a test=%t session", made.Livemode, s.Test)
	}
	return made.Key, nil
}

// RotateWebhookSecret implements proxy.Accounts: POST /webhook-secret.
func (c *Client) RotateWebhookSecret(ctx context.Context, s proxy.AccountSession) (bigcommerce.Secret, error) {
	var out struct {
		Secret string `json:"secret"`
	}
	if err := c.call(ctx, "rotate webhook secret", http.MethodPost, "/webhook-secret", s.Token, nil, http.StatusCreated, &out); err != nil {
		return "", err
	}
	if out.Secret == "" {
		return "", errors.New("rotate webhook secret: answer without secret")
	}
	return bigcommerce.Secret(out.Secret), nil
}

// call makes one account API request (bearer token unless empty, JSON body
// unless nil) and decodes the answer of status want into out; any other
// answer is a *RefusedError naming op.
func (c *Client) call(ctx context.Context, op, method, path string, token bigcommerce.Secret, body any, want int, out any) error {
	return c.callFor(ctx, "", op, method, path, token, body, want, out)
}

// callFor is call on behalf of the client at clientIP (unless empty):
// X-Forwarded-For names that one address, which the verifier reads only
// from a proxy it trusts, taking the last hop it does not trust; the
// header is set, never appended to, so nothing the browser sent rides
// along.
func (c *Client) callFor(ctx context.Context, clientIP, op, method, path string, token bigcommerce.Secret, body any, want int, out any) error {
	r := c.http.R().SetContext(ctx)
	if ip := net.ParseIP(clientIP); ip != nil {
		r.SetHeader("X-Forwarded-For", ip.String())
	}
	if token != "" {
		r.SetAuthToken(string(token))
	}
	if body != nil {
		r.SetHeader("Content-Type", "application/json").SetBody(body)
	}
	resp, err := r.Execute(method, path)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if resp.StatusCode() != want {
		return refusal(op, resp)
	}
	if err := json.Unmarshal(resp.Body(), out); err != nil {
		return fmt.Errorf("%s: decode response: %w", op, err)
	}
	return nil
}

// refusal reads a non-2xx answer's error code (a courtesy).
func refusal(op string, resp *resty.Response) *RefusedError {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(resp.Body(), &e)
	return &RefusedError{Op: op, Status: resp.StatusCode(), Code: e.Error.Code}
}
