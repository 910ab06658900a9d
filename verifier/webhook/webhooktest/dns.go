package webhooktest

import (
	"context"
	"net"
	"net/url"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// LoopbackDNS serves DNS on a loopback UDP port, answering every A question
// with 127.0.0.1 (and other types with no records), and returns a resolver
// that asks only it. With it a public-looking name, which passes the checks
// at creation, resolves to a Receiver, so only the dial-time guard stands
// between the two.
func LoopbackDNS(t testing.TB) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60},
					dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}})
			}
			if msg, err := b.Finish(); err == nil {
				_, _ = pc.WriteTo(msg, from)
			}
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}

// ExampleURL is r's URL with the host written as example.com (a name in
// httptest's certificate, so TLS holds wherever the name is let through).
func (r *Receiver) ExampleURL() string {
	u, err := url.Parse(r.URL)
	if err != nil {
		panic(err) // httptest's own URL
	}
	u.Host = net.JoinHostPort("example.com", u.Port())
	return u.String()
}
