package bigcommerce

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strconv"
)

// Store events the order guard subscribes to.
const (
	ScopeOrderCreated  = "store/order/created"
	ScopeCartConverted = "store/cart/converted"
)

// Webhook is a registered store webhook.
type Webhook struct {
	ID          int64             `json:"id"`
	Scope       string            `json:"scope"`
	Destination string            `json:"destination"`
	IsActive    bool              `json:"is_active"`
	Headers     map[string]string `json:"headers"`
}

type webhookBody struct {
	Scope       string            `json:"scope"`
	Destination string            `json:"destination"`
	IsActive    bool              `json:"is_active"`
	Headers     map[string]string `json:"headers,omitempty"`
}

// EnsureWebhook registers scope -> destination with headers (BigCommerce
// sends them with every delivery: our receiver authenticates with them). An
// existing hook for the same scope and destination is reactivated and given
// the headers instead of duplicated.
func (c *Client) EnsureWebhook(ctx context.Context, scope, destination string, headers map[string]string) (Webhook, error) {
	op := "register webhook " + scope
	u, err := url.Parse(destination)
	local := c.cfg.LoopbackPlatform && err == nil && u.Scheme == "http" && isLoopback(u.Hostname())
	if !local && (err != nil || u.Scheme != "https" || u.Host == "" || (u.Port() != "" && u.Port() != "443")) {
		// The platform delivers only to https on port 443.
		return Webhook{}, fmt.Errorf("%s: destination %q: %w: want https on port 443", op, destination, ErrInvalidInput)
	}
	if scope == "" {
		return Webhook{}, fmt.Errorf("%s: %w: empty scope", op, ErrInvalidInput)
	}
	var list struct {
		Data []Webhook `json:"data"`
	}
	q := url.Values{"scope": {scope}, "destination": {destination}}
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/hooks", query: q, out: &list}); err != nil {
		return Webhook{}, err
	}
	body := webhookBody{Scope: scope, Destination: destination, IsActive: true, Headers: headers}
	var out struct {
		Data Webhook `json:"data"`
	}
	r := request{op: op, method: http.MethodPost, path: "v3/hooks", body: body, out: &out}
	for _, h := range list.Data {
		if h.Scope != scope || h.Destination != destination {
			continue
		}
		if h.IsActive && maps.Equal(h.Headers, headers) {
			return h, nil
		}
		r.method, r.path = http.MethodPut, "v3/hooks/"+strconv.FormatInt(h.ID, 10)
		break
	}
	if err := c.do(ctx, r); err != nil {
		return Webhook{}, err
	}
	if out.Data.ID == 0 {
		return Webhook{}, fmt.Errorf("%s: %w: no webhook id", op, errUnexpectedResponse)
	}
	return out.Data, nil
}

// RemoveWebhooks deletes every webhook of ours that delivers to destination
// and returns how many it deleted. A hook already gone counts as deleted.
func (c *Client) RemoveWebhooks(ctx context.Context, destination string) (int, error) {
	op := "remove webhooks"
	var list struct {
		Data []Webhook `json:"data"`
	}
	q := url.Values{"destination": {destination}}
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/hooks", query: q, out: &list}); err != nil {
		return 0, err
	}
	n := 0
	for _, h := range list.Data {
		if h.Destination != destination {
			continue
		}
		err := c.do(ctx, request{op: op, method: http.MethodDelete, path: "v3/hooks/" + strconv.FormatInt(h.ID, 10)})
		if err != nil && !errors.Is(err, ErrNotFound) {
			return n, err
		}
		n++
	}
	return n, nil
}

// isLoopback: host is a loopback IP address.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
