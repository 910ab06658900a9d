package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/memory"
	rediscache "github.com/idgate/idgate/internal/cache/redis"
	"github.com/idgate/idgate/internal/config"
	"github.com/idgate/idgate/internal/ratelimit"
	rlmemory "github.com/idgate/idgate/internal/ratelimit/memory"
	rlredis "github.com/idgate/idgate/internal/ratelimit/redis"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/seen"
	seenmemory "github.com/idgate/idgate/internal/seen/memory"
	seenredis "github.com/idgate/idgate/internal/seen/redis"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/storefile"
	"github.com/idgate/idgate/proxy/verifierapi"
)

// Vars are the proxy's settings, for docs/storefront.md and internal/config.
var Vars = []config.Var{
	{Name: "IDGATE_PROXY_ADDR", Default: "127.0.0.1:8081", Meaning: "host:port the storefront proxy listens on"},
	{Name: "IDGATE_PROXY_PUBLIC_URL", Default: "", Meaning: "external base URL of the proxy (widget script, webhook target; https in production); empty means http://IDGATE_PROXY_ADDR"},
	{Name: "IDGATE_PROXY_KEY", Default: "", Meaning: "server key sealing store secrets at rest: base64 of 32 random bytes (openssl rand -base64 32); required"},
	{Name: "IDGATE_PROXY_STORES", Default: "./var/proxy-stores.json", Meaning: "the store file written by idgate store add"},
	{Name: "IDGATE_VERIFIER_URL", Default: "http://127.0.0.1:8080", Meaning: "base URL of the verifier's API (create verification; the app's settings page signs in there to make a store's integration key)"},
	{Name: "IDGATE_REDIS_URL", Default: "", Meaning: "redis://... shares the status cache and the app's used load payloads across proxy instances; empty keeps both in-process"},
	{Name: "IDGATE_PROXY_CACHE_TTL", Default: "30s", Meaning: "longest a status is served from the cache (webhooks refresh it at once)"},
	{Name: "IDGATE_BC_APP_CLIENT_ID", Default: "", Meaning: "client ID of the BigCommerce single-click app (Developer Portal); set with the secret, it serves the app's callbacks (/bigcommerce/auth, load, uninstall, remove_user) and settings page; empty serves no app"},
	{Name: "IDGATE_BC_APP_CLIENT_SECRET", Default: "", Meaning: "the app's client secret (code exchange, signed payloads, Current Customer JWT); never logged, never sent to a browser; sealed into each installed store's entry"},
	{Name: "IDGATE_BC_LOGIN_URL", Default: bigcommerce.DefaultLoginURL, Meaning: "BigCommerce's OAuth server (POST /oauth2/token); a test double's URL in tests"},
	{Name: "IDGATE_BC_API_URL", Default: bigcommerce.DefaultBaseURL, Meaning: "Management API base of app-installed stores; {store_hash} is substituted"},
	{Name: "IDGATE_BC_CONTROL_PANEL_URL", Default: proxy.DefaultControlPanelURL, Meaning: "origin of a store's control panel, the only one allowed to frame the settings page (CSP frame-ancestors); {store_hash} is substituted"},
	{Name: "IDGATE_TRUSTED_PROXIES", Default: "", Meaning: "comma-separated IPs/CIDRs of load balancers whose X-Forwarded-For gives the client IP, its right-most entry not among them (start limit; the address the settings page's sign-in names to the verifier); empty trusts none"},
}

// Config is the proxy's settings.
type Config struct {
	Addr, PublicURL, Stores, VerifierURL, RedisURL string
	Key                                            []byte
	CacheTTL                                       time.Duration
	TrustedProxies                                 []string
	// The single-click app (off when AppClientID is empty).
	AppClientID                           string
	AppClientSecret                       bigcommerce.Secret
	LoginURL, APIBaseURL, ControlPanelURL string
}

// Load reads the settings through getenv; empty variables take defaults.
func Load(getenv func(string) string) (Config, error) {
	get := func(name string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		for _, v := range Vars {
			if v.Name == name {
				return v.Default
			}
		}
		return ""
	}
	c := Config{
		Addr: get("IDGATE_PROXY_ADDR"), PublicURL: strings.TrimSuffix(get("IDGATE_PROXY_PUBLIC_URL"), "/"),
		Stores: get("IDGATE_PROXY_STORES"), VerifierURL: get("IDGATE_VERIFIER_URL"), RedisURL: get("IDGATE_REDIS_URL"),
	}
	var errs []error
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		errs = append(errs, fmt.Errorf("IDGATE_PROXY_ADDR=%q: %w", c.Addr, err))
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	} else if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("IDGATE_PROXY_PUBLIC_URL=%q: want an absolute http(s) URL", c.PublicURL))
	}
	key, err := seal.ParseKey(get("IDGATE_PROXY_KEY"))
	if err != nil {
		errs = append(errs, fmt.Errorf("IDGATE_PROXY_KEY: %w (generate one with: openssl rand -base64 32)", err))
	}
	c.Key = key
	ttl, err := time.ParseDuration(get("IDGATE_PROXY_CACHE_TTL"))
	if err != nil || ttl <= 0 {
		errs = append(errs, errors.New("IDGATE_PROXY_CACHE_TTL: want a positive Go duration"))
	}
	c.CacheTTL = ttl
	for _, p := range strings.Split(get("IDGATE_TRUSTED_PROXIES"), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if net.ParseIP(p) == nil {
			if _, _, err := net.ParseCIDR(p); err != nil {
				errs = append(errs, fmt.Errorf("IDGATE_TRUSTED_PROXIES: %q is neither an IP nor a CIDR", p))
			}
		}
		c.TrustedProxies = append(c.TrustedProxies, p)
	}
	c.AppClientID, c.AppClientSecret = get("IDGATE_BC_APP_CLIENT_ID"), bigcommerce.Secret(get("IDGATE_BC_APP_CLIENT_SECRET"))
	c.LoginURL, c.APIBaseURL, c.ControlPanelURL = get("IDGATE_BC_LOGIN_URL"), get("IDGATE_BC_API_URL"), get("IDGATE_BC_CONTROL_PANEL_URL")
	if (c.AppClientID == "") != (c.AppClientSecret == "") {
		errs = append(errs, errors.New("IDGATE_BC_APP_CLIENT_ID and IDGATE_BC_APP_CLIENT_SECRET: set both for the app, or neither"))
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, fmt.Errorf("load proxy config: %w", err)
	}
	return c, nil
}

// Build opens everything the proxy needs and returns its app and a close
// function for what it opened.
func Build(c Config, log *slog.Logger) (*fiber.App, func(), error) {
	sealer, err := seal.New(c.Key)
	if err != nil {
		return nil, nil, err
	}
	stores, err := storefile.Load(c.Stores, sealer)
	if err != nil {
		return nil, nil, err
	}
	if list, _ := stores.List(); len(list) == 0 {
		log.Warn("no stores configured; add one with idgate store add", "file", c.Stores)
	}
	verifier, err := verifierapi.New(c.VerifierURL, 0)
	if err != nil {
		return nil, nil, err
	}
	var ch cache.Cache = memory.New(nil)
	// The load payloads taken: in Redis where instances share one, so a
	// payload taken on one is refused on all.
	var loads seen.Set = seenmemory.New(nil, 0)
	var limiter ratelimit.Limiter = rlmemory.New(nil)
	closeCache := func() {}
	if c.RedisURL != "" {
		opts, err := goredis.ParseURL(c.RedisURL)
		if err != nil {
			return nil, nil, fmt.Errorf("IDGATE_REDIS_URL: %w", err)
		}
		client := goredis.NewClient(opts)
		ch = rediscache.New(client, "idgate:cache:", nil)
		loads = seenredis.New(client, "idgate:seen:", nil)
		limiter = ratelimit.Fallback(rlredis.New(client, "idgate:rl:", nil), limiter, func(err error) {
			log.Warn("redis rate limiter failed; counting in-process", "err", err)
		})
		closeCache = func() { _ = client.Close() }
	}
	svc := &proxy.Service{Stores: stores, Sealer: sealer, Cache: ch, Verifier: verifier, PublicURL: c.PublicURL, CacheTTL: c.CacheTTL, Limiter: limiter}
	opts := []proxyhttp.Option{proxyhttp.WithTrustedProxies(c.TrustedProxies)}
	if c.AppClientID != "" {
		opts = append(opts, proxyhttp.WithApp(&proxy.App{
			Registry: stores, Sealer: sealer, APIBaseURL: c.APIBaseURL, PublicURL: c.PublicURL,
			ControlPanelURL: c.ControlPanelURL, Seen: loads, Accounts: verifier, Log: log,
			OAuth: bigcommerce.App{
				ClientID: c.AppClientID, ClientSecret: c.AppClientSecret,
				RedirectURI: c.PublicURL + proxyhttp.AuthCallbackPath, LoginURL: c.LoginURL,
			},
		}))
	}
	app, err := proxyhttp.New(svc, log, opts...)
	if err != nil {
		closeCache()
		return nil, nil, err
	}
	return app, closeCache, nil
}
