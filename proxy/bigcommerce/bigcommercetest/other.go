package bigcommercetest

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
)

func init() {
	handlers["getScripts"] = (*state).listScripts
	handlers["createScript"] = (*state).createScript
	handlers["updateScript"] = (*state).updateScript
	handlers["deleteScript"] = (*state).deleteScript
	handlers["getWebhooks"] = (*state).listWebhooks
	handlers["createWebhooks"] = (*state).createWebhook
	handlers["updateWebhook"] = (*state).updateWebhook
	handlers["deleteWebhook"] = (*state).deleteWebhook
	handlers["getOrder"] = (*state).getOrder
	handlers["getOrders"] = (*state).listOrders
	handlers["updateOrder"] = (*state).updateOrder
	handlers["getOrderShippingAddresses"] = (*state).getShippingAddresses
	handlers["getCart"] = (*state).getCart
}

// getCart answers Cart_Full with what the plugin reads (id, customer_id,
// cart_amount) and the members every cart has; line items are not kept.
func (s *state) getCart(c call) {
	cart, ok := s.carts[c.params["cartId"]]
	if !ok {
		writeError(c.w, http.StatusNotFound, "Cart not found.")
		return
	}
	at := cart.Created.UTC().Format(time.RFC3339)
	writeJSON(c.w, http.StatusOK, map[string]any{"data": map[string]any{
		"id": cart.ID, "customer_id": cart.CustomerID, "channel_id": 1, "email": "",
		"currency": map[string]any{"code": "USD"}, "tax_included": false,
		"base_amount": cart.Amount, "discount_amount": 0, "manual_discount_amount": 0, "cart_amount": cart.Amount,
		"coupons": []any{}, "discounts": []any{},
		"line_items":   map[string]any{"physical_items": []any{}, "digital_items": []any{}, "gift_certificates": []any{}, "custom_items": []any{}},
		"created_time": at, "updated_time": at, "locale": "en", "version": 1,
	}, "meta": map[string]any{}})
}

func (sc *Script) render() map[string]any {
	out := maps.Clone(sc.Fields)
	out["uuid"] = sc.UUID
	out["date_created"] = sc.Created.UTC().Format(time.RFC3339)
	out["date_modified"] = sc.Modified.UTC().Format(time.RFC3339)
	return out
}

func (s *state) listScripts(c call) {
	data := []any{}
	for _, sc := range s.scripts {
		data = append(data, sc.render())
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"data": data, "meta": map[string]any{"pagination": pagination(len(data))}})
}

func (s *state) createScript(c call) {
	var fields map[string]any
	if err := json.Unmarshal(c.body, &fields); err != nil {
		writeError(c.w, http.StatusUnprocessableEntity, "Input is invalid")
		return
	}
	sc := &Script{UUID: uuid.NewString(), Fields: fields, Created: c.now, Modified: c.now}
	s.scripts = append(s.scripts, sc)
	writeJSON(c.w, http.StatusOK, map[string]any{"data": sc.render(), "meta": map[string]any{}})
}

func (s *state) updateScript(c call) {
	var fields map[string]any
	if err := json.Unmarshal(c.body, &fields); err != nil {
		writeError(c.w, http.StatusUnprocessableEntity, "Input is invalid")
		return
	}
	for _, sc := range s.scripts {
		if sc.UUID == c.params["uuid"] {
			maps.Copy(sc.Fields, fields)
			sc.Modified = c.now
			writeJSON(c.w, http.StatusOK, map[string]any{"data": sc.render(), "meta": map[string]any{}})
			return
		}
	}
	writeError(c.w, http.StatusNotFound, "The resource was not found.")
}

// deleteScript answers 204 with no body (see the scripts erratum).
func (s *state) deleteScript(c call) {
	for i, sc := range s.scripts {
		if sc.UUID == c.params["uuid"] {
			s.scripts = append(s.scripts[:i], s.scripts[i+1:]...)
			c.w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	writeError(c.w, http.StatusNotFound, "The resource was not found.")
}

func (h *Webhook) render(storeHash string) map[string]any {
	return map[string]any{
		"id": h.ID, "client_id": "idgatetestclient", "store_hash": storeHash, "scope": h.Scope,
		"destination": h.Destination, "headers": h.Headers, "is_active": h.IsActive,
		"created_at": h.Created.Unix(), "updated_at": h.Updated.Unix(),
	}
}

// webhookInput is a create or update body.
type webhookInput struct {
	Scope       *string           `json:"scope"`
	Destination *string           `json:"destination"`
	IsActive    *bool             `json:"is_active"`
	Headers     map[string]string `json:"headers"`
}

func (s *state) listWebhooks(c call) {
	data := []any{}
	for _, h := range s.hooks {
		if q := c.query.Get("scope"); q != "" && q != h.Scope {
			continue
		}
		if q := c.query.Get("destination"); q != "" && q != h.Destination {
			continue
		}
		if q := c.query.Get("is_active"); q != "" && q != strconv.FormatBool(h.IsActive) {
			continue
		}
		data = append(data, h.render(c.storeHash))
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"data": data, "meta": map[string]any{"pagination": pagination(len(data))}})
}

func (s *state) createWebhook(c call) {
	var in webhookInput
	if err := json.Unmarshal(c.body, &in); err != nil || in.Scope == nil || in.Destination == nil {
		writeError(c.w, http.StatusUnprocessableEntity, "JSON data is missing or invalid")
		return
	}
	h := &Webhook{ID: s.newID(), Scope: *in.Scope, Destination: *in.Destination, Headers: in.Headers, IsActive: true, Created: c.now, Updated: c.now}
	if in.IsActive != nil {
		h.IsActive = *in.IsActive
	}
	s.hooks = append(s.hooks, h)
	writeJSON(c.w, http.StatusOK, map[string]any{"data": h.render(c.storeHash), "meta": map[string]any{}})
}

func (s *state) updateWebhook(c call) {
	var in webhookInput
	if err := json.Unmarshal(c.body, &in); err != nil {
		writeError(c.w, http.StatusUnprocessableEntity, "JSON data is missing or invalid")
		return
	}
	id, _ := strconv.ParseInt(c.params["webhook_id"], 10, 64)
	for _, h := range s.hooks {
		if h.ID != id {
			continue
		}
		if in.Scope != nil {
			h.Scope = *in.Scope
		}
		if in.Destination != nil {
			h.Destination = *in.Destination
		}
		if in.IsActive != nil {
			h.IsActive = *in.IsActive
		}
		if in.Headers != nil {
			h.Headers = in.Headers
		}
		h.Updated = c.now
		writeJSON(c.w, http.StatusOK, map[string]any{"data": h.render(c.storeHash), "meta": map[string]any{}})
		return
	}
	writeError(c.w, http.StatusNotFound, "Webhook not found")
}

// deleteWebhook answers the deleted hook (200), as documented.
func (s *state) deleteWebhook(c call) {
	id, _ := strconv.ParseInt(c.params["webhook_id"], 10, 64)
	for i, h := range s.hooks {
		if h.ID == id {
			s.hooks = append(s.hooks[:i], s.hooks[i+1:]...)
			writeJSON(c.w, http.StatusOK, map[string]any{"data": h.render(c.storeHash), "meta": map[string]any{}})
			return
		}
	}
	writeError(c.w, http.StatusNotFound, "Webhook not found")
}

// orderStatuses names the statuses tests use; the platform has more.
var orderStatuses = map[int]string{
	0: "Incomplete", 1: "Pending", 7: "Awaiting Payment", 11: "Awaiting Fulfillment",
	12: "Manual Verification Required",
}

func (o *Order) render() map[string]any {
	status := o.StatusName()
	total := o.Total
	if total == "" {
		total = "0.0000"
	}
	return map[string]any{
		"id": o.ID, "customer_id": o.CustomerID, "status_id": o.StatusID, "status": status, "cart_id": o.CartID, "total_inc_tax": total,
		"date_created": o.Created.UTC().Format(time.RFC1123Z), "date_modified": o.Modified.UTC().Format(time.RFC1123Z),
	}
}

func (s *state) order(c call) *Order {
	id, _ := strconv.ParseInt(c.params["order_id"], 10, 64)
	o, ok := s.orders[id]
	if !ok {
		writeError(c.w, http.StatusNotFound, "The requested resource was not found.")
		return nil
	}
	return o
}

func (s *state) getOrder(c call) {
	if o := s.order(c); o != nil {
		writeJSON(c.w, http.StatusOK, o.render())
	}
}

// listOrders filters by cart_id and status_id (the filters the plugin
// sends), lowest ID first as documented.
func (s *state) listOrders(c call) {
	out := []any{}
	ids := slices.Sorted(maps.Keys(s.orders))
	for _, id := range ids {
		o := s.orders[id]
		if q := c.query.Get("cart_id"); q != "" && q != o.CartID {
			continue
		}
		if q := c.query.Get("status_id"); q != "" && q != strconv.Itoa(o.StatusID) {
			continue
		}
		out = append(out, o.render())
	}
	writeJSON(c.w, http.StatusOK, out)
}

func (s *state) getShippingAddresses(c call) {
	o := s.order(c)
	if o == nil {
		return
	}
	out := []any{}
	for i, a := range o.ShipTo {
		out = append(out, map[string]any{
			"id": i + 1, "order_id": o.ID, "first_name": "Pat", "last_name": "Doe", "street_1": "1 Main St", "city": "Springfield",
			"state": a.State, "zip": "00000", "country": a.CountryISO2, "country_iso2": a.CountryISO2, "items_total": 1, "items_shipped": 0,
		})
	}
	writeJSON(c.w, http.StatusOK, out)
}

func (s *state) updateOrder(c call) {
	o := s.order(c)
	if o == nil {
		return
	}
	var in struct {
		StatusID *int `json:"status_id"`
	}
	if err := json.Unmarshal(c.body, &in); err != nil {
		writeError(c.w, http.StatusBadRequest, "Input is invalid")
		return
	}
	if in.StatusID != nil {
		o.StatusID = *in.StatusID
	}
	o.Modified = c.now
	writeJSON(c.w, http.StatusOK, o.render())
}
