package verifier

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/password"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/seal"
)

// Errors of sign-in and access tokens. The HTTP layer answers both with the
// same 401 body so callers learn nothing about which check failed.
var (
	// ErrInvalidCredentials: unknown e-mail or wrong password (deliberately
	// one error).
	ErrInvalidCredentials = errors.New("invalid e-mail or password")
	// ErrInvalidToken: an access token is missing, malformed, expired, not yet
	// valid, wrongly signed, of another algorithm or issuer, or its account
	// is gone.
	ErrInvalidToken = errors.New("invalid access token")
	// ErrInvalid marks input that breaks a domain rule; *ValidationError
	// (errors.As) carries the fields.
	ErrInvalid = errors.New("invalid input")
)

// ValidationError lists every broken rule of one input.
type ValidationError struct {
	Fields []problem.Detail
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return "invalid input: " + strings.Join(parts, "; ")
}

func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// NormalizeEmail is the form e-mails are stored and looked up in.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

const maxEmailLen = 254 // RFC 5321 path limit

func validateEmail(email string) error {
	if len(email) > maxEmailLen {
		return errors.New("longer than 254 characters")
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return errors.New("not a plain e-mail address (name@example.com)")
	}
	return nil
}

// NewAccount validates an e-mail and password and returns the account to
// store, with the password hashed (argon2id) and never kept.
func NewAccount(email, pw string, now time.Time) (Account, error) {
	email = NormalizeEmail(email)
	var ve ValidationError
	if err := validateEmail(email); err != nil {
		ve.Fields = append(ve.Fields, problem.Detail{Field: "email", Code: "invalid_email", Message: err.Error()})
	}
	if err := password.Validate(pw); err != nil {
		code := "too_short"
		if errors.Is(err, password.ErrTooLong) {
			code = "too_long"
		}
		ve.Fields = append(ve.Fields, problem.Detail{Field: "password", Code: code, Message: err.Error()})
	}
	if len(ve.Fields) > 0 {
		return Account{}, &ve
	}
	hash, err := password.Hash(pw)
	if err != nil {
		return Account{}, fmt.Errorf("new account: %w", err)
	}
	now = now.UTC().Truncate(time.Microsecond)
	return Account{ID: uuid.NewString(), Email: email, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}, nil
}

// TokenConfig says how access tokens are made and checked.
type TokenConfig struct {
	Issuer   string
	Audience string
	TTL      time.Duration
	// Keys: the first signs, all verify, so a new key can be put first and
	// the old one kept until its tokens have expired.
	Keys []SigningKey
}

// AccessToken is what a successful sign-in returns.
type AccessToken struct {
	Token     string
	ExpiresIn time.Duration
}

// Leeway tolerates clock skew between instances on exp, nbf and iat.
const tokenLeeway = 30 * time.Second

// maxTokenLen bounds the work a hostile Authorization header can cause.
const maxTokenLen = 4096

// Authenticator signs accounts in and checks their access tokens: HS256
// JWTs with a kid header and iss, aud, sub (account ID), iat and exp claims.
type Authenticator struct {
	store    Store
	cfg      TokenConfig
	keys     map[string][]byte
	now      func() time.Time
	sessions sessionCache
}

// NewAuthenticator checks cfg and returns an Authenticator over store.
func NewAuthenticator(store Store, cfg TokenConfig, now func() time.Time) (*Authenticator, error) {
	if len(cfg.Keys) == 0 {
		return nil, errors.New("new authenticator: no signing keys")
	}
	if cfg.Issuer == "" || cfg.Audience == "" || cfg.TTL <= 0 {
		return nil, errors.New("new authenticator: issuer, audience and a positive TTL are required")
	}
	keys := make(map[string][]byte, len(cfg.Keys))
	for _, k := range cfg.Keys {
		if err := k.validate(); err != nil {
			return nil, fmt.Errorf("new authenticator: %w", err)
		}
		if _, dup := keys[k.ID]; dup {
			return nil, fmt.Errorf("new authenticator: duplicate key id %q", k.ID)
		}
		keys[k.ID] = k.Secret
	}
	return &Authenticator{store: store, cfg: cfg, keys: keys, now: now,
		sessions: sessionCache{max: sessionCacheSize, m: map[[sha256.Size]byte]cachedSession{}}}, nil
}

// Login exchanges e-mail and password for an access token. Unknown e-mail
// and wrong password both return ErrInvalidCredentials after the same
// argon2id work, so neither the answer nor its timing tells them apart.
func (a *Authenticator) Login(ctx context.Context, email, pw string) (AccessToken, error) {
	if len(pw) > password.MaxLength {
		return AccessToken{}, ErrInvalidCredentials
	}
	acct, err := a.store.GetAccountByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNotFound) {
		password.VerifyDummy(pw)
		return AccessToken{}, ErrInvalidCredentials
	}
	if err != nil {
		return AccessToken{}, fmt.Errorf("login: %w", err)
	}
	ok, err := password.Verify(acct.PasswordHash, pw)
	if err != nil {
		return AccessToken{}, fmt.Errorf("login: account %s: %w", acct.ID, err)
	}
	if !ok {
		return AccessToken{}, ErrInvalidCredentials
	}
	return a.Issue(acct.ID)
}

// Issue signs a token for accountID with the first key.
func (a *Authenticator) Issue(accountID string) (AccessToken, error) {
	now := a.now()
	claims := jwt.RegisteredClaims{
		Issuer:    a.cfg.Issuer,
		Audience:  jwt.ClaimStrings{a.cfg.Audience},
		Subject:   accountID,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(a.cfg.TTL)),
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	key := a.cfg.Keys[0]
	tok.Header["kid"] = key.ID
	s, err := tok.SignedString(key.Secret)
	if err != nil {
		return AccessToken{}, fmt.Errorf("issue token: %w", err)
	}
	return AccessToken{Token: s, ExpiresIn: a.cfg.TTL}, nil
}

// Verify checks a token and returns its subject (the account ID). Every
// failure is ErrInvalidToken, wrapping the reason for logs.
func (a *Authenticator) Verify(token string) (string, error) {
	claims, err := a.verify(token)
	if err != nil {
		return "", err
	}
	return claims.Subject, nil
}

// verify is Verify returning the checked claims.
func (a *Authenticator) verify(token string) (jwt.RegisteredClaims, error) {
	if token == "" || len(token) > maxTokenLen {
		return jwt.RegisteredClaims{}, ErrInvalidToken
	}
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, a.keyFor,
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(a.cfg.Issuer),
		jwt.WithAudience(a.cfg.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(tokenLeeway),
		jwt.WithTimeFunc(a.now),
	)
	if err != nil {
		return jwt.RegisteredClaims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if claims.Subject == "" {
		return jwt.RegisteredClaims{}, fmt.Errorf("%w: no subject", ErrInvalidToken)
	}
	return claims, nil
}

func (a *Authenticator) keyFor(t *jwt.Token) (any, error) {
	kid, _ := t.Header["kid"].(string)
	secret, ok := a.keys[kid]
	if !ok {
		return nil, fmt.Errorf("unknown kid %q", kid)
	}
	return secret, nil
}

// Authenticate verifies a token and returns its account's identity (ID,
// e-mail, timestamps; never the password hash or webhook secrets, which no
// request handler needs and a cached copy must not keep after a rotation).
// A token whose account does not exist is ErrInvalidToken.
//
// A token that passed, with its account found in the store, is remembered
// (by its SHA-256) for AccountCacheTTL or until it expires, whichever is
// first, so a repeated bearer request costs neither a database round trip
// (issue #3: it was half the database work of a create) nor the JWT's
// parsing and HMAC. Only successes are cached: a refused token, or one for
// an unknown account, is checked in full every time.
func (a *Authenticator) Authenticate(ctx context.Context, token string) (Account, error) {
	if token == "" || len(token) > maxTokenLen {
		return Account{}, ErrInvalidToken
	}
	now := a.now()
	key := sha256.Sum256([]byte(token))
	if acct, ok := a.sessions.get(key, now); ok {
		return acct, nil
	}
	claims, err := a.verify(token)
	if err != nil {
		return Account{}, err
	}
	acct, err := a.store.GetAccount(ctx, claims.Subject)
	if errors.Is(err, ErrNotFound) {
		return Account{}, fmt.Errorf("%w: account %s gone", ErrInvalidToken, claims.Subject)
	}
	if err != nil {
		return Account{}, fmt.Errorf("authenticate: %w", err)
	}
	acct = Account{ID: acct.ID, Email: acct.Email, CreatedAt: acct.CreatedAt, UpdatedAt: acct.UpdatedAt}
	// verify required exp; past exp+leeway verify would refuse the token.
	until := now.Add(AccountCacheTTL)
	if exp := claims.ExpiresAt.Add(tokenLeeway); exp.Before(until) {
		until = exp
	}
	a.sessions.put(key, cachedSession{acct: acct, from: now, until: until})
	return acct, nil
}

// AccountCacheTTL is how long Authenticate trusts that an account it found
// still exists (and its e-mail is unchanged): an account removed from the
// store stops authenticating within this time on every instance.
const AccountCacheTTL = 30 * time.Second

// sessionCacheSize bounds the cache's memory (about 250 bytes an entry);
// beyond it, expired entries are dropped and then arbitrary ones.
const sessionCacheSize = 10000

// cachedSession is a verified token's account, trusted on [from, until).
// from guards against a clock set back: nbf and iat were only checked
// against times from on.
type cachedSession struct {
	acct        Account
	from, until time.Time
}

func (e cachedSession) live(now time.Time) bool {
	return !now.Before(e.from) && now.Before(e.until)
}

// sessionCache is a bounded map of verified tokens (by SHA-256, so a lookup
// compares digests, never secret bytes) on the Authenticator's clock.
type sessionCache struct {
	max int
	mu  sync.Mutex
	m   map[[sha256.Size]byte]cachedSession
}

func (c *sessionCache) get(key [sha256.Size]byte, now time.Time) (Account, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		return Account{}, false
	}
	if !e.live(now) {
		delete(c.m, key)
		return Account{}, false
	}
	return e.acct, true
}

func (c *sessionCache) put(key [sha256.Size]byte, e cachedSession) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		c.evict(e.from)
	}
	c.m[key] = e
}

// evict makes room for one entry: every dead entry goes, and if none was
// dead, one arbitrary entry (map order), which only costs that token one
// more full check.
func (c *sessionCache) evict(now time.Time) {
	for k, e := range c.m {
		if !e.live(now) {
			delete(c.m, k)
		}
	}
	if len(c.m) < c.max {
		return
	}
	for k := range c.m {
		delete(c.m, k)
		return
	}
}

// SigningKey is one HS256 secret with the kid that names it in tokens.
//
// Text form (IDGATE_JWT_KEYS and the dev key file): "kid:base64secret"
// entries separated by commas or newlines. kid is 1-64 of [A-Za-z0-9._-];
// the secret is base64 (standard or URL alphabet, padding optional) of 32 to
// 512 bytes.
type SigningKey struct {
	ID     string
	Secret []byte
}

const (
	minSecretLen = 32 // HS256 needs at least the hash size (RFC 7518 §3.2)
	maxSecretLen = 512
	maxKIDLen    = 64
)

func (k SigningKey) validate() error {
	if k.ID == "" || len(k.ID) > maxKIDLen || strings.Trim(k.ID, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return fmt.Errorf("key id %q: want 1-%d of A-Z a-z 0-9 . _ -", k.ID, maxKIDLen)
	}
	if len(k.Secret) < minSecretLen || len(k.Secret) > maxSecretLen {
		return fmt.Errorf("key %q: secret must be %d-%d bytes, got %d", k.ID, minSecretLen, maxSecretLen, len(k.Secret))
	}
	return nil
}

// ParseSigningKeys reads the text form. Errors never echo secrets.
func ParseSigningKeys(s string) ([]SigningKey, error) {
	var keys []SigningKey
	seen := map[string]bool{}
	for _, entry := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		kid, secret, ok := strings.Cut(entry, ":")
		if !ok {
			return nil, errors.New("parse signing keys: want kid:base64secret")
		}
		raw, err := decodeSecret(secret)
		if err != nil {
			return nil, fmt.Errorf("parse signing keys: key %q: secret is not base64", kid)
		}
		k := SigningKey{ID: kid, Secret: raw}
		if err := k.validate(); err != nil {
			return nil, fmt.Errorf("parse signing keys: %w", err)
		}
		if seen[kid] {
			return nil, fmt.Errorf("parse signing keys: duplicate key id %q", kid)
		}
		seen[kid] = true
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("parse signing keys: no keys")
	}
	return keys, nil
}

func decodeSecret(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// FormatSigningKeys is the inverse of ParseSigningKeys.
func FormatSigningKeys(keys []SigningKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.ID + ":" + base64.StdEncoding.EncodeToString(k.Secret)
	}
	return strings.Join(parts, "\n") + "\n"
}

// GenerateSigningKey makes a random 32-byte key with a random kid.
func GenerateSigningKey() (SigningKey, error) {
	id := make([]byte, 4)
	secret := make([]byte, minSecretLen)
	if _, err := rand.Read(id); err != nil {
		return SigningKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	if _, err := rand.Read(secret); err != nil {
		return SigningKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	return SigningKey{ID: "dev-" + hex.EncodeToString(id), Secret: secret}, nil
}

// LoadOrCreateKeyFile is the dev-mode key source: it reads path, or on first
// use writes a fresh key there (seal.LoadOrCreateFile: mode 0600, a file
// others can read refused) so tokens survive restarts.
func LoadOrCreateKeyFile(path string) ([]SigningKey, error) {
	text, err := seal.LoadOrCreateFile(path, func() (string, error) {
		k, err := GenerateSigningKey()
		if err != nil {
			return "", err
		}
		return FormatSigningKeys([]SigningKey{k}), nil
	})
	if err != nil {
		return nil, fmt.Errorf("jwt keys: %w", err)
	}
	keys, err := ParseSigningKeys(text)
	if err != nil {
		return nil, fmt.Errorf("jwt key file %s: %w", path, err)
	}
	return keys, nil
}
