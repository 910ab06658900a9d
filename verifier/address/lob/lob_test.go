package lob_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/address/lob"
	"github.com/idgate/idgate/verifier/address/lob/lobtest"
)

const key = "live_0123456789abcdef0123456789abcdef"

func newDouble(t *testing.T) *lobtest.Double {
	t.Helper()
	d, err := lobtest.New(lobtest.Options{Dir: testkit.Data(t, "testdata", "lob"), APIKey: key, OnViolation: func(m string) { t.Error(m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

func client(t *testing.T, d *lobtest.Double, apiKey string) *lob.Client {
	t.Helper()
	c, err := lob.New(lob.Config{APIKey: apiKey, BaseURL: d.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var home = address.Query{FirstNames: "JANE", LastName: "DOE", Line1: "210 KING ST", City: "SAN FRANCISCO", State: "CA", PostalCode: "94107", Country: "USA"}

func TestVerify(t *testing.T) {
	d := newDouble(t)
	c := client(t, d, key)
	ctx := context.Background()
	for line, want := range map[string]bool{"210 KING ST": true, "1 NOWHERE RD": false, "5 UNIT WAY": true} {
		q := home
		q.Line1 = line
		switch line {
		case "1 NOWHERE RD":
			d.Set(line, "undeliverable")
		case "5 UNIT WAY":
			d.Set(line, "deliverable_missing_unit")
		}
		r, err := c.Verify(ctx, q)
		if err != nil || r.Deliverable != want || r.NamesChecked {
			t.Errorf("%s: %+v, %v; want deliverable %v, names unchecked", line, r, err, want)
		}
	}
	// Only the address goes to Lob, never the name.
	for _, req := range d.Requests() {
		if _, ok := req["recipient"]; ok || req["primary_line"] == "" || req["zip_code"] != "94107" {
			t.Errorf("request %v", req)
		}
	}
}

func TestFailures(t *testing.T) {
	d := newDouble(t)
	ctx := context.Background()
	c := client(t, d, key)
	if _, err := c.Verify(ctx, address.Query{Line1: "1 RUE X", City: "MONTREAL", State: "QC", PostalCode: "H2X 1Y4", Country: "CAN"}); !errors.Is(err, address.ErrNotCovered) {
		t.Errorf("a Canadian address: %v", err)
	}
	for status, want := range map[int]error{500: address.ErrUnavailable, 429: address.ErrUnavailable, 422: address.ErrNotCovered} {
		d.FailNext(status)
		if _, err := c.Verify(ctx, home); !errors.Is(err, want) {
			t.Errorf("status %d: %v, want %v", status, err, want)
		}
	}
	bad := client(t, d, "live_wrong")
	if _, err := bad.Verify(ctx, home); !errors.Is(err, address.ErrUnavailable) || strings.Contains(err.Error(), "live_wrong") {
		t.Errorf("wrong key: %v", err)
	}
	down, _ := lob.New(lob.Config{APIKey: key, BaseURL: "http://127.0.0.1:1/v1"})
	if _, err := down.Verify(ctx, home); !errors.Is(err, address.ErrUnavailable) || strings.Contains(err.Error(), "KING") {
		t.Errorf("dead host: %v", err)
	}
	for _, cfg := range []lob.Config{{}, {APIKey: "a:b"}, {APIKey: key, BaseURL: "ftp://x"}} {
		if _, err := lob.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
