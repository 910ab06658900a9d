package verifier

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/internal/password"
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
)

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

// claims are an access token's: the registered ones and, for a test-mode
// token, mode "test" (absent on live tokens, so tokens issued before test
// mode existed stay live).
type claims struct {
	jwt.RegisteredClaims
	Mode string `json:"mode,omitempty"`
}

// mode is the token's Mode; any value but "test" was refused by verify.
func (c claims) mode() Mode {
	if c.Mode == ModeTest.String() {
		return ModeTest
	}
	return ModeLive
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

// Login exchanges e-mail and password for an access token (CheckPassword,
// then IssueMode) of the mode ModeOf(ctx): a test-mode token when the
// caller asked for one.
func (a *Authenticator) Login(ctx context.Context, email, pw string) (AccessToken, error) {
	acct, err := a.CheckPassword(ctx, email, pw)
	if err != nil {
		return AccessToken{}, err
	}
	return a.IssueMode(acct.ID, ModeOf(ctx))
}

// CheckPassword returns the account whose e-mail and password these are
// (the dashboard's sign-in uses it to start a session). Unknown e-mail and
// wrong password both return ErrInvalidCredentials after the same argon2id
// work, so neither the answer nor its timing tells them apart.
func (a *Authenticator) CheckPassword(ctx context.Context, email, pw string) (Account, error) {
	if len(pw) > password.MaxLength {
		return Account{}, ErrInvalidCredentials
	}
	acct, err := a.store.GetAccountByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNotFound) {
		password.VerifyDummy(pw)
		return Account{}, ErrInvalidCredentials
	}
	if err != nil {
		return Account{}, fmt.Errorf("login: %w", err)
	}
	ok, err := password.Verify(acct.PasswordHash, pw)
	if err != nil {
		return Account{}, fmt.Errorf("login: account %s: %w", acct.ID, err)
	}
	if !ok {
		return Account{}, ErrInvalidCredentials
	}
	return acct, nil
}

// Issue signs a live token for accountID with the first key.
func (a *Authenticator) Issue(accountID string) (AccessToken, error) {
	return a.IssueMode(accountID, ModeLive)
}

// IssueMode signs a token of mode m for accountID with the first key.
func (a *Authenticator) IssueMode(accountID string, m Mode) (AccessToken, error) {
	now := a.now()
	c := claims{RegisteredClaims: jwt.RegisteredClaims{
		Issuer:    a.cfg.Issuer,
		Audience:  jwt.ClaimStrings{a.cfg.Audience},
		Subject:   accountID,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(a.cfg.TTL)),
	}}
	if m == ModeTest {
		c.Mode = m.String()
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
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
func (a *Authenticator) verify(token string) (claims, error) {
	if token == "" || len(token) > maxTokenLen {
		return claims{}, ErrInvalidToken
	}
	var claims claims
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
		return claims, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if claims.Subject == "" {
		return claims, fmt.Errorf("%w: no subject", ErrInvalidToken)
	}
	if claims.Mode != "" && claims.Mode != ModeTest.String() {
		return claims, fmt.Errorf("%w: unknown mode %q", ErrInvalidToken, claims.Mode)
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
// (it was half the database work of a create) nor the JWT's
// parsing and HMAC. Only successes are cached: a refused token, or one for
// an unknown account, is checked in full every time.
func (a *Authenticator) Authenticate(ctx context.Context, token string) (Account, error) {
	acct, _, err := a.AuthenticateMode(ctx, token)
	return acct, err
}

// AuthenticateMode is Authenticate also returning the token's Mode.
func (a *Authenticator) AuthenticateMode(ctx context.Context, token string) (Account, Mode, error) {
	if token == "" || len(token) > maxTokenLen {
		return Account{}, ModeLive, ErrInvalidToken
	}
	now := a.now()
	key := sha256.Sum256([]byte(token))
	if e, ok := a.sessions.get(key, now); ok {
		return e.acct, e.mode, nil
	}
	claims, err := a.verify(token)
	if err != nil {
		return Account{}, ModeLive, err
	}
	acct, err := a.store.GetAccount(ctx, claims.Subject)
	if errors.Is(err, ErrNotFound) {
		return Account{}, ModeLive, fmt.Errorf("%w: account %s gone", ErrInvalidToken, claims.Subject)
	}
	if err != nil {
		return Account{}, ModeLive, fmt.Errorf("authenticate: %w", err)
	}
	acct = Account{ID: acct.ID, Email: acct.Email, CreatedAt: acct.CreatedAt, UpdatedAt: acct.UpdatedAt}
	// verify required exp; past exp+leeway verify would refuse the token.
	until := now.Add(AccountCacheTTL)
	if exp := claims.ExpiresAt.Add(tokenLeeway); exp.Before(until) {
		until = exp
	}
	a.sessions.put(key, cachedSession{acct: acct, mode: claims.mode(), from: now, until: until})
	return acct, claims.mode(), nil
}
