package bigcommerce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// maxOutcomePages bounds OrderOutcomes: 40 pages of listLimit, 10,000
// guarded orders, newest first. An orders page longer than that is not
// read by a person; the rest stay in the control panel's own order list.
const maxOutcomePages = 40

// OrderOutcome is the outcome the order guard (or a reviewer) wrote on one
// order.
type OrderOutcome struct {
	OrderID  int64
	Outcome  Outcome
	Modified time.Time
}

// OrderOutcomes lists the outcomes on the store's orders, newest first,
// read from the batch endpoint (GET /v3/orders/metafields, filtered to our
// namespace and key) so a page of orders costs one request, not one per
// order. A value that does not decode is skipped: it is not ours to show.
func (c *Client) OrderOutcomes(ctx context.Context) ([]OrderOutcome, error) {
	const op = "list order outcomes"
	var out []OrderOutcome
	for page := 1; page <= maxOutcomePages; page++ {
		q := url.Values{
			"namespace": {Namespace}, "key": {KeyOutcome}, "limit": {strconv.Itoa(listLimit)},
			"page": {strconv.Itoa(page)}, "direction": {"desc"},
		}
		var env struct {
			envelope
			Meta struct {
				Pagination struct {
					TotalPages int `json:"total_pages"`
				} `json:"pagination"`
			} `json:"meta"`
		}
		if err := c.do(ctx, request{op: op, method: http.MethodGet, path: "v3/orders/metafields", query: q, out: &env}); err != nil {
			return nil, err
		}
		wires, err := env.metafields()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		for _, w := range wires {
			id, err := strconv.ParseInt(string(w.ResourceID), 10, 64)
			if err != nil || w.Namespace != Namespace || w.Key != KeyOutcome {
				continue
			}
			var o Outcome
			if json.Unmarshal([]byte(w.Value), &o) != nil {
				continue
			}
			out = append(out, OrderOutcome{OrderID: id, Outcome: o, Modified: w.DateModified})
		}
		if page >= env.Meta.Pagination.TotalPages {
			break
		}
	}
	return out, nil
}
