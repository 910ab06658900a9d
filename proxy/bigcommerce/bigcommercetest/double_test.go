package bigcommercetest

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// recorder collects violations instead of failing the test.
type recorder struct {
	mu   sync.Mutex
	errs []string
}

func (r *recorder) add(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err.Error())
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

func startRecording(t *testing.T) (*Double, *recorder) {
	t.Helper()
	rec := &recorder{}
	d, err := New(Options{
		ContractsDir: testkit.Data(t, "contracts", "bigcommerce"), Token: DefaultToken, OnViolation: rec.add,
		Now: NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)).Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := d.StartServer()
	t.Cleanup(srv.Close)
	return d, rec
}

func send(t *testing.T, d *Double, method, path, token, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, d.URL+"/stores/"+d.StoreHash()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("X-Auth-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const cart = "/v3/carts/0b9f5a3e-8c1d-4a52-9a3e-6f2b1c7d8e90/metafields"

func TestValidRequestIsServedWithoutViolation(t *testing.T) {
	d, rec := startRecording(t)
	resp := send(t, d, "POST", cart, DefaultToken, `{"permission_set":"app_only","namespace":"idgate","key":"k","value":"v"}`)
	if resp.StatusCode != 200 || len(rec.all()) != 0 {
		t.Fatalf("status %d, violations %v", resp.StatusCode, rec.all())
	}
	for _, h := range []string{"X-Rate-Limit-Requests-Left", "X-Rate-Limit-Time-Reset-Ms", "X-Rate-Limit-Requests-Quota", "X-Rate-Limit-Time-Window-Ms"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("missing %s", h)
		}
	}
}

func TestRequestViolationsAreReported(t *testing.T) {
	for _, tc := range []struct {
		name, method, path, body, want string
	}{
		{"missing required member", "POST", cart, `{"permission_set":"app_only","key":"k","value":"v"}`, "namespace"},
		{"value outside the enum", "POST", cart, `{"permission_set":"private","namespace":"n","key":"k","value":"v"}`, "permission_set"},
		{"too long key", "POST", cart, `{"permission_set":"app_only","namespace":"n","key":"` + strings.Repeat("k", 65) + `","value":"v"}`, "key"},
		{"customer update without id", "PUT", "/v3/customers/5/metafields/1", `{"permission_set":"app_only","namespace":"n","key":"k","value":"v"}`, "id"},
		{"non-integer path parameter", "GET", "/v3/customers/abc/metafields", "", "customerId"},
		{"undocumented path", "GET", "/v3/carts/x/secrets", "", "no operation"},
		{"documented but not implemented", "GET", "/v3/customers", "", "does not implement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, rec := startRecording(t)
			resp := send(t, d, tc.method, tc.path, DefaultToken, tc.body)
			errs := rec.all()
			if resp.StatusCode < 400 || len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
				t.Fatalf("status %d, violations %q; want one mentioning %q", resp.StatusCode, errs, tc.want)
			}
		})
	}
}

func TestWrongTokenIs401NotAViolation(t *testing.T) {
	d, rec := startRecording(t)
	for _, token := range []string{"", "wrong"} {
		if resp := send(t, d, "GET", cart, token, ""); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("token %q: status %d, want 401", token, resp.StatusCode)
		}
	}
	if errs := rec.all(); len(errs) != 0 {
		t.Fatalf("violations: %v", errs)
	}
}

// TestResponseViolationsAreReported breaks the double's own state so that
// its answer no longer fits the document, and expects the report.
func TestResponseViolationsAreReported(t *testing.T) {
	d, rec := startRecording(t)
	d.mu.Lock()
	d.metafields["customer/5"] = []*Metafield{{ID: 1, Namespace: "idgate", Key: "k", Value: "", PermissionSet: "app_only"}}
	d.mu.Unlock()
	send(t, d, "GET", "/v3/customers/5/metafields", DefaultToken, "")
	errs := rec.all()
	if len(errs) != 1 || !strings.Contains(errs[0], "response 200") || !strings.Contains(errs[0], "value") {
		t.Fatalf("violations %q; want the empty value reported", errs)
	}
}

func TestFaultsAndQuota(t *testing.T) {
	clock := NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	rec := &recorder{}
	d, err := New(Options{
		ContractsDir: testkit.Data(t, "contracts", "bigcommerce"), Token: DefaultToken, OnViolation: rec.add,
		Now: clock.Now, Quota: 2, Window: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := d.StartServer()
	defer srv.Close()

	d.FailNext(Fault{Status: 429, ResetAfter: 1500 * time.Millisecond}, Fault{Status: 503})
	r := send(t, d, "GET", cart, DefaultToken, "")
	if r.StatusCode != 429 || r.Header.Get("X-Rate-Limit-Requests-Left") != "0" || r.Header.Get("X-Rate-Limit-Time-Reset-Ms") != "1500" {
		t.Fatalf("injected 429: %d %v", r.StatusCode, r.Header)
	}
	if r := send(t, d, "GET", cart, DefaultToken, ""); r.StatusCode != 503 {
		t.Fatalf("injected 503: %d", r.StatusCode)
	}
	// Quota 2 per 10 s: two served, the third refused until the window resets.
	for i, want := range []string{"1", "0"} {
		r := send(t, d, "GET", cart, DefaultToken, "")
		if r.StatusCode != 200 || r.Header.Get("X-Rate-Limit-Requests-Left") != want {
			t.Fatalf("request %d: %d, left %s", i, r.StatusCode, r.Header.Get("X-Rate-Limit-Requests-Left"))
		}
	}
	clock.Advance(4 * time.Second)
	r = send(t, d, "GET", cart, DefaultToken, "")
	if r.StatusCode != 429 || r.Header.Get("X-Rate-Limit-Time-Reset-Ms") != "6000" {
		t.Fatalf("over quota: %d, reset %s", r.StatusCode, r.Header.Get("X-Rate-Limit-Time-Reset-Ms"))
	}
	clock.Advance(6 * time.Second)
	if r := send(t, d, "GET", cart, DefaultToken, ""); r.StatusCode != 200 {
		t.Fatalf("after reset: %d", r.StatusCode)
	}
	if errs := rec.all(); len(errs) != 0 {
		t.Fatalf("violations: %v", errs)
	}
	if n := len(d.Requests()); n != 6 {
		t.Fatalf("%d requests recorded, want 6", n)
	}
}

func TestBodyOnABodilessOperationIsAViolation(t *testing.T) {
	d, rec := startRecording(t)
	send(t, d, "DELETE", cart+"/1", DefaultToken, `{"id": 1}`)
	if errs := rec.all(); len(errs) != 1 || !strings.Contains(errs[0], "request") {
		t.Fatalf("violations %q; want the unexpected body reported", errs)
	}
}
