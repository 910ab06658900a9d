package proxy

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// WidgetPath is where the proxy serves the footer script.
const WidgetPath = "/widget/v1/idgate.js"

// FooterScriptName names our footer script on the store: installing again
// updates it, uninstalling deletes it.
const FooterScriptName = "idgate"

// OrderScriptName names the script that tells the widget, on the order
// confirmation page, which order was just placed: that page has no cart
// any more (the order converted it), and the order's cart is what the
// shopper verifies after the order (the storefront's Get Order,
// /api/storefront/orders/{id}, names it). BigCommerce renders
// {{checkout.order.id}} in scripts shown on that page.
const OrderScriptName = "idgate order"

// orderScriptHTML is that script: no code, only the order's ID.
const orderScriptHTML = `<script data-idgate-order="{{checkout.order.id}}"></script>`

// ScriptURL is the footer script's src for a store: the widget finds the
// proxy from its own origin and the store and app client ID from the query.
func ScriptURL(proxyURL, hash, appClientID string) string {
	return strings.TrimSuffix(proxyURL, "/") + WidgetPath + "?store=" + url.QueryEscape(hash) + "&client=" + url.QueryEscape(appClientID)
}

// Installer is what installing and uninstalling need of a store's
// Management API (*bigcommerce.Client).
type Installer interface {
	InstallFooterScript(ctx context.Context, s bigcommerce.FooterScript) (string, error)
	EnsureWebhook(ctx context.Context, scope, destination string, headers map[string]string) (bigcommerce.Webhook, error)
	RemoveFooterScript(ctx context.Context, name string) (int, error)
	RemoveWebhooks(ctx context.Context, destination string) (int, error)
}

// Installed is what Install put on a store.
type Installed struct {
	ScriptID  string
	ScriptSrc string
	// OrderScriptID is the order confirmation page's script (with the
	// webhooks only).
	OrderScriptID string
	Webhooks      []bigcommerce.Webhook
}

// OrderScopes are the store events the order guard listens to.
var OrderScopes = []string{bigcommerce.ScopeOrderCreated, bigcommerce.ScopeCartConverted}

// Install puts the footer script on all the store's pages and, with
// webhooks, registers the order events to the proxy at proxyURL (with the
// store's custom header, which the receiver checks). Running it again
// leaves one script and one hook per event.
func Install(ctx context.Context, in Installer, st *Store, proxyURL string, webhooks bool) (Installed, error) {
	out := Installed{ScriptSrc: ScriptURL(proxyURL, st.Hash, st.AppClientID)}
	id, err := in.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: FooterScriptName, Description: "idgate ID verification widget", Src: out.ScriptSrc})
	if err != nil {
		return Installed{}, fmt.Errorf("install on store %s: %w", st.Hash, err)
	}
	out.ScriptID = id
	if !webhooks {
		return out, nil
	}
	// After the order, the shopper verifies on the confirmation page.
	if out.OrderScriptID, err = in.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: OrderScriptName, Description: "idgate: the order just placed, for verifying after the order",
		HTML: orderScriptHTML, Visibility: "order_confirmation"}); err != nil {
		return Installed{}, fmt.Errorf("install on store %s: %w", st.Hash, err)
	}
	dest := strings.TrimSuffix(proxyURL, "/") + OrderWebhookPath(st.Hash)
	for _, scope := range OrderScopes {
		hook, err := in.EnsureWebhook(ctx, scope, dest, map[string]string{st.WebhookHeader: string(st.WebhookHeaderValue)})
		if err != nil {
			return Installed{}, fmt.Errorf("install on store %s: %w", st.Hash, err)
		}
		out.Webhooks = append(out.Webhooks, hook)
	}
	return out, nil
}

// Uninstalled is what Uninstall removed.
type Uninstalled struct {
	Scripts, Webhooks int
}

// Uninstall deletes our footer script and every webhook delivering to the
// proxy at proxyURL for the store.
func Uninstall(ctx context.Context, in Installer, st *Store, proxyURL string) (Uninstalled, error) {
	var out Uninstalled
	var err error
	for _, name := range []string{FooterScriptName, OrderScriptName} {
		n, err := in.RemoveFooterScript(ctx, name)
		out.Scripts += n
		if err != nil {
			return out, fmt.Errorf("uninstall from store %s: %w", st.Hash, err)
		}
	}
	if out.Webhooks, err = in.RemoveWebhooks(ctx, strings.TrimSuffix(proxyURL, "/")+OrderWebhookPath(st.Hash)); err != nil {
		return out, fmt.Errorf("uninstall from store %s: %w", st.Hash, err)
	}
	return out, nil
}
