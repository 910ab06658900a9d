package webhooktest

import (
	"context"
	"testing"

	"github.com/idgate/idgate/verifier/webhook"
)

// RunWorker runs w until the test ends, woken by the store's notice of a new
// delivery: notify is the store's OnWebhookEnqueued (it is handed nil again
// when the worker stops).
func RunWorker(t testing.TB, w *webhook.Worker, notify func(func())) {
	t.Helper()
	notify(w.Wake)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done; notify(nil) })
}
