package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
	"github.com/idgate/idgate/proxy/server"
	"github.com/idgate/idgate/proxy/storefile"
	"github.com/idgate/idgate/rulesets"
)

// Proxy settings read by the store commands (and by the proxy server).
const (
	envProxyKey    = "IDGATE_PROXY_KEY"    // base64 of 32 random bytes: openssl rand -base64 32
	envProxyStores = "IDGATE_PROXY_STORES" // the store file
	defaultStores  = "./var/proxy-stores.json"
	// maxSecretsInput bounds the secrets JSON read from stdin.
	maxSecretsInput = 64 << 10
)

func init() {
	register(command{
		Name:    "store add",
		Summary: "add or replace a storefront in the proxy's store file; secrets as JSON on stdin",
		Run:     runStoreAdd,
	})
	register(command{
		Name:    "store install",
		Summary: "install the footer script (and the order guard's webhook) on a configured store: --hash H --proxy-url URL",
		Run:     runStoreInstall,
	})
	register(command{
		Name:    "store serve",
		Summary: "run the storefront proxy for the stores in IDGATE_PROXY_STORES (IDGATE_PROXY_* environment)",
		Run:     runStoreServe,
	})
	register(command{
		Name:    "store demo",
		Summary: "serve a demo storefront with the footer widget, backed by a BigCommerce test double (no credentials)",
		Run:     runStoreDemo,
	})
	register(command{
		Name:    "store remove",
		Summary: "remove a storefront and its sealed secrets from the store file (running proxies stop serving it on their next request): --hash H",
		Run:     runStoreRemove,
	})
	register(command{
		Name:    "store list",
		Summary: "list the proxy's storefronts (never their secrets)",
		Run:     runStoreList,
	})
}

// storeSecrets is the stdin of `store add`: secrets never go on the
// command line, where ps and shell history would keep them.
type storeSecrets struct {
	AccessToken     string `json:"access_token"`
	AppClientSecret string `json:"app_client_secret"`
	WebhookSecret   string `json:"webhook_secret"`
}

// proxySealer reads IDGATE_PROXY_KEY.
func proxySealer() (*seal.Sealer, error) {
	text := os.Getenv(envProxyKey)
	if text == "" {
		return nil, fmt.Errorf("%s is not set (generate one with: openssl rand -base64 32)", envProxyKey)
	}
	key, err := seal.ParseKey(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", envProxyKey, err)
	}
	return seal.New(key)
}

func storesPath(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if v := os.Getenv(envProxyStores); v != "" {
		return v
	}
	return defaultStores
}

func runStoreAdd(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("store add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "store file (default $"+envProxyStores+" or "+defaultStores+")")
	storeURL := fs.String("url", "", "storefront URL; the hash is derived from https://store-{hash}.mybigcommerce.com")
	hash := fs.String("hash", "", "store hash (required for a custom domain)")
	clientID := fs.String("client-id", "", "app client ID (verifies the Current Customer JWT)")
	integrationKey := fs.String("integration-key", "", "verifier integration key (publishable); its allowlist must hold the origins")
	origins := fs.String("origins", "", "comma-separated storefront origins allowed by CORS (default: the URL's origin)")
	hold := fs.Bool("hold-checkout", false, "disable the checkout buttons until verified")
	guard := fs.Bool("order-guard", false, "put orders without a passing verification into status 12 (Manual Verification Required)")
	testMode := fs.Bool("test-mode", false, "accept results of test verifications (livemode false), marked as test on the cart; required with a test integration key (idgk_test_…)")
	minTotal := fs.String("min-total", "", "order guard: verify orders whose total with tax is at least this amount (e.g. 50); with the ship-to flags, any one matching")
	countries := fs.String("ship-to-countries", "", "order guard: verify orders shipping to these countries (comma-separated ISO codes, e.g. US,CA)")
	states := fs.String("ship-to-states", "", "order guard: verify orders shipping to these states or provinces (comma-separated names, e.g. Texas)")
	release := fs.Int("release-status", proxy.ReleaseAsBefore, "order guard: the BigCommerce status a verified or approved order moves to (0: the status it was held from; 11 Awaiting Fulfillment, 9 Awaiting Shipment, 8 Awaiting Pickup, 7 Awaiting Payment)")
	selectors := fs.String("selectors", "", "comma-separated CSS selectors of checkout buttons (default: Cornerstone's)")
	ruleset := fs.String("ruleset", "{}", `ruleset JSON, e.g. {"require_over_21":true}; absent keys keep defaults`)
	ttl := fs.Duration("approval-ttl", proxy.DefaultApprovalTTL, "how long a passing verification keeps the shopper verified")
	guestToAccount := fs.Bool("guest-to-account", false, "a guest's verification carries to the customer account their order names (an account made at checkout)")
	apiBase := fs.String("api-base-url", "", "Management API base URL override (local demo only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 || (*storeURL == "" && *hash == "") {
		fs.Usage()
		return errors.New("--url or --hash is required, and no arguments are taken")
	}
	rs, err := rulesets.Parse([]byte(*ruleset))
	if err != nil {
		return err
	}
	triggers := proxy.Triggers{ShipToCountries: proxy.SplitList(*countries), ShipToStates: proxy.SplitList(*states)}
	if *minTotal != "" {
		if triggers.MinTotalCents, err = proxy.ParseCents(*minTotal); err != nil {
			return fmt.Errorf("--min-total: %w", err)
		}
	}
	var sec storeSecrets
	dec := json.NewDecoder(io.LimitReader(stdin, maxSecretsInput))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sec); err != nil {
		return fmt.Errorf(`read secrets from stdin: want {"access_token":"…","app_client_secret":"…","webhook_secret":"whsec_…"}: %w`, err)
	}
	sealer, err := proxySealer()
	if err != nil {
		return err
	}
	headerValue := make([]byte, 32)
	if _, err := rand.Read(headerValue); err != nil {
		return fmt.Errorf("generate webhook header value: %w", err)
	}
	st := &proxy.Store{
		Hash: *hash, URL: *storeURL, APIBaseURL: *apiBase,
		AccessToken: bigcommerce.Secret(sec.AccessToken), AppClientID: *clientID,
		AppClientSecret: bigcommerce.Secret(sec.AppClientSecret), IntegrationKey: *integrationKey,
		WebhookSecret: bigcommerce.Secret(sec.WebhookSecret),
		// Only the proxy and the verifier ever see it: the proxy sends it as
		// webhook_headers when it creates a verification.
		WebhookHeaderValue: bigcommerce.Secret(base64.RawURLEncoding.EncodeToString(headerValue)),
		Ruleset:            rs, HoldCheckout: *hold, TestMode: *testMode, OrderGuard: *guard, Triggers: triggers, ReleaseStatus: *release, CheckoutSelectors: proxy.SplitList(*selectors),
		AllowedOrigins: proxy.SplitList(*origins), ApprovalTTL: *ttl, GuestToAccount: *guestToAccount,
	}
	path := storesPath(*file)
	if err := storefile.Put(path, sealer, st); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store %s saved in %s (origins %s)\n", st.Hash, path, strings.Join(st.AllowedOrigins, ", "))
	return nil
}

func runStoreRemove(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("store remove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "store file (default $"+envProxyStores+" or "+defaultStores+")")
	hash := fs.String("hash", "", "store hash (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *hash == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("--hash is required, and no arguments are taken")
	}
	sealer, err := proxySealer()
	if err != nil {
		return err
	}
	path := storesPath(*file)
	stores, err := storefile.Load(path, sealer)
	if err != nil {
		return err
	}
	if err := stores.Delete(ctx, *hash); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "store %s removed from %s (its footer script and webhooks stay on the store: uninstall the app, or delete them in BigCommerce)\n", *hash, path)
	return nil
}

// storeView is what `store list` prints: configuration, never secrets.
type storeView struct {
	Hash              string           `json:"store_hash"`
	URL               string           `json:"store_url"`
	AppClientID       string           `json:"app_client_id"`
	IntegrationKey    string           `json:"integration_key"`
	AllowedOrigins    []string         `json:"allowed_origins"`
	HoldCheckout      bool             `json:"hold_checkout"`
	TestMode          bool             `json:"test_mode"`
	OrderGuard        bool             `json:"order_guard"`
	Triggers          proxy.Triggers   `json:"triggers"`
	ReleaseStatus     int              `json:"release_status"`
	CheckoutSelectors []string         `json:"checkout_selectors"`
	Ruleset           rulesets.Ruleset `json:"ruleset"`
	ApprovalTTL       string           `json:"approval_ttl"`
	GuestToAccount    bool             `json:"guest_to_account"`
}

func runStoreList(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("store list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "store file (default $"+envProxyStores+" or "+defaultStores+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sealer, err := proxySealer()
	if err != nil {
		return err
	}
	stores, err := storefile.Load(storesPath(*file), sealer)
	if err != nil {
		return err
	}
	list, err := stores.List()
	if err != nil {
		return err
	}
	out := []storeView{}
	for _, st := range list {
		out = append(out, storeView{
			Hash: st.Hash, URL: st.URL, AppClientID: st.AppClientID, IntegrationKey: st.IntegrationKey,
			AllowedOrigins: st.AllowedOrigins, HoldCheckout: st.HoldCheckout, TestMode: st.TestMode, OrderGuard: st.OrderGuard, Triggers: st.Triggers, ReleaseStatus: st.ReleaseStatus, CheckoutSelectors: st.CheckoutSelectors,
			Ruleset: st.Ruleset, ApprovalTTL: st.ApprovalTTL.Round(time.Second).String(), GuestToAccount: st.GuestToAccount,
		})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// shutdownGrace bounds how long in-flight requests may finish on SIGTERM.
const shutdownGrace = 15 * time.Second

func runStoreServe(ctx context.Context, args []string, _ io.Reader, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("store serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := server.Load(os.Getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	app, closeFn, err := server.Build(cfg, log)
	if err != nil {
		return err
	}
	defer closeFn()
	done := make(chan error, 1)
	go func() { done <- app.Listen(cfg.Addr) }()
	log.Info("storefront proxy listening", "addr", cfg.Addr, "public_url", cfg.PublicURL)
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	if err := app.ShutdownWithTimeout(shutdownGrace); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return <-done
}

func runStoreDemo(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("store demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8082", "where the demo storefront listens")
	proxyAddr := fs.String("proxy-addr", "127.0.0.1:8083", "where the demo's proxy listens")
	contracts := fs.String("contracts", "", "directory of BigCommerce's OpenAPI documents to validate the double's traffic against (make testdata puts them in var/contracts/bigcommerce); empty serves them unchecked")
	verifierURL := fs.String("verifier", "", "a running verifier to verify on (default: a stand-in that lets you pick the result)")
	verifierEmail := fs.String("verifier-email", "store-demo@idgate.local", "the verifier account the demo store uses (with --verifier)")
	verifierPassword := fs.String("verifier-password-file", "./var/store-demo-password", "file holding that account's password")
	webhookAddr := fs.String("webhook-addr", "127.0.0.1:8084", "https address where the verifier delivers results to the proxy (with --verifier)")
	webhookCert := fs.String("webhook-cert", "./var/demo-tls.crt", "TLS certificate of the webhook address (the verifier must trust it: IDGATE_WEBHOOK_CA_FILE)")
	webhookKey := fs.String("webhook-key", "./var/demo-tls.key", "its private key")
	appEmail := fs.String("app-merchant-email", "merchant-demo@idgate.local", "the verifier account the app store's merchant links on the settings page (named in the start message only)")
	appPassword := fs.String("app-merchant-password-file", "./var/app-merchant-password", "the file holding its password (named in the start message, never read)")
	appAddr := fs.String("app-addr", "127.0.0.1:8085", "where the store that installs the BigCommerce app serves its storefront and its control panel (/manage), with --verifier")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	storefront := "http://" + ln.Addr().String()
	opts := proxytest.Options{
		Origins: []string{storefront}, HoldCheckout: true, ContractsDir: *contracts, Addr: *proxyAddr, Logger: log,
		OnViolation: func(err error) { log.Error("BigCommerce contract violation", "err", err) },
	}
	var webhookLn, appLn net.Listener
	if *verifierURL != "" {
		if opts.Real, err = demoVerifier(ctx, strings.TrimSuffix(*verifierURL, "/"), *verifierEmail, *verifierPassword, storefront); err != nil {
			return err
		}
		if webhookLn, err = net.Listen("tcp", *webhookAddr); err != nil {
			return err
		}
		defer webhookLn.Close()
		opts.WebhookBase = "https://" + webhookLn.Addr().String()
		if appLn, opts.App, err = demoApp(*appAddr); err != nil {
			return err
		}
		defer appLn.Close()
		defer os.RemoveAll(filepath.Dir(opts.App.StoreFile))
	}
	env, err := proxytest.New(opts)
	if err != nil {
		return fmt.Errorf("start demo proxy: %w", err)
	}
	defer env.Close()
	verifierNote := "stand-in verifier"
	if webhookLn != nil {
		tlsSrv, err := serveWebhookTLS(webhookLn, *webhookCert, *webhookKey, env.URL)
		if err != nil {
			return err
		}
		defer tlsSrv.Close()
		verifierNote = "verifier " + *verifierURL + ", results delivered to " + opts.WebhookBase
	}
	sf := proxytest.NewStorefront(env, bigcommercetest.DefaultStoreHash, storefront)
	sf.Demo = true
	sf.SetShopper(uuid.NewString(), 0)
	srv := &http.Server{Handler: sf, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(stdout, "demo storefront: %s (proxy %s, BigCommerce double and %s on loopback)\n", storefront, env.URL, verifierNote)
	if appLn != nil {
		appSrv := &http.Server{Handler: proxytest.NewAppStorefront(env, opts.App.StorefrontURL), ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = appSrv.Serve(appLn) }()
		defer appSrv.Close()
		fmt.Fprintf(stdout, "demo store for the BigCommerce app: %s, its control panel %s/manage (install idgate there; link it on the settings page as %s, password in %s)\n",
			opts.App.StorefrontURL, opts.App.StorefrontURL, *appEmail, *appPassword)
	}
	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

func runStoreInstall(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("store install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "store file (default $"+envProxyStores+" or "+defaultStores+")")
	hash := fs.String("hash", "", "store hash (required)")
	proxyURL := fs.String("proxy-url", os.Getenv("IDGATE_PROXY_PUBLIC_URL"), "the proxy's public https URL (default $IDGATE_PROXY_PUBLIC_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *hash == "" || *proxyURL == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("--hash and --proxy-url are required")
	}
	sealer, err := proxySealer()
	if err != nil {
		return err
	}
	stores, err := storefile.Load(storesPath(*file), sealer)
	if err != nil {
		return err
	}
	st, err := stores.Store(ctx, *hash)
	if err != nil {
		return err
	}
	client, err := bigcommerce.New(bigcommerce.Config{StoreHash: st.Hash, Token: st.AccessToken, BaseURL: st.APIBaseURL})
	if err != nil {
		return err
	}
	done, err := proxy.Install(ctx, client, st, *proxyURL, st.OrderGuard)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "footer script %s: %s\n", done.ScriptID, done.ScriptSrc)
	if done.OrderScriptID != "" {
		fmt.Fprintf(stdout, "order confirmation script %s (the order's cart, verified after the order)\n", done.OrderScriptID)
	}
	for _, hook := range done.Webhooks {
		fmt.Fprintf(stdout, "order guard webhook %d: %s -> %s\n", hook.ID, hook.Scope, hook.Destination)
	}
	return nil
}
