package twilio_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/phone"
	"github.com/idgate/idgate/verifier/phone/twilio"
	"github.com/idgate/idgate/verifier/phone/twilio/twiliotest"
)

const (
	sid     = "AC0123456789abcdef0123456789abcdef"
	token   = "test-auth-token"
	service = "VA0123456789abcdef0123456789abcdef"
)

func newDouble(t *testing.T) *twiliotest.Double {
	t.Helper()
	d, err := twiliotest.New(twiliotest.Options{Dir: testkit.Data(t, "testdata", "twilio"), AccountSID: sid, AuthToken: token,
		OnViolation: func(msg string) { t.Error(msg) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

func newClient(t *testing.T, d *twiliotest.Double, authToken string) *twilio.Client {
	t.Helper()
	c, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: authToken, VerifyServiceSID: service, VerifyURL: d.URL, LookupURL: d.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func number(t *testing.T, raw string) phone.Number {
	t.Helper()
	n, err := phone.Parse(raw, "US")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSendLookupConfirm(t *testing.T) {
	d := newDouble(t)
	c := newClient(t, d, token)
	ctx := context.Background()
	n := number(t, "(201) 555-0123")
	d.SetLine(n.E164, twiliotest.Line{Type: "nonFixedVoip", CarrierName: "Example VoIP", CallerName: "JANE DOE"})

	l, err := c.Lookup(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if l != (phone.Lookup{LineType: phone.LineNonFixedVoIP, CarrierName: "Example VoIP", CallerName: "JANE DOE"}) {
		t.Errorf("lookup = %+v", l)
	}
	ref, err := c.Send(ctx, n, "042917", "es")
	if err != nil {
		t.Fatal(err)
	}
	msgs := d.Messages()
	if len(msgs) != 1 || msgs[0] != (twiliotest.Message{To: "+12015550123", Code: "042917", Locale: "es", Sid: ref}) {
		t.Errorf("delivered %+v, ref %s", msgs, ref)
	}
	if err := c.Confirm(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if !d.Approved(ref) {
		t.Error("the verification was not marked approved")
	}
	if err := c.Confirm(ctx, "VE"+strings.Repeat("f", 32)); !errors.Is(err, phone.ErrUnavailable) {
		t.Errorf("confirm of an unknown sid = %v", err)
	}
}

func TestLookupWithoutCallerName(t *testing.T) {
	d := newDouble(t)
	c := newClient(t, d, token)
	n := number(t, "+44 7400 123456")
	l, err := c.Lookup(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	if l != (phone.Lookup{LineType: phone.LineMobile, CarrierName: "Double Wireless"}) {
		t.Errorf("lookup = %+v", l)
	}
	d.SetLine(n.E164, twiliotest.Line{Type: "somethingNew"})
	if l, _ := c.Lookup(context.Background(), n); l.LineType != phone.LineUnknown {
		t.Errorf("a type Twilio adds later = %q, want unknown", l.LineType)
	}
}

func TestFailures(t *testing.T) {
	d := newDouble(t)
	ctx := context.Background()
	n := number(t, "(201) 555-0123")
	c := newClient(t, d, token)
	for code, want := range map[int]error{60205: phone.ErrUndeliverable, 21211: phone.ErrUndeliverable, 60203: phone.ErrUnavailable, 20429: phone.ErrUnavailable} {
		d.FailNext(n.E164, code)
		if _, err := c.Send(ctx, n, "123456", ""); !errors.Is(err, want) {
			t.Errorf("Twilio code %d: %v, want %v", code, err, want)
		}
	}
	bad := newClient(t, d, "wrong-token")
	_, err := bad.Send(ctx, n, "123456", "")
	if !errors.Is(err, phone.ErrUnavailable) || strings.Contains(err.Error(), "wrong-token") {
		t.Errorf("wrong credentials: %v", err)
	}
	if _, err := bad.Lookup(ctx, n); !errors.Is(err, phone.ErrUnavailable) || strings.Contains(err.Error(), n.E164) {
		t.Errorf("lookup with wrong credentials: %v", err)
	}
	// A host that does not answer: unavailable, and the error does not
	// carry the number (it is in the Lookup URL).
	down, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: token, VerifyServiceSID: service,
		VerifyURL: "http://127.0.0.1:1", LookupURL: "http://127.0.0.1:1", Transport: http.DefaultTransport})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.Lookup(ctx, n); !errors.Is(err, phone.ErrUnavailable) || strings.Contains(err.Error(), "5550123") {
		t.Errorf("lookup on a dead host: %v", err)
	}
}

func TestConfig(t *testing.T) {
	for _, cfg := range []twilio.Config{
		{AuthToken: token, VerifyServiceSID: service},
		{AccountSID: sid, VerifyServiceSID: service},
		{AccountSID: sid, AuthToken: token},
		{AccountSID: sid, AuthToken: token, VerifyServiceSID: "VAxyz"},
		{AccountSID: sid, AuthToken: token, VerifyServiceSID: service, VerifyURL: "ftp://x"},
	} {
		if _, err := twilio.New(cfg); err == nil || strings.Contains(err.Error(), token) {
			t.Errorf("New(%+v) = %v", cfg, err)
		}
	}
}
