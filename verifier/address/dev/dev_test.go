package dev_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/address/dev"
)

func TestDevProvider(t *testing.T) {
	for _, env := range []string{"production", "", "DEV"} {
		if p, err := dev.New(env, nil); p != nil || !errors.Is(err, dev.ErrNotDev) {
			t.Errorf("New(%q) = %v, %v", env, p, err)
		}
	}
	var buf bytes.Buffer
	p, err := dev.New("dev", slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[address.Query]bool{
		{Line1: "210 KING ST", PostalCode: "94107"}: true,
		{Line1: "1 RUE X", PostalCode: "h2x 1y4"}:   true,
		{Line1: "210 KING ST", PostalCode: "9410"}:  false,
		{PostalCode: "94107"}:                       false,
	} {
		r, err := p.Verify(context.Background(), q)
		if err != nil || r.Deliverable != want || r.NamesChecked {
			t.Errorf("%+v: %+v, %v", q, r, err)
		}
	}
	if strings.Count(buf.String(), "not a real check") != 4 || strings.Contains(buf.String(), "KING") {
		t.Errorf("log:\n%s", buf.String())
	}
}
