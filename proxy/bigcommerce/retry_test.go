package bigcommerce_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

func requestCount(d *bigcommercetest.Double) int { return len(d.Requests()) }

func TestRetries5xxWithExponentialBackoff(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	d.FailNext(bigcommercetest.Fault{Status: 500}, bigcommercetest.Fault{Status: 502}, bigcommercetest.Fault{Status: 503})
	if _, err := c.ListMetafields(context.Background(), bigcommerce.Cart(cartID), ""); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second}
	if got := clock.Slept(); !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
	if n := requestCount(d); n != 4 {
		t.Fatalf("%d requests, want 4", n)
	}
}

func TestBackoffIsCapped(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{}, func(cfg *bigcommerce.Config) {
		cfg.MaxAttempts, cfg.Backoff, cfg.MaxBackoff = 5, time.Second, 3*time.Second
	})
	for range 4 {
		d.FailNext(bigcommercetest.Fault{Status: 504})
	}
	if _, err := c.GetOrder(context.Background(), 1); !errors.Is(err, bigcommerce.ErrNotFound) {
		t.Fatalf("after retries: %v, want the real answer (404)", err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}
	if got := clock.Slept(); !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	for range 5 {
		d.FailNext(bigcommercetest.Fault{Status: 500})
	}
	_, err := c.ListMetafields(context.Background(), bigcommerce.Customer(3), "")
	var apiErr *bigcommerce.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 500 {
		t.Fatalf("err = %v, want APIError 500", err)
	}
	if n, s := requestCount(d), len(clock.Slept()); n != 4 || s != 3 {
		t.Fatalf("%d requests, %d sleeps; want 4 and 3", n, s)
	}
}

func TestPostIsNotRetriedOn5xx(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	d.FailNext(bigcommercetest.Fault{Status: 503})
	_, err := c.CreateMetafield(context.Background(), bigcommerce.Cart(cartID), "k", "v", "")
	var apiErr *bigcommerce.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 503 {
		t.Fatalf("err = %v, want APIError 503", err)
	}
	if n := requestCount(d); n != 1 || len(clock.Slept()) != 0 {
		t.Fatalf("%d requests, slept %v; a POST that may have landed must not be repeated", n, clock.Slept())
	}
}

func Test429WaitsForTheReportedReset(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	// A POST is retried on 429: the platform refused it unprocessed.
	d.FailNext(bigcommercetest.Fault{Status: 429, ResetAfter: 1500 * time.Millisecond})
	if _, err := c.CreateMetafield(context.Background(), bigcommerce.Cart(cartID), "k", "v", ""); err != nil {
		t.Fatal(err)
	}
	if got := clock.Slept(); !reflect.DeepEqual(got, []time.Duration{1500 * time.Millisecond}) {
		t.Fatalf("slept %v, want [1.5s]", got)
	}
	if n := len(d.Metafields("cart", cartID)); n != 1 || requestCount(d) != 2 {
		t.Fatalf("%d metafields after %d requests", n, requestCount(d))
	}
}

func Test429WithoutResetBacksOff(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{})
	d.FailNext(bigcommercetest.Fault{Status: 429}, bigcommercetest.Fault{Status: 429})
	if _, err := c.ListMetafields(context.Background(), bigcommerce.Order(5), ""); err != nil {
		t.Fatal(err)
	}
	if got, want := clock.Slept(), []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}; !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
}

// TestExhaustedQuotaWaitsBeforeSending: when a response says no request is
// left in the window, the next call waits for the reset instead of
// spending a request on a certain 429.
func TestExhaustedQuotaWaitsBeforeSending(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{Quota: 2, Window: 10 * time.Second})
	ctx := context.Background()
	for range 2 {
		if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
	}
	if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); err != nil {
		t.Fatal(err)
	}
	// The second answer said 0 left, reset in 9 s; 1 s has passed since.
	if got := clock.Slept(); !reflect.DeepEqual(got, []time.Duration{8 * time.Second}) {
		t.Fatalf("slept %v, want [8s]", got)
	}
	if n := requestCount(d); n != 3 {
		t.Fatalf("%d requests, want 3 (no 429 spent)", n)
	}
}

func TestWaitLongerThanMaxWaitFailsFast(t *testing.T) {
	d, c, clock := setup(t, bigcommercetest.Options{Quota: 1, Window: time.Minute}, func(cfg *bigcommerce.Config) {
		cfg.MaxWait = 30 * time.Second
	})
	ctx := context.Background()
	if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); !errors.Is(err, bigcommerce.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	if n := requestCount(d); n != 1 || len(clock.Slept()) != 0 {
		t.Fatalf("%d requests, slept %v; want no request and no wait", n, clock.Slept())
	}
	// Once the window has reset, calls go through again.
	clock.Advance(time.Minute)
	if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); err != nil {
		t.Fatal(err)
	}
}

func TestCanceledContextStopsRetrying(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	d, c, _ := setup(t, bigcommercetest.Options{}, func(cfg *bigcommerce.Config) {
		cfg.Sleep = func(ctx context.Context, _ time.Duration) error { cancel(); return ctx.Err() }
	})
	d.FailNext(bigcommercetest.Fault{Status: 503}, bigcommercetest.Fault{Status: 503})
	if _, err := c.ListMetafields(ctx, bigcommerce.Cart(cartID), ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := requestCount(d); n != 1 {
		t.Fatalf("%d requests after cancel, want 1", n)
	}
}

func TestTransportErrorsAreRetriedForIdempotentCalls(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there any more
	clock := bigcommercetest.NewClock(epoch)
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: "abc123", Token: "tok", BaseURL: srv.URL, Now: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListMetafields(context.Background(), bigcommerce.Cart(cartID), ""); err == nil {
		t.Fatal("want a transport error")
	}
	if n := len(clock.Slept()); n != 3 {
		t.Fatalf("%d retries for GET, want 3", n)
	}
	if _, err := c.CreateMetafield(context.Background(), bigcommerce.Cart(cartID), "k", "v", ""); err == nil {
		t.Fatal("want a transport error")
	}
	if n := len(clock.Slept()); n != 3 {
		t.Fatalf("POST was retried after a transport error (%d sleeps in total)", n)
	}
}

func TestUnauthorized(t *testing.T) {
	_, c, _ := setup(t, bigcommercetest.Options{}, func(cfg *bigcommerce.Config) { cfg.Token = "not-the-token" })
	_, err := c.ListMetafields(context.Background(), bigcommerce.Cart(cartID), "")
	var apiErr *bigcommerce.APIError
	if !errors.Is(err, bigcommerce.ErrUnauthorized) || !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
}

// TestAttemptTimeout: a platform that never answers is cut off by the
// per-attempt timeout (1 ms here, so the test does not wait for it).
func TestAttemptTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: "abc", Token: "t", BaseURL: srv.URL, Timeout: time.Millisecond, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetOrder(context.Background(), 1)
	var timeout interface{ Timeout() bool }
	if !errors.As(err, &timeout) || !timeout.Timeout() {
		t.Fatalf("err = %v, want a timeout", err)
	}
}
