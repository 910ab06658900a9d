package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"github.com/idgate/idgate/verifier/face/models"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	rlredis "github.com/idgate/idgate/internal/ratelimit/redis"
	"github.com/idgate/idgate/verifier"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
)

func init() {
	register(command{
		Name:    "serve",
		Summary: "run the verifier API (IDGATE_* environment; --dev: text logs, generated JWT keys, demo account)",
		Run:     runServe,
	})
}

// demoEmail is the account `serve --dev` creates on first start.
const demoEmail = "demo@idgate.local"

func runServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dev := fs.Bool("dev", false, "dev mode: text logs, JWT keys generated into IDGATE_JWT_KEYS_FILE, demo account, http://localhost origins")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		return err
	}
	if *dev {
		cfg.Env = config.EnvDev
	}
	log := newLogger(cfg, stderr)
	if err := checkModels(cfg.ModelsDir); err != nil {
		return err
	}

	store, err := sqlstore.Open(ctx, cfg.DatabaseURL) // applies migrations
	if err != nil {
		return err
	}
	defer store.Close()
	keys, err := signingKeys(cfg)
	if err != nil {
		return err
	}
	auth, err := verifier.NewAuthenticator(store, verifier.TokenConfig{Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience, TTL: cfg.TokenTTL, Keys: keys}, time.Now)
	if err != nil {
		return err
	}
	plan, err := verifier.ParsePlan(cfg.Plan)
	if err != nil {
		return fmt.Errorf("IDGATE_PLAN: %w", err)
	}
	limiter, ready, closeLimiter, err := newLimiter(cfg, log)
	if err != nil {
		return err
	}
	defer closeLimiter()
	if cfg.Dev() {
		if err := ensureDemoAccount(ctx, store, stdout); err != nil {
			return err
		}
	}
	// Listen first: without IDGATE_PUBLIC_URL, end-user links point at the
	// address actually bound (IDGATE_ADDR may ask for port 0).
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String()
	}
	ipi, ipReady, stopIP, err := newIPIntel(ctx, cfg, log)
	if err != nil {
		return err
	}
	ready = append(ready, ipReady)
	defer stopIP()
	fl, err := newFlow(cfg, store, log, ipi)
	if err != nil {
		return err
	}
	hooks, err := newWebhooks(cfg, store, log)
	if err != nil {
		return err
	}
	srv, err := vhttp.New(vhttp.Deps{
		Store: store, Limiter: limiter, Auth: auth, Logger: log, Now: time.Now, Ready: ready, Flow: fl, Webhooks: hooks.routes,
		Unavailable: sqlstore.Unavailable,
		Config: vhttp.Config{
			BodyLimit: cfg.BodyLimit, ReadTimeout: cfg.ReadTimeout, IdleTimeout: cfg.IdleTimeout,
			TrustedProxies: cfg.TrustedProxies, Dev: cfg.Dev(), AuthLimit: vhttp.DefaultAuthLimit,
			CreateLimit: vhttp.DefaultCreateLimit, GetLimit: vhttp.DefaultGetLimit,
			PublicURL: publicURL, Plan: plan, WebhookAllowLoopback: cfg.WebhookAllowLoopback,
			FlowUploadLimit: vhttp.DefaultFlowUploadLimit, FlowChallengeLimit: vhttp.DefaultFlowChallengeLimit,
		},
	})
	if err != nil {
		return err
	}
	defer hooks.start(ctx)() // drains after the HTTP server
	fmt.Fprintf(stdout, "idgate verifier listening on http://%s\n", ln.Addr())
	fmt.Fprintf(stdout, "dashboard: http://%s/dashboard\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "env", cfg.Env)

	// The expiry sweeper runs on every instance; ExpireDue lets them share
	// the work. The scheduled personal-data purge rides on it. It stops
	// with the server.
	sweepCtx, stopSweeper := context.WithCancel(context.WithoutCancel(ctx))
	defer stopSweeper()
	purge := func(ctx context.Context) (int, error) { return fl.PurgeDue(ctx, cfg.PIIRetention) }
	go verifier.Sweeper{Store: store, Now: time.Now, Interval: cfg.SweepInterval, Log: log, Purge: purge}.Run(sweepCtx)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Drain: stop accepting, let in-flight requests finish within the timeout.
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	return nil
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.Dev() {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// signingKeys: IDGATE_JWT_KEYS always wins; without it production refuses
// to start and dev generates (once) and reuses IDGATE_JWT_KEYS_FILE.
func signingKeys(cfg config.Config) ([]verifier.SigningKey, error) {
	switch {
	case cfg.JWTKeys != "":
		return verifier.ParseSigningKeys(cfg.JWTKeys)
	case cfg.Dev():
		return verifier.LoadOrCreateKeyFile(cfg.JWTKeysFile)
	}
	return nil, errors.New("IDGATE_JWT_KEYS is required in production (kid:base64secret,...; e.g. k1:$(openssl rand -base64 32)), or run serve --dev")
}

// newLimiter is Redis when IDGATE_REDIS_URL is set, else the in-process
// limiter. While Redis is unreachable the in-process limiter stands in
// (limits become per instance rather than vanishing or locking everyone
// out); /readyz then reports "degraded" but keeps the instance in rotation.
func newLimiter(cfg config.Config, log *slog.Logger) (ratelimit.Limiter, []vhttp.ReadyCheck, func(), error) {
	if cfg.RedisURL == "" {
		return memory.New(time.Now), nil, func() {}, nil
	}
	opts, err := goredis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("IDGATE_REDIS_URL: %w", err)
	}
	// Short timeouts and no dial retries: a dead Redis should cost one
	// quick failure per probe, not seconds per request.
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 500*time.Millisecond, 500*time.Millisecond, 500*time.Millisecond
	opts.MaxRetries, opts.DialerRetries = 1, 1
	client := goredis.NewClient(opts)
	ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
	onError := func(err error) { log.Warn("rate limiter: Redis unavailable, counting in process", "err", err) }
	limiter := ratelimit.Fallback(rlredis.New(client, "idgate:rl:", time.Now), memory.New(time.Now), onError)
	return limiter, []vhttp.ReadyCheck{{Name: "redis", Check: ping, Degraded: true}}, func() { client.Close() }, nil
}

// ensureDemoAccount creates the demo account with a random password on the
// first dev start and prints the credentials; later starts only remind, and
// say how to get in without it: the password is kept nowhere but that
// first output, so a newcomer who scrolled past it needs the way out here.
func ensureDemoAccount(ctx context.Context, store verifier.Store, stdout io.Writer) error {
	_, err := store.GetAccountByEmail(ctx, demoEmail)
	if err == nil {
		fmt.Fprintf(stdout, "demo account: %s (password printed on first start; lost it? make another account: "+
			"var/idgate account create --email you@example.com --name 'Your Shop' --password-stdin)\n", demoEmail)
		return nil
	}
	if !errors.Is(err, verifier.ErrNotFound) {
		return fmt.Errorf("demo account: %w", err)
	}
	raw := make([]byte, 12)
	if _, err := rand.Read(raw); err != nil {
		return fmt.Errorf("demo account: %w", err)
	}
	pw := base64.RawURLEncoding.EncodeToString(raw)
	a, err := verifier.NewAccount(demoEmail, pw, time.Now())
	if err != nil {
		return fmt.Errorf("demo account: %w", err)
	}
	a.Branding.DisplayName = "idgate demo"
	if err := store.CreateAccount(ctx, a); err != nil {
		return fmt.Errorf("demo account: %w", err)
	}
	fmt.Fprintf(stdout, "demo account created: email %s password %s\n", demoEmail, pw)
	return nil
}

// checkModels verifies every face model file (sha256) before serving, so a
// missing or corrupt model stops start-up, with a message naming `make
// models`, instead of failing a verification halfway through.
func checkModels(dir string) error {
	set, err := models.Open(dir, models.Hashes)
	if err != nil {
		return fmt.Errorf("face models: %w", err)
	}
	if err := set.Check(); err != nil {
		return fmt.Errorf("face models: %w", err)
	}
	return nil
}
