package webhook_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// A public-looking name passes the check at creation, so only the dial-time
// guard stands between it and a private address it resolves to (or is
// re-pointed at later). With a DNS server answering 127.0.0.1 for every
// name, the delivery is refused at dial and the receiver gets nothing;
// with loopback allowed, the same name reaches it, which shows the name
// really resolved there.
func TestDeliverRefusesNameResolvingToLoopback(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	port := r.URL[strings.LastIndex(r.URL, ":")+1:]
	// example.com is a name in httptest's certificate, so TLS holds when
	// loopback is allowed.
	target := "https://example.com:" + port[:strings.Index(port, "/")] + "/hooks/idgate"
	if err := webhook.ValidateURL(target, false); err != nil {
		t.Fatalf("the name is refused before DNS, so this test would prove nothing: %v", err)
	}
	resolver := loopbackDNS(t)

	s := webhook.NewSender(webhook.SenderOptions{RootCAs: r.Pool, Secrets: secrets, Resolver: resolver})
	res := s.Deliver(context.Background(), delivery(target))
	var re *webhook.RefusedError
	if res.OK() || !errors.As(res.Err, &re) || !strings.Contains(re.Reason, "loopback") {
		t.Fatalf("got %+v, want refused at dial as loopback", res)
	}
	if n := len(r.Requests()); n != 0 {
		t.Fatalf("receiver got %d requests", n)
	}

	allowed := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: r.Pool, Secrets: secrets, Resolver: resolver})
	if res := allowed.Deliver(context.Background(), delivery(target)); !res.OK() {
		t.Fatalf("with loopback allowed: %+v", res)
	}
}

// loopbackDNS serves DNS on a loopback UDP port, answering every A question
// with 127.0.0.1 (and other types with no records), and returns a resolver
// that asks only it.
func loopbackDNS(t *testing.T) *net.Resolver {
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
