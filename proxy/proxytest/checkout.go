package proxytest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

// The carts the demo storefronts sell: the operator's store a $12 one,
// the app store a $60 one (over the order total a merchant is likely to
// try as a trigger).
const (
	demoItem, demoPrice = "Craft IPA, 6-pack", "12.00"
	appItem, appPrice   = "Reserve bourbon, 750 ml", "60.00"
)

// item is what cart holds ("" for no cart).
func (sf *Storefront) item(cart string) (name, price string) {
	switch {
	case cart == "":
		return "", ""
	case sf.app != nil:
		return appItem, appPrice
	}
	return demoItem, demoPrice
}

// price is what the store's one item costs, so what its orders total.
func (sf *Storefront) price() string {
	if sf.app != nil {
		return appPrice
	}
	return demoPrice
}

// double is the store's BigCommerce: the app's, or the operator store's.
func (sf *Storefront) double() *bigcommercetest.Double {
	if sf.app != nil {
		return sf.app.app.Double
	}
	return sf.env.Doubles[sf.hash]
}

// newCart opens a new cart; the app store's is on the Management API
// too, where the proxy reads its amount (the order-total trigger before
// checkout).
func (sf *Storefront) newCart() string {
	id := uuid.NewString()
	if sf.app != nil {
		sf.app.app.Double.AddCart(bigcommercetest.Cart{ID: id, Amount: json.Number(appPrice)})
	}
	return id
}

var checkoutPage = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo store — {{if .Order}}Order confirmation{{else}}Checkout{{end}}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:720px;margin:24px auto;padding:0 24px;color:#222}
.button{font:inherit;padding:10px 18px;border:1px solid #222;border-radius:4px;background:#222;color:#fff;cursor:pointer}</style></head>
<body>
{{if .Order}}<h1>Thank you for your order</h1>
<p class="order">Order #{{.Order}}, ${{.Price}}, placed as a guest.</p>
{{range .Problems}}<p role="alert">Demo: the platform could not deliver a webhook: {{.}}</p>{{end}}
<p><a href="/">Back to the store</a>{{if .App}} · <a href="/manage">the store's control panel</a>{{end}}</p>
{{else}}<h1>Checkout</h1>
<p>{{.Item}}: ${{.Price}}. Demo: no payment is taken; the order is placed as a guest's.</p>
<form method="post" action="/checkout"><button class="button" type="submit">Place order</button></form>{{end}}
{{range .Scripts}}<script src="{{.}}"></script>
{{end}}{{range .Inline}}{{.}}
{{end}}</body></html>`))

type checkoutView struct {
	App         bool // the app store's, with its control panel below /manage
	Item, Price string
	Order       int64
	Problems    []string
	Scripts     []string
	Inline      []template.HTML // script_tag scripts, rendered
}

// checkout is the app store's checkout: GET shows the cart and "Place
// order", POST places it (placeOrder) and goes to the confirmation page.
func (sf *Storefront) checkout(w http.ResponseWriter, r *http.Request, cart string) {
	if cart == "" {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if r.Method == http.MethodPost {
		id := sf.PlaceOrder(r.Context())
		http.Redirect(w, r, "/checkout/order-confirmation?order="+strconv.FormatInt(id, 10), http.StatusSeeOther)
		return
	}
	item, price := sf.item(cart)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = checkoutPage.Execute(w, checkoutView{App: sf.app != nil, Item: item, Price: price})
}

// PlaceOrder does what BigCommerce does when a guest places the session's
// cart's order (the app store's checkout; tests on an operator store, whose
// order script and webhooks proxy.Install put on its double): the order
// (Awaiting Fulfillment, the cart's total) is stored, the cart is
// converted (the session has none after), and the webhooks registered for
// store/order/created and store/cart/converted are delivered, in that
// order, with their custom headers. Delivery is synchronous here, so the
// confirmation page (/checkout/order-confirmation?order=ID) can say what
// failed. It returns the order's ID.
func (sf *Storefront) PlaceOrder(ctx context.Context) int64 {
	d := sf.double()
	sf.mu.Lock()
	sf.orders++
	id := 100 + sf.orders
	cart := sf.cart
	sf.cart = ""
	sf.mu.Unlock()
	_, price := sf.item(cart)
	d.AddOrder(bigcommercetest.Order{ID: id, StatusID: 11, CartID: cart, Total: price + "00"})
	producer := "stores/" + sf.hash
	events := map[string]map[string]any{
		bigcommerce.ScopeOrderCreated:  {"type": "order", "id": id},
		bigcommerce.ScopeCartConverted: {"type": "cart", "id": cart, "orderId": id},
	}
	var problems []string
	for _, scope := range []string{bigcommerce.ScopeOrderCreated, bigcommerce.ScopeCartConverted} {
		for _, h := range d.Webhooks() {
			if h.Scope != scope || !h.IsActive {
				continue
			}
			body, _ := json.Marshal(map[string]any{
				"scope": scope, "store_id": "1001", "data": events[scope], "hash": uuid.NewString(),
				"created_at": sf.env.now().Unix(), "producer": producer,
			})
			if err := deliverPlatformWebhook(ctx, h, body); err != nil {
				problems = append(problems, err.Error())
			}
		}
	}
	sf.mu.Lock()
	if sf.problems == nil {
		sf.problems = map[int64][]string{}
	}
	sf.problems[id] = problems
	sf.mu.Unlock()
	return id
}

// deliverPlatformWebhook posts one event to a registered webhook.
func deliverPlatformWebhook(ctx context.Context, h bigcommercetest.Webhook, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.Destination, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.Headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s to %s answered %s", h.Scope, h.Destination, resp.Status)
	}
	return nil
}

// confirmation is the order confirmation page, with the store's scripts.
func (sf *Storefront) confirmation(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Query().Get("order"), 10, 64)
	if _, ok := sf.double().Order(id); err != nil || !ok {
		http.NotFound(w, r)
		return
	}
	sf.mu.Lock()
	problems := sf.problems[id]
	sf.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = checkoutPage.Execute(w, checkoutView{App: sf.app != nil, Order: id, Price: sf.price(), Problems: problems, Scripts: sf.scripts(false), Inline: sf.confirmationScripts(id)})
}

// confirmationScripts are the script_tag scripts installed for the order
// confirmation page, with {{checkout.order.id}} rendered as the
// storefront renders its Handlebars (the only variable our script uses).
func (sf *Storefront) confirmationScripts(order int64) []template.HTML {
	var out []template.HTML
	for _, s := range sf.double().Scripts() {
		html, ok := s.Fields["html"].(string)
		if !ok || s.Fields["kind"] != "script_tag" || s.Fields["visibility"] != "order_confirmation" {
			continue
		}
		out = append(out, template.HTML(strings.ReplaceAll(html, "{{checkout.order.id}}", strconv.FormatInt(order, 10)))) // #nosec G203 -- the app's own script, as the platform adds it
	}
	return out
}

// storefrontOrder answers the storefront's Get Order
// (/api/storefront/orders/{id}) for an order this session placed, with
// the members the widget reads; another order is not the shopper's.
func (sf *Storefront) storefrontOrder(w http.ResponseWriter, r *http.Request, idText string) {
	id, err := strconv.ParseInt(idText, 10, 64)
	o, ok := sf.double().Order(id)
	sf.mu.Lock()
	_, mine := sf.problems[id]
	sf.mu.Unlock()
	if err != nil || !ok || !mine {
		http.Error(w, `{"status":404,"title":"Order not found"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"orderId": o.ID, "cartId": o.CartID, "customerId": o.CustomerID, "currency": map[string]string{"code": "USD"}, "orderAmount": json.Number(sf.price())})
}
