package dev_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone"
	"github.com/idgate/idgate/verifier/phone/dev"
)

func TestRefusedOutsideDev(t *testing.T) {
	for _, env := range []string{"production", "", "Dev", "prod"} {
		if p, err := dev.New(env, nil); !errors.Is(err, dev.ErrNotDev) || p != nil {
			t.Errorf("New(%q) = %v, %v", env, p, err)
		}
	}
}

func TestCodeInTheLog(t *testing.T) {
	var buf bytes.Buffer
	p, err := dev.New("dev", slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := phone.Parse("(201) 555-0123", "")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := p.Send(context.Background(), n, "482913", "en")
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "code=482913") || !strings.Contains(out, "DEV phone provider") || strings.Contains(out, "5550123") {
		t.Errorf("log:\n%s", out)
	}
	if err := p.Confirm(context.Background(), ref); err != nil {
		t.Fatal(err)
	}
	l, err := p.Lookup(context.Background(), n)
	if err != nil || l.LineType != phone.LineUnknown {
		t.Errorf("lookup of a US number = %+v, %v (the plan cannot tell mobile from fixed)", l, err)
	}
}

// The demo's subscriber records follow the number's last digit, as
// documented, and the log says they are made up without the name or
// address.
func TestMatchSubscriberRules(t *testing.T) {
	var buf bytes.Buffer
	p, err := dev.New("dev", slog.New(slog.NewTextHandler(&buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	var _ address.SubscriberMatcher = p
	q := address.Query{FirstNames: "ALEX", LastName: "SAMPLE", Line1: "123 TEST STREET", City: "SPRINGFIELD", State: "IL", PostalCode: "62701"}
	type want struct{ full, last, ok bool }
	for number, w := range map[string]want{
		"+12175550120": {true, false, true}, "+12175550126": {true, false, true}, "+12175550127": {false, true, true},
		"+12175550128": {false, false, true}, "+12175550129": {false, false, false}, "": {true, false, true},
	} {
		m, err := p.MatchSubscriber(context.Background(), number, q)
		if err != nil {
			t.Fatal(err)
		}
		if full, last, ok := m.Names(); (want{full, last, ok}) != w {
			t.Errorf("%q: %v %v %v, want %+v", number, full, last, ok, w)
		}
	}
	if out := buf.String(); !strings.Contains(out, "not looked up") || strings.Contains(out, "SAMPLE") || strings.Contains(out, "TEST STREET") {
		t.Errorf("log:\n%s", out)
	}
}
