package flow

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/phone"
)

// portAddress is a scripted address.Provider counting its calls.
type portAddress struct {
	r     address.Result
	err   error
	calls *int
}

func (p portAddress) Name() string { return "port" }
func (p portAddress) Verify(context.Context, address.Query) (address.Result, error) {
	if p.calls != nil {
		*p.calls++
	}
	return p.r, p.err
}

// portSubscribers is a scripted address.SubscriberMatcher recording the
// numbers it was asked about.
type portSubscribers struct {
	m     address.SubscriberMatch
	err   error
	asked []string
}

func (p *portSubscribers) Name() string { return "port" }
func (p *portSubscribers) MatchSubscriber(_ context.Context, e164 string, _ address.Query) (address.SubscriberMatch, error) {
	p.asked = append(p.asked, e164)
	return p.m, p.err
}

// TestAddressCheckNames: the names come from the verified number's record
// only on a live link whose number was verified, only when the address
// provider matched none itself, and stay null on any failure or gap.
func TestAddressCheckNames(t *testing.T) {
	lic := license.License{FirstNames: "ALEX", LastName: "SAMPLE", Country: "USA",
		Address: license.Address{Line1: "123 TEST STREET", City: "SPRINGFIELD", Jurisdiction: "IL", PostalCode: "62701"}}
	e := address.LevelExact
	holder := address.SubscriberMatch{FirstName: e, LastName: e, AddressLine: e, City: e, State: e, PostalCode: e}
	live, test := verifier.Verification{Mode: verifier.ModeLive}, verifier.Verification{Mode: verifier.ModeTest}
	verified := &PhoneState{Number: phone.Number{E164: "+12175550123"}, Verified: true}
	unverified := &PhoneState{Number: phone.Number{E164: "+12175550123"}, Failed: true}
	deliverable := portAddress{r: address.Result{Deliverable: true}}
	const null = `{"address_deliverable":true,"name_at_address":null,"last_name_at_address":null}`
	for _, c := range []struct {
		name  string
		addr  portAddress
		subs  *portSubscribers
		v     verifier.Verification
		p     *PhoneState
		want  string
		asked int
	}{
		{"live, verified, the holder's record", deliverable, &portSubscribers{m: holder}, live, verified,
			`{"address_deliverable":true,"name_at_address":true,"last_name_at_address":false}`, 1},
		{"no phone step", deliverable, &portSubscribers{m: holder}, live, nil, null, 0},
		{"the number not verified", deliverable, &portSubscribers{m: holder}, live, unverified, null, 0},
		{"a test link never reaches the source", deliverable, &portSubscribers{m: holder}, test, verified, null, 0},
		{"the source fails", deliverable, &portSubscribers{err: address.ErrUnavailable}, live, verified, null, 1},
		{"the record lacks data", deliverable, &portSubscribers{}, live, verified, null, 1},
		{"the provider matched names itself", portAddress{r: address.Result{Deliverable: true, NamesChecked: true, LastNameOnly: true}},
			&portSubscribers{m: holder}, live, verified, `{"address_deliverable":true,"name_at_address":false,"last_name_at_address":true}`, 0},
		{"the address check did not run", portAddress{err: errors.New("down")}, &portSubscribers{m: holder}, live, verified, "null", 0},
	} {
		f := &Flow{Address: c.addr, Subscribers: c.subs}
		got, err := json.Marshal(f.addressCheck(context.Background(), c.v, lic, verifiedNumber(c.v, c.p)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want || len(c.subs.asked) != c.asked {
			t.Errorf("%s: %s, source asked %v; want %s, asked %d times", c.name, got, c.subs.asked, c.want, c.asked)
		}
	}
}

// TestAddressCheckTestLink: a test verification's address check never
// reaches the configured provider; address.TestProvider answers from the
// address's form, with no names.
func TestAddressCheckTestLink(t *testing.T) {
	calls := 0
	f := &Flow{Address: portAddress{r: address.Result{Deliverable: false}, calls: &calls}}
	lic := license.License{Country: "USA", Address: license.Address{Line1: "123 TEST STREET", City: "SPRINGFIELD", Jurisdiction: "IL", PostalCode: "62701"}}
	got, _ := json.Marshal(f.addressCheck(context.Background(), verifier.Verification{Mode: verifier.ModeTest}, lic, ""))
	if string(got) != `{"address_deliverable":true,"name_at_address":null,"last_name_at_address":null}` || calls != 0 {
		t.Errorf("test link: %s, configured provider called %d times", got, calls)
	}
	got, _ = json.Marshal(f.addressCheck(context.Background(), verifier.Verification{Mode: verifier.ModeLive}, lic, ""))
	if string(got) != `{"address_deliverable":false,"name_at_address":null,"last_name_at_address":null}` || calls != 1 {
		t.Errorf("live link: %s, configured provider called %d times", got, calls)
	}
	// With no provider configured the check cannot run, test link or not.
	if a := (&Flow{}).addressCheck(context.Background(), verifier.Verification{Mode: verifier.ModeTest}, lic, ""); a != nil {
		t.Errorf("no provider: %+v", a)
	}
}
