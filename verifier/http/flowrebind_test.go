package http

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// TestFlowWebhookRefusedAtDial: a webhook_url naming example.com passes the
// production check at creation; the link is completed through the flow on
// the real engines; the name then resolves to the loopback receiver, and
// the production sender (loopback not allowed) refuses every attempt at
// dial: nothing arrives, the log says why, after three attempts the
// webhook has failed and the result is still there to GET (docs/security.md).
func TestFlowWebhookRefusedAtDial(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		store := open(t)
		h := newFlowHarness(t, func(*testing.T) *sqlstore.DB { return store }, func(d *Deps) {
			d.Config.WebhookAllowLoopback = false // as in production
			d.Webhooks = WebhookDeps{Queue: store}
		})
		secrets := verifier.WebhookSecrets{Store: store, Sealer: h.sealer, Now: h.clock.Now}
		sender := webhook.NewSender(webhook.SenderOptions{RootCAs: h.rcv.Pool, Secrets: secrets, Now: h.clock.Now,
			Resolver: webhooktest.LoopbackDNS(t)})
		h.worker = webhook.NewWorker(store, sender, webhook.WorkerOptions{Now: h.clock.Now, Log: slog.New(slog.DiscardHandler)})

		v, tok := h.link(fmt.Sprintf(`{"requested_fields":["dob"],"encryption_key_mode":"none","webhook_url":%q}`, h.rcv.ExampleURL()))
		h.steps(tok, frontPhoto(t, foremanFace(t), 1))
		var done flow.SubmitAnswer
		h.ok(h.post(tok, "/submit", "", nil), 200, &done)
		if done.Status != "completed" {
			t.Fatalf("submit answered %s, want completed", done.Status)
		}

		// The three attempts, 5 s and then 15 s apart.
		for _, wait := range []time.Duration{0, 5 * time.Second, 15 * time.Second} {
			h.clock.Advance(wait)
			if n, err := h.worker.RunOnce(context.Background()); err != nil || n != 1 {
				t.Fatalf("RunOnce after %s = %d, %v; want 1", wait, n, err)
			}
		}
		if n := len(h.rcv.Requests()); n != 0 {
			t.Fatalf("the receiver got %d requests", n)
		}
		var log deliveriesBody
		h.ok(h.do("GET", "/verification/webhook/deliveries?id="+v.ID, "", "Authorization", h.bearer), 200, &log)
		if log.WebhookStatus != "failed" || len(log.Deliveries) != 1 || log.Deliveries[0].State != "failed" ||
			len(log.Deliveries[0].Attempts) != 3 {
			t.Fatalf("delivery log %+v", log)
		}
		for i, at := range log.Deliveries[0].Attempts {
			if at.Attempt != i+1 || at.StatusCode != 0 || !strings.Contains(at.Error, "127.0.0.1") ||
				!strings.Contains(at.Error, "refused: loopback address") {
				t.Errorf("attempt %d: %+v", i+1, at)
			}
		}
		got := h.get(h.bearer, v.ID)
		if got.Status != "completed" || got.WebhookStatus != "failed" || !strings.Contains(string(got.Result), `"dob"`) {
			t.Fatalf("GET after the failed webhook: %+v %s", got, got.Result)
		}
	})
}
