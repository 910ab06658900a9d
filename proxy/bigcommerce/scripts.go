package bigcommerce

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// FooterScript is the storefront script the plugin installs.
type FooterScript struct {
	Name        string // our key: an existing script of ours with this name is updated
	Description string
	Src         string // https URL of the widget bundle (http only for localhost)
	// HTML, instead of Src, is one inline script tag (kind script_tag);
	// the storefront renders its Handlebars ({{checkout.order.id}}).
	HTML string
	// Visibility is the pages it loads on: all_pages (default) or
	// order_confirmation.
	Visibility string
}

// scriptBody is the Scripts API body: a src script in the footer of all
// pages, essential for consent (the checkout guard must load before any
// consent choice), removed when the app is uninstalled.
type scriptBody struct {
	Name            string `json:"name"`
	Description     string `json:"description,omitempty"`
	Src             string `json:"src,omitempty"`
	HTML            string `json:"html,omitempty"`
	Kind            string `json:"kind"`
	LoadMethod      string `json:"load_method"`
	Location        string `json:"location"`
	Visibility      string `json:"visibility"`
	ConsentCategory string `json:"consent_category"`
	AutoUninstall   bool   `json:"auto_uninstall"`
	Enabled         bool   `json:"enabled"`
}

type scriptWire struct {
	UUID string `json:"uuid"`
	Name string `json:"name"`
}

// InstallFooterScript creates the footer script or updates ours with the
// same name, and returns its UUID. Running it twice leaves one script.
func (c *Client) InstallFooterScript(ctx context.Context, s FooterScript) (string, error) {
	op := "install footer script " + s.Name
	if err := validateScript(s); err != nil {
		return "", fmt.Errorf("%s: %w", op, err)
	}
	body := scriptBody{
		Name: s.Name, Description: s.Description, Src: s.Src, HTML: s.HTML, Kind: "src", LoadMethod: "default",
		Location: "footer", Visibility: s.Visibility, ConsentCategory: "essential", AutoUninstall: true, Enabled: true,
	}
	if s.HTML != "" {
		body.Kind = "script_tag"
	}
	if body.Visibility == "" {
		body.Visibility = "all_pages"
	}
	// The list holds only scripts our API account created.
	var list struct {
		Data []scriptWire `json:"data"`
	}
	q := url.Values{"limit": {"250"}}
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/content/scripts", query: q, out: &list}); err != nil {
		return "", err
	}
	var out struct {
		Data scriptWire `json:"data"`
	}
	r := request{op: op, method: http.MethodPost, path: "v3/content/scripts", body: body, out: &out}
	for _, existing := range list.Data {
		if existing.Name == s.Name && existing.UUID != "" {
			r.method, r.path = http.MethodPut, "v3/content/scripts/"+url.PathEscape(existing.UUID)
			break
		}
	}
	if err := c.do(ctx, r); err != nil {
		return "", err
	}
	if out.Data.UUID == "" {
		return "", fmt.Errorf("%s: %w: no uuid", op, errUnexpectedResponse)
	}
	return out.Data.UUID, nil
}

func validateScript(s FooterScript) error {
	if n := utf8.RuneCountInString(s.Name); n == 0 || n > 255 {
		return fmt.Errorf("script name: %w: want 1-255 characters", ErrInvalidInput)
	}
	if s.Visibility != "" && s.Visibility != "all_pages" && s.Visibility != "order_confirmation" {
		return fmt.Errorf("script visibility %q: %w: want all_pages or order_confirmation", s.Visibility, ErrInvalidInput)
	}
	if s.HTML != "" {
		// The Scripts API: "exactly one script tag".
		if s.Src != "" || !strings.HasPrefix(s.HTML, "<script") || strings.Count(s.HTML, "<script") != 1 || !strings.HasSuffix(s.HTML, "</script>") {
			return fmt.Errorf("script html: %w: want exactly one script tag and no src", ErrInvalidInput)
		}
		return nil
	}
	u, err := url.Parse(s.Src)
	if err != nil || u.Host == "" {
		return fmt.Errorf("script src %q: %w: want an absolute URL", s.Src, ErrInvalidInput)
	}
	host := strings.ToLower(u.Hostname())
	local := host == "localhost" || host == "127.0.0.1" || host == "::1"
	if u.Scheme != "https" && !(u.Scheme == "http" && local) {
		return fmt.Errorf("script src %q: %w: storefronts are https, so must the script be", s.Src, ErrInvalidInput)
	}
	return nil
}

// RemoveFooterScript deletes our scripts named name (the list holds only
// scripts our API account created) and returns how many it deleted. A
// script already gone counts as deleted.
func (c *Client) RemoveFooterScript(ctx context.Context, name string) (int, error) {
	op := "remove footer script " + name
	var list struct {
		Data []scriptWire `json:"data"`
	}
	q := url.Values{"limit": {"250"}}
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/content/scripts", query: q, out: &list}); err != nil {
		return 0, err
	}
	n := 0
	for _, s := range list.Data {
		if s.Name != name || s.UUID == "" {
			continue
		}
		err := c.do(ctx, request{op: op, method: http.MethodDelete, path: "v3/content/scripts/" + url.PathEscape(s.UUID)})
		if err != nil && !errors.Is(err, ErrNotFound) {
			return n, err
		}
		n++
	}
	return n, nil
}
