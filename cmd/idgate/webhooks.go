package main

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
)

// webhooks is webhook delivery in serve: the SSRF-safe sender signing with
// the accounts' secrets and the worker over the store's outbox (on SQLite
// through its single writer connection), woken by every commit that
// enqueues. routes are what the server's webhook endpoints need.
type webhooks struct {
	store  *sqlstore.DB
	worker *webhook.Worker
	routes vhttp.WebhookDeps
	log    *slog.Logger
}

func newWebhooks(cfg config.Config, store *sqlstore.DB, log *slog.Logger) (*webhooks, error) {
	sealer, err := serverSealer(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.WebhookAllowLoopback {
		log.Warn("webhooks may reach loopback receivers (IDGATE_WEBHOOK_ALLOW_LOOPBACK): for dev and tests only")
	}
	roots, err := webhookRoots(cfg.WebhookCAFile)
	if err != nil {
		return nil, err
	}
	secrets := verifier.WebhookSecrets{Store: store, Sealer: sealer, Now: time.Now}
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: cfg.WebhookAllowLoopback, RootCAs: roots, Secrets: secrets})
	worker := webhook.NewWorker(store, sender, webhook.WorkerOptions{Log: log})
	return &webhooks{store: store, worker: worker, log: log,
		routes: vhttp.WebhookDeps{Queue: store, Secrets: secrets, Wake: worker.Wake}}, nil
}

// webhookRoots is what deliveries trust: nil (the system's roots) without
// IDGATE_WEBHOOK_CA_FILE, else the system's roots and the file's
// certificates. SSL_CERT_FILE cannot stand in for it: macOS ignores it, and
// it would change every other connection's trust too.
func webhookRoots(file string) (*x509.CertPool, error) {
	if file == "" {
		return nil, nil
	}
	pemBytes, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("IDGATE_WEBHOOK_CA_FILE: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool() // no system store here: the file alone
	}
	if !pool.AppendCertsFromPEM(pemBytes) {
		return nil, fmt.Errorf("IDGATE_WEBHOOK_CA_FILE: no PEM certificate in %s", file)
	}
	return pool, nil
}

// start runs the worker until ctx ends; the returned stop then waits until
// the attempts in flight are recorded (each within webhook.Timeout), so a
// shutdown loses nothing.
func (w *webhooks) start(ctx context.Context) func() {
	w.store.OnWebhookEnqueued(w.worker.Wake)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := w.worker.Run(wctx); err != nil && !errors.Is(err, context.Canceled) {
			w.log.Error("webhook worker stopped", "err", err)
		}
	}()
	return func() {
		cancel()
		<-done
		w.store.OnWebhookEnqueued(nil)
	}
}

// serverSealer seals under the server key. IDGATE_SECRET_KEY always wins;
// without it production refuses to start and dev generates (once) and
// reuses IDGATE_SECRET_KEY_FILE.
func serverSealer(cfg config.Config) (*seal.Sealer, error) {
	var key []byte
	var err error
	switch {
	case cfg.SecretKey != "":
		if key, err = seal.ParseKey(cfg.SecretKey); err != nil {
			return nil, fmt.Errorf("IDGATE_SECRET_KEY: %w", err)
		}
	case cfg.Dev():
		if key, err = seal.LoadOrCreateKey(cfg.SecretKeyFile); err != nil {
			return nil, fmt.Errorf("IDGATE_SECRET_KEY_FILE: %w", err)
		}
	default:
		return nil, errors.New("IDGATE_SECRET_KEY is required in production (base64 of 32 random bytes, e.g. $(openssl rand -base64 32)), or run serve --dev")
	}
	return seal.New(key)
}
