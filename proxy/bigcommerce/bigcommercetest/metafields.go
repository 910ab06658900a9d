package bigcommercetest

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// metafieldKind is how one document spells the metafield endpoints: the
// path parameter names, and whether ids are strings (carts) or integers.
type metafieldKind struct {
	name          string
	resourceParam string
	idParam       string
	stringIDs     bool
	// writeAsArray: customers answer create and update with an array of
	// one, carts and orders with the object itself.
	writeAsArray bool
}

var (
	cartKind     = metafieldKind{name: "cart", resourceParam: "cart_id", idParam: "metafield_id", stringIDs: true}
	customerKind = metafieldKind{name: "customer", resourceParam: "customerId", idParam: "metafieldId", writeAsArray: true}
	orderKind    = metafieldKind{name: "order", resourceParam: "order_id", idParam: "metafield_id"}
)

func init() {
	for _, k := range []struct {
		kind                           metafieldKind
		list, create, update, deleteOp string
	}{
		{cartKind, "getCartMetafields", "createCartMetafield", "updateCartMetafield", "deleteCartMetafield"},
		{customerKind, "getCustomersMetafields", "createCustomerMetafields", "updateCustomerMetafield", "deleteCustomerMetafieldsId"},
		{orderKind, "getOrderMetafields", "createOrderMetafield", "updateOrderMetafield", "deleteOrderMetafield"},
	} {
		kind := k.kind
		handlers[k.list] = func(s *state, c call) { s.listMetafields(kind, c) }
		handlers[k.create] = func(s *state, c call) { s.createMetafield(kind, c) }
		handlers[k.update] = func(s *state, c call) { s.updateMetafield(kind, c) }
		handlers[k.deleteOp] = func(s *state, c call) { s.deleteMetafield(kind, c) }
	}
}

func (k metafieldKind) key(c call) string { return k.name + "/" + c.params[k.resourceParam] }

func (k metafieldKind) render(m *Metafield, resourceID string) map[string]any {
	out := map[string]any{
		"key": m.Key, "value": m.Value, "namespace": m.Namespace, "permission_set": m.PermissionSet,
		"description": m.Description, "resource_type": k.name,
		"date_created": m.Created.UTC().Format(time.RFC3339), "date_modified": m.Modified.UTC().Format(time.RFC3339),
	}
	if k.stringIDs {
		out["id"], out["resource_id"] = strconv.FormatInt(m.ID, 10), resourceID
	} else {
		rid, _ := strconv.ParseInt(resourceID, 10, 64) // the contract validated it as an integer
		out["id"], out["resource_id"] = m.ID, rid
	}
	return out
}

func (k metafieldKind) writeResponse(c call, m *Metafield) {
	obj := k.render(m, c.params[k.resourceParam])
	if k.writeAsArray {
		writeJSON(c.w, http.StatusOK, map[string]any{"data": []any{obj}, "errors": []any{}, "meta": map[string]any{}})
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"data": obj, "meta": map[string]any{}})
}

func (s *state) listMetafields(k metafieldKind, c call) {
	namespace, key := c.query.Get("namespace"), c.query.Get("key")
	data := []any{}
	for _, m := range s.metafields[k.key(c)] {
		if (namespace == "" || m.Namespace == namespace) && (key == "" || m.Key == key) {
			data = append(data, k.render(m, c.params[k.resourceParam]))
		}
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"data": data, "meta": map[string]any{"pagination": pagination(len(data))}})
}

// metafieldInput is a create or update body; the contract has already
// checked its types and required members.
type metafieldInput struct {
	PermissionSet string `json:"permission_set"`
	Namespace     string `json:"namespace"`
	Key           string `json:"key"`
	Value         string `json:"value"`
	Description   string `json:"description"`
}

func (s *state) createMetafield(k metafieldKind, c call) {
	var in metafieldInput
	if err := json.Unmarshal(c.body, &in); err != nil {
		writeError(c.w, http.StatusBadRequest, "Input is invalid")
		return
	}
	for _, m := range s.metafields[k.key(c)] {
		if m.Namespace == in.Namespace && m.Key == in.Key {
			writeError(c.w, http.StatusConflict, "A metafield with this namespace and key already exists")
			return
		}
	}
	m := &Metafield{
		ID: s.newID(), Namespace: in.Namespace, Key: in.Key, Value: in.Value, Description: in.Description,
		PermissionSet: in.PermissionSet, Created: c.now, Modified: c.now,
	}
	s.metafields[k.key(c)] = append(s.metafields[k.key(c)], m)
	k.writeResponse(c, m)
}

func (s *state) findMetafield(k metafieldKind, c call) (*Metafield, int) {
	id, _ := strconv.ParseInt(c.params[k.idParam], 10, 64)
	for i, m := range s.metafields[k.key(c)] {
		if m.ID == id {
			return m, i
		}
	}
	writeError(c.w, http.StatusNotFound, "The resource at that URL is not found.")
	return nil, -1
}

func (s *state) updateMetafield(k metafieldKind, c call) {
	m, _ := s.findMetafield(k, c)
	if m == nil {
		return
	}
	var in metafieldInput
	if err := json.Unmarshal(c.body, &in); err != nil {
		writeError(c.w, http.StatusBadRequest, "Input is invalid")
		return
	}
	m.PermissionSet, m.Namespace, m.Key, m.Value, m.Description = in.PermissionSet, in.Namespace, in.Key, in.Value, in.Description
	m.Modified = c.now
	k.writeResponse(c, m)
}

func (s *state) deleteMetafield(k metafieldKind, c call) {
	m, i := s.findMetafield(k, c)
	if m == nil {
		return
	}
	list := s.metafields[k.key(c)]
	s.metafields[k.key(c)] = append(list[:i:i], list[i+1:]...)
	c.w.WriteHeader(http.StatusNoContent)
}

// pagination is a single page of n items.
func pagination(n int) map[string]any {
	return map[string]any{"total": n, "count": n, "per_page": 250, "current_page": 1, "total_pages": 1, "links": map[string]any{"current": "?page=1"}}
}

func init() { handlers["getOrdersMetafields"] = (*state).listOrdersMetafields }

// listOrdersMetafields is the batch list across every order, filtered by
// namespace and key, ordered by metafield ID (direction asc, the default,
// or desc) and paged by page and limit (the platform's default 50).
func (s *state) listOrdersMetafields(c call) {
	namespace, key := c.query.Get("namespace"), c.query.Get("key")
	type found struct {
		m     *Metafield
		order string
	}
	var all []found
	for k, list := range s.metafields {
		order, ok := strings.CutPrefix(k, orderKind.name+"/")
		if !ok {
			continue
		}
		for _, m := range list {
			if (namespace == "" || m.Namespace == namespace) && (key == "" || m.Key == key) {
				all = append(all, found{m, order})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if c.query.Get("direction") == "desc" {
			return all[i].m.ID > all[j].m.ID
		}
		return all[i].m.ID < all[j].m.ID
	})
	limit, page := 50, 1
	if n, err := strconv.Atoi(c.query.Get("limit")); err == nil && n > 0 {
		limit = min(n, 250)
	}
	if n, err := strconv.Atoi(c.query.Get("page")); err == nil && n > 0 {
		page = n
	}
	data := []any{}
	for i := (page - 1) * limit; i < len(all) && i < page*limit; i++ {
		data = append(data, orderKind.render(all[i].m, all[i].order))
	}
	pages := max(1, (len(all)+limit-1)/limit)
	writeJSON(c.w, http.StatusOK, map[string]any{"data": data, "meta": map[string]any{"pagination": map[string]any{
		"total": len(all), "count": len(data), "per_page": limit, "current_page": page, "total_pages": pages,
		"links": map[string]any{"current": "?page=" + strconv.Itoa(page) + "&limit=" + strconv.Itoa(limit)},
	}}})
}
