package bigcommerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

// TestTokenNeverLeaks drives every failure path with debug logging on and
// looks for the token in the logs, the errors and every printed form of
// the configuration. The token must only ever travel in X-Auth-Token.
func TestTokenNeverLeaks(t *testing.T) {
	const token = "SUPERSECRET-token-4f2a9c"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clock := bigcommercetest.NewClock(epoch)
	d := bigcommercetest.Start(t, bigcommercetest.Options{Token: token, Now: clock.Now, Quota: 3, Window: time.Minute})
	cfg := bigcommerce.Config{StoreHash: d.StoreHash(), Token: token, BaseURL: d.BaseURL(), Now: clock.Now, Sleep: clock.Sleep, Logger: logger, MaxWait: time.Second}
	c, err := bigcommerce.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var errs []error
	d.FailNext(bigcommercetest.Fault{Status: 500}, bigcommercetest.Fault{Status: 429}, bigcommercetest.Fault{Status: 503})
	_, err = c.ListMetafields(ctx, bigcommerce.Cart(cartID), "")
	errs = append(errs, err)
	_, err = c.GetOrder(ctx, 404)
	errs = append(errs, err)
	_, err = c.ListMetafields(ctx, bigcommerce.Cart(cartID), "") // spends the quota: next call must fail fast
	errs = append(errs, err)
	_, err = c.ListMetafields(ctx, bigcommerce.Cart(cartID), "")
	errs = append(errs, err)
	_, err = c.CreateMetafield(ctx, bigcommerce.Cart("nope"), "k", "v", "")
	errs = append(errs, err)

	// A wrong token and an unreachable host.
	other, _ := bigcommerce.New(bigcommerce.Config{StoreHash: d.StoreHash(), Token: token + "x", BaseURL: d.BaseURL(), Logger: logger})
	_, err = other.ListMetafields(ctx, bigcommerce.Customer(1), "")
	errs = append(errs, err)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	gone, _ := bigcommerce.New(bigcommerce.Config{StoreHash: "abc", Token: token, BaseURL: dead.URL, Logger: logger, Now: clock.Now, Sleep: clock.Sleep})
	_, err = gone.ListMetafields(ctx, bigcommerce.Customer(1), "")
	errs = append(errs, err)

	failures := 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		failures++
		if strings.Contains(err.Error(), token) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), token) {
			t.Errorf("error leaks the token: %v", err)
		}
	}
	if failures < 5 {
		t.Fatalf("only %d of the calls failed: the failure paths were not exercised", failures)
	}
	if !strings.Contains(logs.String(), "bigcommerce retry") {
		t.Fatalf("no retry was logged; logs: %s", logs.String())
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("logs leak the token")
	}
	js, _ := json.Marshal(cfg)
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v|%#v|%s|%q|%x|%v", cfg, cfg, cfg.Token, cfg.Token, cfg.Token, &cfg), string(js)} {
		if strings.Contains(s, token) || strings.Contains(s, fmt.Sprintf("%x", token)) {
			t.Errorf("printed config leaks the token: %s", s)
		}
	}
	for _, r := range d.Requests() {
		if strings.Contains(r.Path+r.Query+string(r.Body), token) {
			t.Errorf("token outside the header in %s %s", r.Method, r.Path)
		}
		if got := r.Header.Get("X-Auth-Token"); got != token && got != token+"x" {
			t.Errorf("request without the X-Auth-Token header: %q", got)
		}
	}
}
