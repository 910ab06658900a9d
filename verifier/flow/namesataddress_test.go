package flow_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/address/lob"
	"github.com/idgate/idgate/verifier/address/lob/lobtest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/phone/twilio"
	"github.com/idgate/idgate/verifier/phone/twilio/twiliotest"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// With address and phone verification, the names at the address come from
// Identity Match on the number the end user verified (the Twilio double,
// every call checked against Lookup v2's document) and deliverability from
// Lob (its double, checked against Lob's): the holder's own record gives
// name_at_address true, a household member's last_name_at_address true, a
// record elsewhere both false, no record both null. A link whose number
// was not verified, or that did not ask for phone verification, never asks
// Twilio and keeps them null. Only the name and the address leave, never
// the birth date or the document number.
func TestNamesAtAddress(t *testing.T) {
	ld, err := lobtest.New(lobtest.Options{Dir: testkit.Data(t, "testdata", "lob"), APIKey: "live_flowtest",
		OnViolation: func(m string) { t.Error(m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ld.Close)
	lc, err := lob.New(lob.Config{APIKey: "live_flowtest", BaseURL: ld.URL})
	if err != nil {
		t.Fatal(err)
	}
	const sid, token = "AC00000000000000000000000000000001", "flowtest-auth-token"
	tw, err := twiliotest.New(twiliotest.Options{Dir: testkit.Data(t, "testdata", "twilio"), AccountSID: sid,
		AuthToken: token, OnViolation: func(msg string) { t.Error(msg) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tw.Close)
	tc, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: token, VerifyServiceSID: "VA00000000000000000000000000000001",
		VerifyURL: tw.URL, LookupURL: tw.URL})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, parts.OpenSQLite(t))
	r.flow.Phone, r.flow.Subscribers, r.flow.Address = tc, tc, lc
	ctx := context.Background()

	const both = `{"address_verification":true,"phone_verification":true,"encryption_key_mode":"none"}`
	// complete walks a link to completed, verifying number (or entering
	// five wrong codes when verify is false), and returns the license read
	// and address_verification as JSON.
	complete := func(body, number string, verify bool, photo uint64) (license.License, string) {
		t.Helper()
		id, tok := r.create(body)
		lic := r.licenseSteps(tok, r.front(r.foremanFace(), photo))
		if ans := r.answer(tok, r.foreman()); !ans.Passed {
			t.Fatalf("Foreman's answer failed: %+v", ans)
		}
		if number != "" {
			if _, err := r.flow.PhoneSend(ctx, tok, flow.PhoneRequest{PhoneNumber: number, Locale: "en"}); err != nil {
				t.Fatal(err)
			}
			msgs := tw.Messages()
			code := msgs[len(msgs)-1].Code
			if !verify {
				code = wrongCode(code)
			}
			for range 5 {
				a, err := r.flow.PhoneCheck(ctx, tok, code)
				if err != nil {
					t.Fatal(err)
				}
				if a.Verified {
					break
				}
			}
		}
		if done, err := r.flow.Submit(ctx, tok, "203.0.113.9"); err != nil || done.Status != "completed" {
			t.Fatalf("submit %+v, %v", done, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(r.verification(id).Result, &m); err != nil {
			t.Fatal(err)
		}
		return lic, string(m["address_verification"])
	}
	lic, _ := complete(`{"address_verification":true}`, "", false, 1)
	if n := len(tw.IdentityQueries()); n != 0 {
		t.Fatalf("no phone asked for, yet Twilio was asked %d times", n)
	}
	a := lic.Address
	holder := twiliotest.Subscriber{FirstName: lic.FirstNames, LastName: lic.LastName, Line1: a.Line1, City: a.City,
		State: a.Jurisdiction, PostalCode: a.PostalCode}
	family, elsewhere := holder, holder
	family.FirstName = "ZED"
	elsewhere.Line1, elsewhere.City, elsewhere.PostalCode = "9 LAKE RD", "NOWHERE", "00000"
	tw.SetSubscriber("+12015550111", holder)
	tw.SetSubscriber("+12015550112", family)
	tw.SetSubscriber("+12015550113", elsewhere)
	const null = `{"address_deliverable":true,"name_at_address":null,"last_name_at_address":null}`
	for i, c := range []struct {
		name, body, number string
		verify             bool
		want               string
		asked              int // Identity Match queries so far
	}{
		{"the holder's own line", both, "+1 201 555 0111", true, `{"address_deliverable":true,"name_at_address":true,"last_name_at_address":false}`, 1},
		{"a household member's line", both, "+1 201 555 0112", true, `{"address_deliverable":true,"name_at_address":false,"last_name_at_address":true}`, 2},
		{"a record at another address", both, "+1 201 555 0113", true, `{"address_deliverable":true,"name_at_address":false,"last_name_at_address":false}`, 3},
		{"no record for the number", both, "+1 201 555 0114", true, null, 4},
		{"the number not verified", both, "+1 201 555 0111", false, null, 4},
		{"no address asked for", `{"phone_verification":true,"encryption_key_mode":"none"}`, "+1 201 555 0111", true, "", 4},
	} {
		_, got := complete(c.body, c.number, c.verify, uint64(i+2))
		if got != c.want {
			t.Errorf("%s: address_verification %s, want %s", c.name, got, c.want)
		}
		if n := len(tw.IdentityQueries()); n != c.asked {
			t.Errorf("%s: Identity Match asked %d times in all, want %d", c.name, n, c.asked)
		}
	}
	q := tw.IdentityQueries()[0]
	want := url.Values{"Fields": {"identity_match"}, "FirstName": {lic.FirstNames}, "LastName": {lic.LastName},
		"AddressLine1": {a.Line1}, "City": {a.City}, "State": {a.Jurisdiction}, "PostalCode": {a.PostalCode}, "AddressCountryCode": {"US"}}
	if a.Line2 != "" {
		want["AddressLine2"] = []string{a.Line2}
	}
	if got, w := q.Encode(), want.Encode(); got != w {
		t.Errorf("Identity Match query %s, want %s", got, w)
	}
	if s := q.Encode(); strings.Contains(s, "DateOfBirth") || strings.Contains(s, "NationalId") || strings.Contains(s, lic.DocumentNumber) {
		t.Errorf("more than the name and address went to Twilio: %s", s)
	}
}

// wrongCode is a six-digit code other than code.
func wrongCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}
