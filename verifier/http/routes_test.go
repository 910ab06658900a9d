package http

import (
	"regexp"
	"sort"
	"testing"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/openapi"
	"github.com/idgate/idgate/verifier/webhook"
)

// undocumented are the table's endpoints deliberately left out of the
// OpenAPI document, each with the reason. None today: every endpoint, the
// pages and the assets included, is documented.
var undocumented = map[string]string{}

// TestRouteTableIsTheDocument keeps the route table (routes.go), the routes
// the server registers and the OpenAPI document the same set of
// operations: an endpoint added in one place and not the others fails here.
func TestRouteTableIsTheDocument(t *testing.T) {
	h := newHarness(t, func(d *Deps) {
		d.Flow = &flow.Flow{Store: d.Store.(flow.Store), Verifications: d.Store, Now: d.Now}
		d.Webhooks = WebhookDeps{Queue: d.Store.(webhook.Queue)}
	})
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	// {token} and :token name the same segment; the document and the
	// table may name a parameter differently ({challenge_id}, :challenge).
	param := regexp.MustCompile(`\{[^/}]+\}|:[^/]+`)
	op := func(method, path string) string { return method + " " + param.ReplaceAllString(path, "{}") }

	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[op(method, path)] = true
		}
	}
	table := map[string]bool{}
	for _, g := range h.srv.routeTable() {
		if len(g.routes) == 0 {
			t.Errorf("audience %q has no routes", g.name)
		}
		for _, r := range g.routes {
			if !r.on {
				t.Errorf("%s %s is off with Flow and webhooks configured", r.method, r.path)
			}
			if r.method == prefix {
				continue
			}
			k := op(r.method, r.path)
			if table[k] {
				t.Errorf("%s is in the table twice", k)
			}
			table[k] = true
			if _, ok := undocumented[k]; !ok && !documented[k] {
				t.Errorf("%s is in the route table but not in the OpenAPI document (document it, or add it to undocumented with the reason)", k)
			}
		}
	}
	for k := range undocumented {
		if !table[k] {
			t.Errorf("undocumented lists %s, which the table does not have", k)
		}
	}
	var missing []string
	for k := range documented {
		if !table[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	for _, k := range missing {
		t.Errorf("%s is documented but not in the route table", k)
	}
	registered := 0
	for _, rt := range h.srv.app.GetRoutes(true) {
		if rt.Method == "HEAD" {
			continue // fiber's twin of every GET
		}
		registered++
		if !table[op(rt.Method, rt.Path)] {
			t.Errorf("%s %s is registered outside the route table", rt.Method, rt.Path)
		}
	}
	if registered != len(table) {
		t.Errorf("%d routes registered, %d in the table", registered, len(table))
	}
	if !t.Failed() {
		t.Logf("%d operations: table, server and document agree", len(table))
	}
}
