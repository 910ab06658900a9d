package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

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
	target := r.ExampleURL()
	if err := webhook.ValidateURL(target, false); err != nil {
		t.Fatalf("the name is refused before DNS, so this test would prove nothing: %v", err)
	}
	resolver := webhooktest.LoopbackDNS(t)

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
