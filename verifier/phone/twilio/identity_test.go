package twilio_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/phone/twilio"
	"github.com/idgate/idgate/verifier/phone/twilio/twiliotest"
)

// TestMatchSubscriber: Identity Match through the double (every request
// and answer checked against Twilio's Lookup v2 document), from the
// subscriber's record to the levels and the names rule.
func TestMatchSubscriber(t *testing.T) {
	d := newDouble(t)
	c := newClient(t, d, token)
	ctx := context.Background()
	q := address.Query{FirstNames: "ALEX", LastName: "SAMPLE", Line1: "123 TEST STREET", Line2: "APT 4", City: "SPRINGFIELD",
		State: "IL", PostalCode: "62701", Country: "USA"}
	home := twiliotest.Subscriber{FirstName: "Alex", LastName: "Sample", Line1: "123 Test St", City: "Springfield", State: "IL", PostalCode: "62701"}
	family := home
	family.FirstName = "Jordan"
	moved := home
	moved.Line1, moved.City, moved.PostalCode = "9 Lake Rd", "Chicago", "60601"
	type want struct{ full, last, ok bool }
	for _, c2 := range []struct {
		name   string
		number string
		sub    *twiliotest.Subscriber
		level  address.SubscriberMatch
		want   want
	}{
		{"the holder at home", "+12175550101", &home, address.SubscriberMatch{FirstName: address.LevelExact, LastName: address.LevelExact,
			AddressLine: address.LevelHighPartial, City: address.LevelExact, State: address.LevelExact, PostalCode: address.LevelExact}, want{true, false, true}},
		{"a family plan", "+12175550102", &family, address.SubscriberMatch{FirstName: address.LevelNoMatch, LastName: address.LevelExact,
			AddressLine: address.LevelHighPartial, City: address.LevelExact, State: address.LevelExact, PostalCode: address.LevelExact}, want{false, true, true}},
		{"the record at another address", "+12175550103", &moved, address.SubscriberMatch{FirstName: address.LevelExact, LastName: address.LevelExact,
			AddressLine: address.LevelNoMatch, City: address.LevelNoMatch, State: address.LevelExact, PostalCode: address.LevelPartial}, want{false, false, true}},
		{"no record", "+12175550104", nil, address.SubscriberMatch{FirstName: address.LevelNoData, LastName: address.LevelNoData,
			AddressLine: address.LevelNoData, City: address.LevelNoData, State: address.LevelNoData, PostalCode: address.LevelNoData}, want{false, false, false}},
	} {
		if c2.sub != nil {
			d.SetSubscriber(c2.number, *c2.sub)
		}
		m, err := c.MatchSubscriber(ctx, c2.number, q)
		if err != nil {
			t.Fatalf("%s: %v", c2.name, err)
		}
		if m != c2.level {
			t.Errorf("%s: levels %+v, want %+v", c2.name, m, c2.level)
		}
		if full, last, ok := m.Names(); (want{full, last, ok}) != c2.want {
			t.Errorf("%s: names %v %v %v, want %+v", c2.name, full, last, ok, c2.want)
		}
	}

	// The package refused for the number (not enabled, not covered).
	d.SetSubscriber("+447400123456", twiliotest.Subscriber{ErrorCode: 60606})
	if _, err := c.MatchSubscriber(ctx, "+447400123456", q); !errors.Is(err, address.ErrNotCovered) {
		t.Errorf("an error_code answer: %v", err)
	}
	// Failures never carry the name or the address (they are in the URL).
	bad := newClient(t, d, "wrong-token")
	if _, err := bad.MatchSubscriber(ctx, "+12175550101", q); !errors.Is(err, address.ErrUnavailable) || strings.Contains(err.Error(), "SAMPLE") {
		t.Errorf("wrong credentials: %v", err)
	}
	down, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: token, VerifyServiceSID: service,
		VerifyURL: "http://127.0.0.1:1", LookupURL: "http://127.0.0.1:1", Transport: http.DefaultTransport})
	if err != nil {
		t.Fatal(err)
	}
	_, err = down.MatchSubscriber(ctx, "+12175550101", q)
	if !errors.Is(err, address.ErrUnavailable) || strings.Contains(err.Error(), "SAMPLE") || strings.Contains(err.Error(), "TEST") {
		t.Errorf("a dead host: %v", err)
	}
}
