package bigcommercetest

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// TestOperationsCoverTheHandlers: every implemented operation is routable
// without the documents, and the table names nothing unimplemented.
func TestOperationsCoverTheHandlers(t *testing.T) {
	var ids []string
	for _, op := range operations {
		ids = append(ids, op.id)
	}
	slices.Sort(ids)
	if want := slices.Sorted(maps.Keys(handlers)); !slices.Equal(ids, want) {
		t.Fatalf("operations %v\nhandlers   %v", ids, want)
	}
}

// TestOperationsAgreeWithTheDocuments: the documents route each entry's
// path to the same operation, with the same path parameter names, so the
// demo's unchecked routing is the tests' checked one.
func TestOperationsAgreeWithTheDocuments(t *testing.T) {
	c, err := loadContracts(testkit.Data(t, "contracts", "bigcommerce"))
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range operations {
		var names []string
		var concrete []string
		for _, seg := range strings.Split(op.path, "/") {
			if name, ok := strings.CutPrefix(seg, "{"); ok {
				names = append(names, strings.TrimSuffix(name, "}"))
				seg = "12"
			}
			concrete = append(concrete, seg)
		}
		req, _ := http.NewRequest(op.method, "http://double"+strings.Join(concrete, "/"), nil)
		found := false
		for _, r := range c.routers[op.version] {
			route, params, err := r.FindRoute(req)
			if err != nil {
				continue
			}
			found = true
			if route.Operation.OperationID != op.id || !slices.Equal(slices.Sorted(maps.Keys(params)), slices.Sorted(slices.Values(names))) {
				t.Errorf("%s %s %s: documents say %s with %v, table says %s with %v", op.version, op.method, op.path, route.Operation.OperationID, params, op.id, names)
			}
		}
		if !found {
			t.Errorf("%s %s %s (%s): not in the documents", op.version, op.method, op.path, op.id)
		}
	}
}

// TestServesWithoutDocuments is the demo's mode: the same answers, the
// token still checked, unknown paths refused and reported.
func TestServesWithoutDocuments(t *testing.T) {
	rec := &recorder{}
	d, err := New(Options{Token: DefaultToken, OnViolation: rec.add, Now: NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)).Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := d.StartServer()
	t.Cleanup(srv.Close)

	if r := send(t, d, "POST", cart, DefaultToken, `{"permission_set":"app_only","namespace":"idgate","key":"k","value":"v"}`); r.StatusCode != 200 {
		t.Fatalf("create: status %d", r.StatusCode)
	}
	if got := d.Metafields("cart", "0b9f5a3e-8c1d-4a52-9a3e-6f2b1c7d8e90"); len(got) != 1 || got[0].Value != "v" {
		t.Fatalf("stored metafields %+v", got)
	}
	if r := send(t, d, "GET", cart, "wrong", ""); r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong token: status %d, want 401", r.StatusCode)
	}
	if len(rec.all()) != 0 {
		t.Fatalf("violations %v", rec.all())
	}
	if r := send(t, d, "GET", "/v3/carts/x/secrets", DefaultToken, ""); r.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown path: status %d, want 404", r.StatusCode)
	}
	if errs := rec.all(); len(errs) != 1 || !strings.Contains(errs[0], "not an operation") {
		t.Fatalf("violations %q; want the unknown path reported", errs)
	}
}
