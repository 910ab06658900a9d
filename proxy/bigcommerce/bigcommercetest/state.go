package bigcommercetest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// Metafield is a stored metafield, as tests inspect it.
type Metafield struct {
	ID            int64
	Namespace     string
	Key           string
	Value         string
	Description   string
	PermissionSet string
	Created       time.Time
	Modified      time.Time
}

// Script is a stored storefront script: its UUID and the body as sent.
type Script struct {
	UUID     string
	Fields   map[string]any
	Created  time.Time
	Modified time.Time
}

// Webhook is a stored webhook registration.
type Webhook struct {
	ID          int64
	Scope       string
	Destination string
	Headers     map[string]string
	IsActive    bool
	Created     time.Time
	Updated     time.Time
}

// Order is a stored order: only what the plugin reads and writes.
type Order struct {
	ID         int64
	StatusID   int
	CustomerID int64
	CartID     string
	// Total is total_inc_tax as the platform writes it ("60.0000"); empty
	// is "0.0000".
	Total string
	// ShipTo are its shipping addresses (state name, ISO country code).
	ShipTo   []ShipTo
	Created  time.Time
	Modified time.Time
}

// ShipTo is one of an order's shipping addresses.
type ShipTo struct {
	State, CountryISO2 string
}

// state is the double's store; every access holds Double.mu.
type state struct {
	nextID     int64
	metafields map[string][]*Metafield // by "cart/<id>", "customer/<id>", "order/<id>"
	scripts    []*Script
	hooks      []*Webhook
	orders     map[int64]*Order
	carts      map[string]*Cart
}

func newState() state {
	return state{metafields: map[string][]*Metafield{}, orders: map[int64]*Order{}, carts: map[string]*Cart{}}
}

func (s *state) newID() int64 {
	s.nextID++
	return s.nextID
}

// call is one request, as a handler sees it.
type call struct {
	w      http.ResponseWriter
	params map[string]string
	query  url.Values
	body   []byte
	now    time.Time
	// storeHash is the store being served, for the bodies that echo it.
	storeHash string
}

// handlers serve the operations the plugin uses, by operationId.
var handlers = map[string]func(*state, call){}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers in the platform's error shape.
func writeError(w http.ResponseWriter, status int, title string) {
	writeJSON(w, status, map[string]any{
		"status": status,
		"title":  title,
		"type":   "https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes",
	})
}

// AddOrder stores an order (orders are created by checkout, which the
// plugin never does).
func (d *Double) AddOrder(o Order) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if o.Created.IsZero() {
		o.Created = d.opts.Now()
	}
	o.Modified = o.Created
	d.orders[o.ID] = &o
}

// Order returns the stored order id.
func (d *Double) Order(id int64) (Order, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.orders[id]
	if !ok {
		return Order{}, false
	}
	return *o, true
}

// Metafields returns the metafields on a resource: kind is "cart",
// "customer" or "order".
func (d *Double) Metafields(kind, id string) []Metafield {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Metafield
	for _, m := range d.metafields[kind+"/"+id] {
		out = append(out, *m)
	}
	return out
}

// Scripts returns the stored scripts.
func (d *Double) Scripts() []Script {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Script
	for _, s := range d.scripts {
		out = append(out, *s)
	}
	return out
}

// Webhooks returns the stored webhooks.
func (d *Double) Webhooks() []Webhook {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Webhook
	for _, h := range d.hooks {
		out = append(out, *h)
	}
	return out
}

// Snapshot is the store's whole state (metafields, scripts, webhooks,
// orders) as canonical JSON: two snapshots are byte-identical exactly when
// nothing was written in between. Reads do not change it.
func (d *Double) Snapshot() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	mf := map[string][]Metafield{}
	for k, list := range d.metafields {
		for _, m := range list {
			mf[k] = append(mf[k], *m)
		}
	}
	orders := map[string]Order{}
	for id, o := range d.orders {
		orders[strconv.FormatInt(id, 10)] = *o
	}
	var scripts []Script
	for _, s := range d.scripts {
		scripts = append(scripts, *s)
	}
	var hooks []Webhook
	for _, h := range d.hooks {
		hooks = append(hooks, *h)
	}
	// encoding/json sorts map keys, so equal states encode equally.
	b, err := json.Marshal(map[string]any{"next_id": d.nextID, "metafields": mf, "scripts": scripts, "webhooks": hooks, "orders": orders})
	if err != nil {
		panic(fmt.Sprintf("bigcommercetest: snapshot: %v", err))
	}
	return b
}

// Cart is a stored cart: only what the plugin reads (the Management API's
// getCart).
type Cart struct {
	ID         string
	CustomerID int64
	// Amount is cart_amount: line items less cart-level discounts, with
	// tax where applicable; a JSON number as the platform writes it.
	Amount  json.Number
	Created time.Time
}

// AddCart stores a cart (carts are the storefront's to create).
func (d *Double) AddCart(c Cart) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c.Created.IsZero() {
		c.Created = d.opts.Now()
	}
	if c.Amount == "" {
		c.Amount = "0"
	}
	d.carts[c.ID] = &c
}

// Orders returns the stored orders, lowest ID first.
func (d *Double) Orders() []Order {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Order, 0, len(d.orders))
	for _, id := range slices.Sorted(maps.Keys(d.orders)) {
		out = append(out, *d.orders[id])
	}
	return out
}

// StatusName is the order's status as the control panel names it.
func (o Order) StatusName() string {
	if name, ok := orderStatuses[o.StatusID]; ok {
		return name
	}
	return "Status " + strconv.Itoa(o.StatusID)
}
