package bigcommerce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Every metafield we write lives in our namespace and is private to our API
// account (app_only): neither the storefront nor other apps can read or
// forge it.
const (
	Namespace     = "idgate"
	PermissionSet = "app_only"
)

// Limits of the metafield schema (carts.v3.yml, customers.v3.yml,
// orders.v3.yml).
const (
	maxKeyLen         = 64
	maxValueLen       = 65535
	maxDescriptionLen = 255
	// A list asks for up to this many of our metafields in one page. We
	// write a handful of keys per resource, so one page is always enough.
	listLimit = 250
)

// Resource is what a metafield hangs on: a cart, a customer or an order.
type Resource struct {
	kind string
	id   string
}

// Cart is the cart with the given ID (a UUID).
func Cart(id string) Resource { return Resource{kind: "cart", id: id} }

// Customer is the customer with the given ID.
func Customer(id int64) Resource { return Resource{kind: "customer", id: strconv.FormatInt(id, 10)} }

// Order is the order with the given ID.
func Order(id int64) Resource { return Resource{kind: "order", id: strconv.FormatInt(id, 10)} }

// String is "cart 0b9f…", for errors.
func (r Resource) String() string { return r.kind + " " + r.id }

// path is the resource's metafield collection. IDs are validated, not just
// escaped: a cart ID of ".." must never reach another endpoint.
func (r Resource) path() (string, error) {
	switch r.kind {
	case "cart":
		if _, err := uuid.Parse(r.id); err != nil || len(r.id) != 36 {
			return "", fmt.Errorf("cart ID %q: %w: want a UUID", r.id, ErrInvalidInput)
		}
		return "v3/carts/" + r.id + "/metafields", nil
	case "customer", "order":
		if n, err := strconv.ParseInt(r.id, 10, 64); err != nil || n <= 0 {
			return "", fmt.Errorf("%s ID %q: %w: want a positive integer", r.kind, r.id, ErrInvalidInput)
		}
		return "v3/" + r.kind + "s/" + r.id + "/metafields", nil
	}
	return "", fmt.Errorf("metafield resource %q: %w", r.kind, ErrInvalidInput)
}

// Metafield is one of our metafields as the platform returns it.
type Metafield struct {
	ID            int64
	Key           string
	Value         string
	Description   string
	Namespace     string
	PermissionSet string
	ResourceID    string
	Created       time.Time
	Modified      time.Time
}

// wireMetafield absorbs the three documents' differences: the cart document
// types id and resource_id as strings, customers and orders as integers.
type wireMetafield struct {
	ID            flexInt    `json:"id"`
	Key           string     `json:"key"`
	Value         string     `json:"value"`
	Description   string     `json:"description"`
	Namespace     string     `json:"namespace"`
	PermissionSet string     `json:"permission_set"`
	ResourceID    flexString `json:"resource_id"`
	DateCreated   time.Time  `json:"date_created"`
	DateModified  time.Time  `json:"date_modified"`
}

func (w wireMetafield) metafield() Metafield {
	return Metafield{
		ID: int64(w.ID), Key: w.Key, Value: w.Value, Description: w.Description,
		Namespace: w.Namespace, PermissionSet: w.PermissionSet, ResourceID: string(w.ResourceID),
		Created: w.DateCreated, Modified: w.DateModified,
	}
}

// metafieldBody is what we send on create and update. Customers' update
// schema requires the metafield id in the body as well as in the path.
type metafieldBody struct {
	ID            int64  `json:"id,omitempty"`
	PermissionSet string `json:"permission_set"`
	Namespace     string `json:"namespace"`
	Key           string `json:"key"`
	Value         string `json:"value"`
	Description   string `json:"description,omitempty"`
}

func newMetafieldBody(key, value, description string) (metafieldBody, error) {
	if n := utf8.RuneCountInString(key); n == 0 || n > maxKeyLen {
		return metafieldBody{}, fmt.Errorf("metafield key %q: %w: want 1-%d characters", key, ErrInvalidInput, maxKeyLen)
	}
	if n := utf8.RuneCountInString(value); n == 0 || n > maxValueLen {
		return metafieldBody{}, fmt.Errorf("metafield %q value of %d characters: %w: want 1-%d", key, n, ErrInvalidInput, maxValueLen)
	}
	if n := utf8.RuneCountInString(description); n > maxDescriptionLen {
		return metafieldBody{}, fmt.Errorf("metafield %q description: %w: over %d characters", key, ErrInvalidInput, maxDescriptionLen)
	}
	return metafieldBody{PermissionSet: PermissionSet, Namespace: Namespace, Key: key, Value: value, Description: description}, nil
}

// ListMetafields returns our metafields on res; with a key, only that one.
func (c *Client) ListMetafields(ctx context.Context, res Resource, key string) ([]Metafield, error) {
	op := "list " + res.String() + " metafields"
	path, err := res.path()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	q := url.Values{"namespace": {Namespace}, "limit": {strconv.Itoa(listLimit)}}
	if key != "" {
		q.Set("key", key)
	}
	var env envelope
	if err := c.do(ctx, request{op: op, method: http.MethodGet, path: path, query: q, out: &env}); err != nil {
		return nil, err
	}
	wires, err := env.metafields()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out := make([]Metafield, 0, len(wires))
	for _, w := range wires {
		out = append(out, w.metafield())
	}
	return out, nil
}

// CreateMetafield creates key on res. It fails with ErrConflict when the key
// exists (the platform keeps namespace+key unique per resource).
func (c *Client) CreateMetafield(ctx context.Context, res Resource, key, value, description string) (Metafield, error) {
	op := "create " + res.String() + " metafield " + key
	body, err := newMetafieldBody(key, value, description)
	if err != nil {
		return Metafield{}, fmt.Errorf("%s: %w", op, err)
	}
	path, err := res.path()
	if err != nil {
		return Metafield{}, fmt.Errorf("%s: %w", op, err)
	}
	return c.writeMetafield(ctx, request{op: op, method: http.MethodPost, path: path, body: body})
}

// UpdateMetafield replaces the metafield id on res.
func (c *Client) UpdateMetafield(ctx context.Context, res Resource, id int64, key, value, description string) (Metafield, error) {
	op := "update " + res.String() + " metafield " + key
	body, err := newMetafieldBody(key, value, description)
	if err != nil {
		return Metafield{}, fmt.Errorf("%s: %w", op, err)
	}
	path, err := res.path()
	if err != nil {
		return Metafield{}, fmt.Errorf("%s: %w", op, err)
	}
	body.ID = id
	return c.writeMetafield(ctx, request{op: op, method: http.MethodPut, path: path + "/" + strconv.FormatInt(id, 10), body: body})
}

// DeleteMetafield deletes the metafield id on res.
func (c *Client) DeleteMetafield(ctx context.Context, res Resource, id int64) error {
	op := "delete " + res.String() + " metafield " + strconv.FormatInt(id, 10)
	path, err := res.path()
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return c.do(ctx, request{op: op, method: http.MethodDelete, path: path + "/" + strconv.FormatInt(id, 10)})
}

// UpsertMetafield writes key on res whether or not it exists yet. A
// concurrent writer that creates it between our read and our create makes
// the create conflict; we then update the one it created.
func (c *Client) UpsertMetafield(ctx context.Context, res Resource, key, value, description string) (Metafield, error) {
	for range 2 {
		existing, err := c.ListMetafields(ctx, res, key)
		if err != nil {
			return Metafield{}, err
		}
		if len(existing) > 0 {
			return c.UpdateMetafield(ctx, res, existing[0].ID, key, value, description)
		}
		m, err := c.CreateMetafield(ctx, res, key, value, description)
		if !errors.Is(err, ErrConflict) {
			return m, err
		}
	}
	return Metafield{}, fmt.Errorf("upsert %s metafield %s: %w: created and deleted concurrently", res, key, ErrConflict)
}

func (c *Client) writeMetafield(ctx context.Context, r request) (Metafield, error) {
	var env envelope
	r.out = &env
	if err := c.do(ctx, r); err != nil {
		return Metafield{}, err
	}
	wires, err := env.metafields()
	if err != nil || len(wires) != 1 {
		return Metafield{}, fmt.Errorf("%s: %w: want exactly one metafield in the response", r.op, errors.Join(err, errUnexpectedResponse))
	}
	return wires[0].metafield(), nil
}

var errUnexpectedResponse = errors.New("unexpected response shape")

// envelope is the platform's {"data": ...}. Depending on the document and
// the operation, data is one metafield or an array of them.
type envelope struct {
	Data json.RawMessage `json:"data"`
}

func (e envelope) metafields() ([]wireMetafield, error) {
	data := bytes.TrimSpace(e.Data)
	switch {
	case len(data) == 0 || bytes.Equal(data, []byte("null")):
		return nil, nil
	case data[0] == '[':
		var many []wireMetafield
		if err := json.Unmarshal(data, &many); err != nil {
			return nil, fmt.Errorf("decode metafields: %w", err)
		}
		return many, nil
	}
	var one wireMetafield
	if err := json.Unmarshal(data, &one); err != nil {
		return nil, fmt.Errorf("decode metafield: %w", err)
	}
	return []wireMetafield{one}, nil
}

// flexInt decodes 24 or "24".
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		b = []byte(s)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("decode id %s: %w", b, err)
	}
	*f = flexInt(n)
	return nil
}

// flexString decodes "abc" or 42 into a string.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("decode resource id %s: %w", b, err)
	}
	*f = flexString(n.String())
	return nil
}
