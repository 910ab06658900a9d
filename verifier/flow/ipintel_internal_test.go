package flow

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
)

// portIPIntel is a scripted IPIntel port recording what it was asked.
type portIPIntel struct {
	a                  ipintel.Assessment
	ok                 bool
	connErr, locErr    error
	gotBack, gotSubmit string
	gotAddr            ipintel.Address
}

func (p *portIPIntel) Connection(back, submit string) (ipintel.Assessment, bool, error) {
	p.gotBack, p.gotSubmit = back, submit
	return p.a, p.ok, p.connErr
}

func (p *portIPIntel) Locate(addr ipintel.Address, back, submit string) (ipintel.Consistency, error) {
	p.gotAddr = addr
	return ipintel.Consistency{Result: ipintel.Consistent, Reasons: []string{}}, p.locErr
}

func TestConnectionFillsTheOutcome(t *testing.T) {
	lic := license.License{Country: "USA", Address: license.Address{City: "PHILADELPHIA", Jurisdiction: "PA", PostalCode: "19103"}}
	s := Session{Back: &BackDone{License: lic}, BackIP: "203.0.113.9", SubmitIP: "203.0.113.10"}
	tor := ipintel.Assessment{Found: true, Proxy: true, Type: ipintel.ProxyTor, Description: "Tor exit relay"}
	cases := []struct {
		name         string
		port         *portIPIntel
		want         bool
		wantIP       *verifier.IPIntel
		wantLocation bool
	}{
		{"ran", &portIPIntel{a: tor, ok: true}, true, &verifier.IPIntel{Found: true, Proxy: true, Type: "tor", Description: "Tor exit relay"}, true},
		{"not requested", &portIPIntel{a: tor, ok: true}, false, &verifier.IPIntel{Found: true, Proxy: true, Type: "tor", Description: "Tor exit relay"}, false},
		{"no usable IP", &portIPIntel{}, true, nil, true},
		{"data unreadable", &portIPIntel{connErr: errors.New("corrupt"), locErr: errors.New("corrupt")}, true, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &Flow{IP: c.port}
			var o verifier.Outcome
			f.connection(&o, s, c.want)
			if (o.IP == nil) != (c.wantIP == nil) || (o.IP != nil && *o.IP != *c.wantIP) {
				t.Errorf("IP %+v, want %+v", o.IP, c.wantIP)
			}
			if (o.Location != nil) != c.wantLocation {
				t.Errorf("location %+v, want present %v", o.Location, c.wantLocation)
			}
			if c.port.gotBack != "203.0.113.9" || c.port.gotSubmit != "203.0.113.10" {
				t.Errorf("asked about %q, %q", c.port.gotBack, c.port.gotSubmit)
			}
			if c.wantLocation && c.port.gotAddr != (ipintel.Address{City: "PHILADELPHIA", Jurisdiction: "PA", PostalCode: "19103", Country: "USA"}) {
				t.Errorf("address %+v", c.port.gotAddr)
			}
		})
	}
	// Without the port nothing runs: every member stays absent.
	var o verifier.Outcome
	(&Flow{}).connection(&o, s, true)
	if o.IP != nil || o.Location != nil {
		t.Errorf("no IP intelligence: %+v %+v", o.IP, o.Location)
	}
}
