// Package config reads every IDGATE_* setting from the environment into one
// struct. The table below is the single source of names, defaults and
// meanings: Vars exposes it so a test can check docs/operations.md lists them all.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Environments. Production is the default so a bare `idgate serve` never
// runs with generated keys or relaxed dev rules by accident.
const (
	EnvDev        = "dev"
	EnvProduction = "production"
)

// Config is the whole service configuration.
type Config struct {
	Addr            string
	Env             string
	DatabaseURL     string
	RedisURL        string
	PublicURL       string
	JWTKeys         string
	JWTKeysFile     string
	JWTIssuer       string
	JWTAudience     string
	TokenTTL        time.Duration
	BodyLimit       int
	ReadTimeout     time.Duration
	IdleTimeout     time.Duration
	ShutdownTimeout time.Duration
	TrustedProxies  []string
	LogLevel        slog.Level
	// SecretKey seals webhook signing secrets at rest (base64 of 32 bytes).
	SecretKey     string
	SecretKeyFile string
	// WebhookAllowLoopback lets webhooks reach loopback receivers: dev and
	// tests only.
	WebhookAllowLoopback bool
	// WebhookCAFile names PEM certificates the webhook sender trusts besides
	// the system's roots (a receiver with a private or self-signed one).
	WebhookCAFile string
	// Plan is the allowance per verification type ("core=1000,..."), parsed
	// by verifier.ParsePlan when serve starts.
	Plan          string
	SweepInterval time.Duration
	// PIIRetention is how long completed verifications keep their personal
	// data before the sweeper purges it; 0 keeps it.
	PIIRetention time.Duration
	// ModelsDir holds the face model files `make models` installs.
	ModelsDir string
	// PhoneProvider is "twilio", "dev" or "none" (PhoneProviderName
	// resolves the empty default); Twilio* configure the twilio one.
	PhoneProvider                                      string
	TwilioAccountSID, TwilioAuthToken, TwilioVerifySID string
	// TwilioIdentityMatch asks Lookup's Identity Match for the names at
	// the address (address.SubscriberMatcher) of the verified number.
	TwilioIdentityMatch bool
	// AddressProvider is "lob", "dev" or "none" (AddressProviderName
	// resolves the empty default); LobAPIKey configures the lob one.
	AddressProvider, LobAPIKey string
	// IPDataDir holds the IP data `make ipdata` installs and the Tor exit
	// list `idgate ip update-tor` writes.
	IPDataDir string
	// DevClientIP, dev only, stands in for loopback and private client IPs
	// in IP intelligence, so a local demo shows real conclusions.
	DevClientIP string
}

// AddressProviderName is the address provider serve uses:
// IDGATE_ADDRESS_PROVIDER, or when it is empty dev under IDGATE_ENV=dev and
// none otherwise.
func (c Config) AddressProviderName() string {
	if c.AddressProvider != "" {
		return c.AddressProvider
	}
	if c.Dev() {
		return "dev"
	}
	return "none"
}

// PhoneProviderName is the phone provider serve uses: IDGATE_PHONE_PROVIDER,
// or when it is empty dev under IDGATE_ENV=dev and none otherwise.
func (c Config) PhoneProviderName() string {
	if c.PhoneProvider != "" {
		return c.PhoneProvider
	}
	if c.Dev() {
		return "dev"
	}
	return "none"
}

// Dev reports whether dev rules apply (text logs, generated JWT keys,
// http://localhost origins).
func (c Config) Dev() bool { return c.Env == EnvDev }

// Var describes one environment variable.
type Var struct {
	Name    string
	Default string
	Meaning string
}

type spec struct {
	Var
	set func(c *Config, v string) error
}

var specs = []spec{
	{Var{"IDGATE_ADDR", "127.0.0.1:8080", "host:port the verifier listens on"}, func(c *Config, v string) error {
		if _, _, err := net.SplitHostPort(v); err != nil {
			return err
		}
		c.Addr = v
		return nil
	}},
	{Var{"IDGATE_ENV", EnvProduction, "dev or production: dev logs text and generates JWT keys; production logs JSON and requires IDGATE_JWT_KEYS (serve --dev sets dev)"}, func(c *Config, v string) error {
		if v != EnvDev && v != EnvProduction {
			return fmt.Errorf("want %q or %q", EnvDev, EnvProduction)
		}
		c.Env = v
		return nil
	}},
	{Var{"IDGATE_DATABASE_URL", "sqlite:./var/idgate.db", "database: sqlite:<file> (embedded) or postgres://... (production)"}, str(func(c *Config) *string { return &c.DatabaseURL })},
	{Var{"IDGATE_REDIS_URL", "", "redis://... for rate limits shared across instances; empty uses the in-process limiter"}, func(c *Config, v string) error {
		if v == "" {
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
			return errors.New("want redis:// or rediss:// URL")
		}
		c.RedisURL = v
		return nil
	}},
	{Var{"IDGATE_PUBLIC_URL", "", "external base URL of the verifier (links sent to end users); empty means http:// and the address serve listens on"}, func(c *Config, v string) error {
		if v == "" {
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("want an absolute http(s) URL")
		}
		c.PublicURL = strings.TrimSuffix(v, "/")
		return nil
	}},
	{Var{"IDGATE_JWT_KEYS", "", "access-token signing keys kid:base64secret,... (secret ≥ 32 bytes); the first signs, all verify; required in production"}, str(func(c *Config) *string { return &c.JWTKeys })},
	{Var{"IDGATE_JWT_KEYS_FILE", "./var/jwt-keys", "dev only: where generated JWT keys persist (mode 0600) when IDGATE_JWT_KEYS is empty"}, str(func(c *Config) *string { return &c.JWTKeysFile })},
	{Var{"IDGATE_JWT_ISSUER", "idgate", "iss claim of access tokens"}, str(func(c *Config) *string { return &c.JWTIssuer })},
	{Var{"IDGATE_JWT_AUDIENCE", "idgate-api", "aud claim of access tokens"}, str(func(c *Config) *string { return &c.JWTAudience })},
	{Var{"IDGATE_TOKEN_TTL", "1h", "access-token lifetime (Go duration)"}, dur(func(c *Config) *time.Duration { return &c.TokenTTL })},
	{Var{"IDGATE_BODY_LIMIT", "1048576", "largest request body in bytes; larger gets 413 PAYLOAD_TOO_LARGE"}, func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 || n > 1<<30 {
			return errors.New("want bytes between 1 and 1073741824")
		}
		c.BodyLimit = n
		return nil
	}},
	{Var{"IDGATE_READ_TIMEOUT", "15s", "longest time to read a request's line, headers and a body of up to IDGATE_BODY_LIMIT; a longer body (photos, liveness answers) may take longer while it keeps coming: at most this long between two reads, and at least 16 KiB a second on average from then on (else 408)"}, dur(func(c *Config) *time.Duration { return &c.ReadTimeout })},
	{Var{"IDGATE_IDLE_TIMEOUT", "60s", "how long an idle keep-alive connection stays open"}, dur(func(c *Config) *time.Duration { return &c.IdleTimeout })},
	{Var{"IDGATE_SHUTDOWN_TIMEOUT", "15s", "on SIGINT/SIGTERM, how long in-flight requests may finish before connections are closed"}, dur(func(c *Config) *time.Duration { return &c.ShutdownTimeout })},
	{Var{"IDGATE_TRUSTED_PROXIES", "", "comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For gives the client IP (rate limits); empty trusts none"}, func(c *Config, v string) error {
		c.TrustedProxies = nil
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			if net.ParseIP(p) == nil {
				if _, _, err := net.ParseCIDR(p); err != nil {
					return fmt.Errorf("%q is neither an IP nor a CIDR", p)
				}
			}
			c.TrustedProxies = append(c.TrustedProxies, p)
		}
		return nil
	}},
	{Var{"IDGATE_LOG_LEVEL", "info", "debug, info, warn or error"}, func(c *Config, v string) error {
		return c.LogLevel.UnmarshalText([]byte(v))
	}},
	{Var{"IDGATE_SECRET_KEY", "", "base64 of 32 random bytes (openssl rand -base64 32) sealing webhook signing secrets at rest (AES-256-GCM); required in production; a different key cannot open secrets sealed before (rotate them)"}, str(func(c *Config) *string { return &c.SecretKey })},
	{Var{"IDGATE_SECRET_KEY_FILE", "./var/secret-key", "dev only: where a generated IDGATE_SECRET_KEY persists (mode 0600) when IDGATE_SECRET_KEY is empty"}, str(func(c *Config) *string { return &c.SecretKeyFile })},
	{Var{"IDGATE_PLAN", "core=1000,basic=500,full=250", "allowance of every account per verification type and calendar month (UTC); -1 is unlimited; unfinished links hold a slot"}, func(c *Config, v string) error {
		c.Plan = v
		return nil
	}},
	{Var{"IDGATE_SWEEP_INTERVAL", "1m", "how often each instance moves links past their lifetime to expired (instances share the work)"}, dur(func(c *Config) *time.Duration { return &c.SweepInterval })},
	{Var{"IDGATE_PII_RETENTION", "720h", "how long a completed verification keeps its personal data (license_data, license_photo, review images) before the sweeper purges it (Go duration; 720h = 30 days); 0 keeps it"}, durOrZero(func(c *Config) *time.Duration { return &c.PIIRetention })},
	{Var{"IDGATE_MODELS_DIR", "./var/models", "face model files installed by make models; serve checks each one's sha256 at start and refuses to start when one is missing or corrupt"}, str(func(c *Config) *string { return &c.ModelsDir })},
	{Var{"IDGATE_IP_DATA_DIR", "./var/data", "IP intelligence data installed by make ipdata, and the Tor exit list idgate ip update-tor writes; serve checks each file's sha256 at start and refuses to start when one is corrupt; when the data is missing, results carry no ip_found, is_proxy or location_consistency (serve warns)"}, str(func(c *Config) *string { return &c.IPDataDir })},
	{Var{"IDGATE_DEV_CLIENT_IP", "", "dev only (serve --dev): a public IP that IP intelligence reads in place of loopback and private client IPs, so a local demo shows real conclusions; serve refuses it in production"}, func(c *Config, v string) error {
		if v == "" {
			c.DevClientIP = ""
			return nil
		}
		ip, err := netip.ParseAddr(v)
		if err != nil || ip.Zone() != "" {
			return errors.New("want an IP address")
		}
		c.DevClientIP = ip.String()
		return nil
	}},
	{Var{"IDGATE_WEBHOOK_ALLOW_LOOPBACK", "false", "true lets webhooks reach loopback receivers (127.0.0.0/8, ::1; never other private addresses): for dev and tests only, never in production"}, boolean(func(c *Config) *bool { return &c.WebhookAllowLoopback })},
	{Var{"IDGATE_WEBHOOK_CA_FILE", "", "PEM file of certificates that webhook deliveries trust besides the system's roots, for receivers with a private or self-signed certificate (make run: var/demo-tls.crt); serve refuses to start when it holds none. Unlike SSL_CERT_FILE it works on macOS and leaves the other connections alone"}, str(func(c *Config) *string { return &c.WebhookCAFile })},
	{Var{"IDGATE_PHONE_PROVIDER", "", "phone verification's SMS and lookup provider: twilio, dev or none; empty is dev under IDGATE_ENV=dev and none otherwise; none leaves phone_verification out of results; dev writes codes to the log and is refused in production"}, func(c *Config, v string) error {
		switch v {
		case "", "none", "twilio", "dev":
			c.PhoneProvider = v
			return nil
		}
		return errors.New("want twilio, dev or none")
	}},
	{Var{"IDGATE_TWILIO_ACCOUNT_SID", "", "twilio phone provider: account SID (AC…) or API key SID (SK…)"}, str(func(c *Config) *string { return &c.TwilioAccountSID })},
	{Var{"IDGATE_TWILIO_AUTH_TOKEN", "", "twilio phone provider: the account's auth token or the API key's secret (a secret: never logged)"}, str(func(c *Config) *string { return &c.TwilioAuthToken })},
	{Var{"IDGATE_TWILIO_VERIFY_SERVICE_SID", "", "twilio phone provider: the Verify service (VA…) that sends the codes; it must allow custom verification codes"}, str(func(c *Config) *string { return &c.TwilioVerifySID })},
	{Var{"IDGATE_TWILIO_IDENTITY_MATCH", "false", "twilio phone provider: true asks Lookup's Identity Match, when a verification with address and phone verification completes, whether the verified number's subscriber record has the license's name at the license's address (name_at_address, last_name_at_address; null otherwise); sends that name and address to Twilio, billed per answer"}, boolean(func(c *Config) *bool { return &c.TwilioIdentityMatch })},
	{Var{"IDGATE_ADDRESS_PROVIDER", "", "address verification's provider: lob, dev or none; empty is dev under IDGATE_ENV=dev and none otherwise; none leaves address_verification out of results; dev (made-up answers) is refused in production"}, func(c *Config, v string) error {
		switch v {
		case "", "none", "lob", "dev":
			c.AddressProvider = v
			return nil
		}
		return errors.New("want lob, dev or none")
	}},
	{Var{"IDGATE_LOB_API_KEY", "", "lob address provider: a live secret or publishable API key (a secret: never logged); test keys answer canned values"}, str(func(c *Config) *string { return &c.LobAPIKey })},
}

func boolean(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("want true or false")
		}
		*field(c) = b
		return nil
	}
}

func str(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = v
		return nil
	}
}

func dur(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return errors.New("want a positive Go duration such as 30s or 1h")
		}
		*field(c) = d
		return nil
	}
}

// durOrZero is dur that also takes 0 (a feature switched off).
func durOrZero(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return errors.New("want a Go duration such as 720h, or 0 for never")
		}
		*field(c) = d
		return nil
	}
}

// Vars lists every variable with its default and meaning, in table order.
func Vars() []Var {
	out := make([]Var, len(specs))
	for i, s := range specs {
		out[i] = s.Var
	}
	return out
}

// Load reads the configuration through getenv (os.Getenv in production, a
// map in tests). Unset or empty variables take their default. Every invalid
// variable is reported, each naming itself.
func Load(getenv func(string) string) (Config, error) {
	var c Config
	var errs []error
	for _, s := range specs {
		v := strings.TrimSpace(getenv(s.Name))
		if v == "" {
			v = s.Default
		}
		if err := s.set(&c, v); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", s.Name, v, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, fmt.Errorf("load config: %w", err)
	}
	if c.DatabaseURL == "" {
		return Config{}, errors.New("load config: IDGATE_DATABASE_URL is empty")
	}
	return c, nil
}

// MarkdownTable renders vars as a configuration table of the docs (name,
// default, meaning: docs/operations.md for the verifier, docs/storefront.md
// for the proxy), so the docs can be checked against the code.
func MarkdownTable(vars []Var) string {
	var b strings.Builder
	b.WriteString("| variable | default | meaning |\n|---|---|---|\n")
	for _, v := range vars {
		def := "(empty)"
		if v.Default != "" {
			def = "`" + v.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, def, strings.ReplaceAll(v.Meaning, "|", `\|`))
	}
	return b.String()
}
