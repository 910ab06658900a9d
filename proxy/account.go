package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// Refusals of the merchant's verifier sign-in (proxy/verifierapi wraps
// them), which the settings page shows in words.
var (
	// ErrAccountSignIn: the verifier refused the e-mail and password.
	ErrAccountSignIn = errors.New("the verifier refused the sign-in")
	// ErrAccountSignInLimited: too many sign-ins for now (the verifier's
	// limit per e-mail and per client address).
	ErrAccountSignInLimited = errors.New("the verifier limits sign-ins for now")
)

// Accounts is what the settings page needs of the merchant's verifier
// account (proxy/verifierapi over the verifier's account API): the proxy
// holds no credential of its own there, so the merchant signs in, once per
// link, and the session's token is used for that link and dropped.
type Accounts interface {
	// SignIn exchanges the account's e-mail and password for a session of
	// the test or live mode (POST /auth, GET /me).
	// clientIP, when set, is the merchant's address, which the verifier
	// counts its per-address sign-in limit under where it trusts the proxy
	// (its IDGATE_TRUSTED_PROXIES); otherwise it counts the proxy's.
	SignIn(ctx context.Context, email string, password bigcommerce.Secret, test bool, clientIP string) (AccountSession, error)
	// CreateIntegrationKey makes the mode's publishable key (POST
	// /integration-key, which revokes the previous one) allowed for the
	// previous key's domains and domains.
	CreateIntegrationKey(ctx context.Context, s AccountSession, domains []string) (string, error)
	// RotateWebhookSecret makes the account's webhook signing secret
	// (POST /webhook-secret; the previous one signs alongside for a day).
	RotateWebhookSecret(ctx context.Context, s AccountSession) (bigcommerce.Secret, error)
}

// AccountSession is a signed-in verifier account.
type AccountSession struct {
	// Token is the account's bearer token (an hour): never stored, logged
	// or shown.
	Token     bigcommerce.Secret
	ID, Email string
	Test      bool
}

// LinkRequest is the settings page's "Create the integration key".
type LinkRequest struct {
	Email    string
	Password bigcommerce.Secret
	// Test asks for the test key (and turns the store's test mode on);
	// otherwise the live key, and test mode off.
	Test bool
	// ClientIP is the merchant's address as the proxy reads it (its own
	// trusted proxies applied), for the verifier's sign-in limit
	// (docs/decisions.md, "The settings page's sign-in and the verifier's
	// per-address limit").
	ClientIP string
}

// LinkAccount links the store the sealed session opens to the merchant's
// verifier account: it signs in, creates the integration key of the mode
// asked with the storefront's hosts on its allowlist (besides those the
// previous key had, so the account's other sites stay allowed), and keeps
// the account's webhook secret. The secret is one per account: another
// store of this proxy linked to the account already holds it, else it is
// rotated (its previous value signs alongside for a day). Creating the key
// revokes the account's previous key of the mode, so this proxy's other
// stores that held it take the new one.
func (a *App) LinkAccount(ctx context.Context, hash, sealed string, r LinkRequest) (*Store, error) {
	st, _, err := a.OpenSession(ctx, hash, sealed)
	if err != nil {
		return nil, fmt.Errorf("link account: %w", err)
	}
	if a.Accounts == nil {
		return nil, fmt.Errorf("link account: %w: no verifier account API", ErrUpstream)
	}
	email := strings.TrimSpace(r.Email)
	if email == "" || r.Password == "" {
		return nil, fmt.Errorf("link account: %w", &InputError{Field: "email", Message: "give your idgate account's e-mail and password"})
	}
	s, err := a.Accounts.SignIn(ctx, email, r.Password, r.Test, r.ClientIP)
	switch {
	case errors.Is(err, ErrAccountSignIn):
		return nil, fmt.Errorf("link account: %w", &InputError{Field: "email", Message: "idgate did not accept that e-mail and password"})
	case errors.Is(err, ErrAccountSignInLimited):
		return nil, fmt.Errorf("link account: %w", &InputError{Field: "email", Message: "too many sign-ins to idgate just now; wait a minute and try again"})
	case err != nil:
		return nil, fmt.Errorf("link account: %w: %w", ErrUpstream, err)
	}
	hosts := StorefrontHosts(st)
	key, err := a.Accounts.CreateIntegrationKey(ctx, s, hosts)
	if err != nil {
		return nil, fmt.Errorf("link account: %w: %w", ErrUpstream, err)
	}
	all, err := a.Registry.List()
	if err != nil {
		return nil, fmt.Errorf("link account: %w", err)
	}
	secret := accountSecret(all, s.ID)
	if secret == "" {
		if secret, err = a.Accounts.RotateWebhookSecret(ctx, s); err != nil {
			return nil, fmt.Errorf("link account: %w: %w", ErrUpstream, err)
		}
	}
	link := func(st *Store) error {
		st.IntegrationKey, st.WebhookSecret, st.KeyHosts = key, secret, hosts
		st.VerifierAccountID, st.VerifierAccountEmail = s.ID, s.Email
		st.TestMode = s.Test
		return nil
	}
	linked, err := a.Registry.Update(ctx, hash, link)
	if err != nil {
		return nil, fmt.Errorf("link account: %w", err)
	}
	for _, other := range all {
		if other.Hash == hash || other.VerifierAccountID != s.ID || isTestKey(other.IntegrationKey) != s.Test {
			continue
		}
		// Its key was the one just revoked.
		if _, err := a.Registry.Update(ctx, other.Hash, func(o *Store) error { o.IntegrationKey = key; return nil }); err != nil {
			a.log().Warn("link account: another store of the account keeps a revoked key", "store", other.Hash, "err", err)
		}
	}
	a.log().Info("app linked to a verifier account", "store", hash, "account", s.ID, "test", s.Test)
	return linked, nil
}

// StorefrontHosts are the hosts (with a port, if any) of the store's
// storefront origins: what the integration key's allowlist names.
func StorefrontHosts(st *Store) []string {
	var hosts []string
	for _, o := range st.AllowedOrigins {
		if u, err := url.Parse(o); err == nil && u.Host != "" && !slices.Contains(hosts, u.Host) {
			hosts = append(hosts, u.Host)
		}
	}
	return hosts
}

// accountSecret is the webhook secret a store linked to account holds, or
// "".
func accountSecret(stores []*Store, account string) bigcommerce.Secret {
	for _, st := range stores {
		if st.VerifierAccountID == account && st.WebhookSecret != "" {
			return st.WebhookSecret
		}
	}
	return ""
}
