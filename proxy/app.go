package proxy

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/seen"
	"github.com/idgate/idgate/proxy/bigcommerce"
)

// ErrAppSession: a settings page request without a valid session (none,
// forged, expired, another store's, or a user removed since).
var ErrAppSession = errors.New("invalid app session")

// ErrInstallRefused: BigCommerce refused the auth callback's code (used
// already, expired, or not this app's).
var ErrInstallRefused = errors.New("install refused by BigCommerce")

// ErrSignedPayload: a load, uninstall or remove_user callback's
// signed_payload_jwt was refused.
var ErrSignedPayload = bigcommerce.ErrSignedPayload

// ErrPayloadReused: a load callback's signed payload was taken already.
// It is a signed payload refused, with its own words for the merchant.
var ErrPayloadReused = fmt.Errorf("%w: used already", ErrSignedPayload)

// SessionTTL is how long a settings page stays usable after the control
// panel opened it (a load callback); opening the app again starts anew.
const SessionTTL = time.Hour

// App is the single-click app: the control panel's callbacks (auth, load,
// uninstall, remove_user) and the settings page they open, over the
// Registry every proxy instance shares.
type App struct {
	Registry Registry
	Sealer   *seal.Sealer
	// OAuth is the app's registration (client ID and secret, auth callback).
	OAuth bigcommerce.App
	// APIBaseURL is the Management API of installed stores (empty:
	// bigcommerce.DefaultBaseURL; the demo and tests point it at the double).
	APIBaseURL string
	// PublicURL is the proxy's external base URL: the footer script's and
	// the order webhooks' host.
	PublicURL string
	// NewInstaller builds a store's Management API client (default a
	// *bigcommerce.Client with the store's token and APIBaseURL).
	NewInstaller func(*Store) (Installer, error)
	// NewOrderDesk builds the client the orders page uses (default a
	// *bigcommerce.Client, as NewInstaller).
	NewOrderDesk func(*Store) (OrderDesk, error)
	// ControlPanelURL is the control panel's origin, the only one allowed
	// to frame the settings page; "{store_hash}" is substituted. Empty:
	// DefaultControlPanelURL.
	ControlPanelURL string
	// StorefrontURL is where a newly installed store's storefront runs,
	// its origin the one the widget may call from and the verifier key's
	// allowlist; "{store_hash}" is substituted. Empty: the store's
	// BigCommerce domain (Store.Normalize's default). The local demo serves
	// its storefront on loopback.
	StorefrontURL string
	// Seen records the load payloads taken (their jti, until they
	// expire), so that one opens the settings page once: the payload
	// travels in the frame's URL, which browser history, a proxy's log or
	// a Referer can keep. Shared by every instance (Redis) where the proxy
	// has one. Required by Load.
	Seen seen.Set
	// Accounts is the verifier's account API, through which the settings
	// page links the store (LinkAccount).
	Accounts Accounts
	Now      func() time.Time
	Log      *slog.Logger
}

// DefaultControlPanelURL is where a store's control panel runs (its
// /manage pages), and so the frame around the app.
const DefaultControlPanelURL = "https://store-{store_hash}.mybigcommerce.com"

// ControlPanelOrigin is the origin that frames store hash's settings page.
func (a *App) ControlPanelOrigin(hash string) string {
	u := a.ControlPanelURL
	if u == "" {
		u = DefaultControlPanelURL
	}
	return strings.TrimSuffix(strings.ReplaceAll(u, "{store_hash}", hash), "/")
}

func (a *App) now() time.Time {
	if a.Now == nil {
		return time.Now()
	}
	return a.Now()
}

func (a *App) installer(st *Store) (Installer, error) {
	if a.NewInstaller != nil {
		return a.NewInstaller(st)
	}
	return bigcommerce.New(bigcommerce.Config{StoreHash: st.Hash, Token: st.AccessToken, BaseURL: st.APIBaseURL})
}

func (a *App) log() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

// Install handles the auth callback: the code is exchanged for the store's
// access token, the store is saved (sealed) with the installing user and
// the owner (a reinstall keeps its settings and takes the new token), and
// the footer script and order webhooks are installed. A new store is
// unlinked until its settings name the verifier account.
func (a *App) Install(ctx context.Context, cb bigcommerce.AuthCallback) (*Store, Session, error) {
	inst, err := a.OAuth.Exchange(ctx, cb)
	var refused *bigcommerce.APIError
	switch {
	case errors.As(err, &refused) && refused.Status >= 400 && refused.Status < 500:
		// A code used already (the frame reloaded) or expired: nothing a
		// retry of this request changes; installing again does.
		return nil, Session{}, fmt.Errorf("install: %w: %w", ErrInstallRefused, err)
	case errors.Is(err, bigcommerce.ErrInvalidInput):
		// Refused before anything was sent: the grant or the context.
		return nil, Session{}, fmt.Errorf("install: %w", &InputError{Field: "scope", Message: err.Error()})
	case err != nil:
		return nil, Session{}, fmt.Errorf("install: %w: %w", ErrUpstream, err)
	}
	took := func(st *Store) error {
		st.AccessToken = inst.AccessToken
		st.AppClientID, st.AppClientSecret = a.OAuth.ClientID, a.OAuth.ClientSecret
		st.AppInstalled = true
		st.addUsers(inst.Owner.ID, inst.User.ID)
		return nil
	}
	// A reinstall keeps the store's settings and takes the new token.
	st, err := a.Registry.Update(ctx, inst.StoreHash, took)
	if errors.Is(err, ErrUnknownStore) {
		header := make([]byte, 32)
		if _, err := rand.Read(header); err != nil {
			return nil, Session{}, fmt.Errorf("install: %w", err)
		}
		st = &Store{Hash: inst.StoreHash, URL: strings.ReplaceAll(a.StorefrontURL, "{store_hash}", inst.StoreHash), APIBaseURL: a.APIBaseURL, WebhookHeaderValue: bigcommerce.Secret(base64.RawURLEncoding.EncodeToString(header))}
		_ = took(st)
		err = a.Registry.Put(ctx, st)
	}
	if err != nil {
		return nil, Session{}, fmt.Errorf("install: %w", err)
	}
	in, err := a.installer(st)
	if err != nil {
		return nil, Session{}, fmt.Errorf("install: %w", err)
	}
	if _, err := Install(ctx, in, st, a.PublicURL, true); err != nil {
		// The store is saved: opening the app again installs again.
		return nil, Session{}, fmt.Errorf("install: %w: %w", ErrUpstream, err)
	}
	a.log().Info("app installed", "store", st.Hash, "user", inst.User.ID)
	return st, a.session(st.Hash, inst.User.ID), nil
}

// Load handles the load callback: the payload must be valid, name an
// installed store, and not have been taken before (ErrPayloadReused); a
// user the store has not seen is one the control panel now allows
// (several users), and is added. It returns the store and a settings
// session for the user.
func (a *App) Load(ctx context.Context, signedPayload string) (*Store, Session, error) {
	p, st, err := a.verify(ctx, signedPayload)
	if err != nil {
		return nil, Session{}, fmt.Errorf("load: %w", err)
	}
	if err := a.takeOnce(ctx, p); err != nil {
		return nil, Session{}, fmt.Errorf("load: %w", err)
	}
	if !st.HasUser(p.User.ID) {
		st, err = a.Registry.Update(ctx, st.Hash, func(st *Store) error {
			st.addUsers(p.User.ID)
			return nil
		})
		if err != nil {
			return nil, Session{}, fmt.Errorf("load: %w", err)
		}
	}
	return st, a.session(st.Hash, p.User.ID), nil
}

// Uninstall handles the uninstall callback: our footer script and webhooks
// are removed from the store while its token still works (the platform
// revokes it; a refusal is logged, not fatal), then the store and its
// secrets are deleted from the registry.
func (a *App) Uninstall(ctx context.Context, signedPayload string) (Uninstalled, error) {
	_, st, err := a.verify(ctx, signedPayload)
	if err != nil {
		return Uninstalled{}, fmt.Errorf("uninstall: %w", err)
	}
	var out Uninstalled
	if in, err := a.installer(st); err != nil {
		a.log().Warn("uninstall: no API client", "store", st.Hash, "err", err)
	} else if out, err = Uninstall(ctx, in, st, a.PublicURL); err != nil {
		a.log().Warn("uninstall: cleanup on the store failed", "store", st.Hash, "err", err)
	}
	if err := a.Registry.Delete(ctx, st.Hash); err != nil {
		return out, fmt.Errorf("uninstall: %w", err)
	}
	a.log().Info("app uninstalled", "store", st.Hash, "scripts", out.Scripts, "webhooks", out.Webhooks)
	return out, nil
}

// RemoveUser handles the remove_user callback: the user no longer opens
// the settings page, and sessions they hold stop working.
func (a *App) RemoveUser(ctx context.Context, signedPayload string) error {
	p, st, err := a.verify(ctx, signedPayload)
	if err != nil {
		return fmt.Errorf("remove user: %w", err)
	}
	if !st.HasUser(p.User.ID) {
		return nil
	}
	_, err = a.Registry.Update(ctx, st.Hash, func(st *Store) error {
		st.Users = slices.DeleteFunc(st.Users, func(id int64) bool { return id == p.User.ID })
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove user: %w", err)
	}
	return nil
}

// takeOnce records a verified payload's jti until the payload expires:
// ErrPayloadReused if it was recorded already. A guard that cannot answer
// refuses (ErrUpstream): a load is opened again with one click, a replay
// let through is a session handed out.
func (a *App) takeOnce(ctx context.Context, p bigcommerce.SignedPayload) error {
	if a.Seen == nil {
		return fmt.Errorf("%w: no record of the payloads taken", ErrUpstream)
	}
	// The store's hash in the key: jti is the platform's, unique per
	// payload, but nothing says across stores.
	// Kept until the payload expires; a second at least, for one taken at
	// its last instant.
	fresh, err := a.Seen.Add(ctx, "bc-load:"+p.StoreHash+":"+p.ID, max(p.Expires.Sub(a.now()), time.Second))
	switch {
	case err != nil:
		return fmt.Errorf("%w: record the payload: %w", ErrUpstream, err)
	case !fresh:
		return fmt.Errorf("store %s user %d: %w", p.StoreHash, p.User.ID, ErrPayloadReused)
	}
	return nil
}

// verify checks a signed payload and finds the app-installed store it
// names.
func (a *App) verify(ctx context.Context, signedPayload string) (bigcommerce.SignedPayload, *Store, error) {
	p, err := bigcommerce.VerifySignedPayload(signedPayload, a.OAuth.ClientID, a.OAuth.ClientSecret, a.now())
	if err != nil {
		return p, nil, err
	}
	st, err := a.Registry.Store(ctx, p.StoreHash)
	if err != nil {
		return p, nil, err
	}
	if !st.AppInstalled {
		// An operator's store (store add) is not the app's to change.
		return p, nil, fmt.Errorf("store %s: %w: not installed as an app", st.Hash, ErrUnknownStore)
	}
	return p, st, nil
}

// Session is a control panel user's right to one store's settings page.
type Session struct {
	Hash    string    `json:"h"`
	UserID  int64     `json:"u"`
	Expires time.Time `json:"e"`
}

func (a *App) session(hash string, user int64) Session {
	return Session{Hash: hash, UserID: user, Expires: a.now().Add(SessionTTL).UTC().Truncate(time.Second)}
}

// sessionContext binds a sealed session to its store: one sealed for
// another store does not open.
func sessionContext(hash string) string { return "app-session/" + hash }

// SealSession is the session as the settings page carries it (in its form,
// never in a cookie: the page lives in the control panel's frame, where
// cookies are third-party). Holding it is the page's CSRF token too.
func (a *App) SealSession(s Session) string {
	b, _ := json.Marshal(s) // a struct of strings, ints and a time
	return a.Sealer.Seal(b, sessionContext(s.Hash))
}

// OpenSession opens a sealed session for store hash: refused when forged,
// for another store, expired, or for a user the store no longer has (or a
// store uninstalled since).
func (a *App) OpenSession(ctx context.Context, hash, sealed string) (*Store, Session, error) {
	plain, err := a.Sealer.Open(sealed, sessionContext(hash))
	if err != nil {
		return nil, Session{}, fmt.Errorf("%w: does not open for store %s", ErrAppSession, hash)
	}
	var s Session
	if err := json.Unmarshal(plain, &s); err != nil || s.Hash != hash {
		return nil, Session{}, fmt.Errorf("%w: malformed", ErrAppSession)
	}
	if !a.now().Before(s.Expires) {
		return nil, Session{}, fmt.Errorf("%w: expired; open the app again", ErrAppSession)
	}
	st, err := a.Registry.Store(ctx, hash)
	if err != nil || !st.AppInstalled {
		return nil, Session{}, fmt.Errorf("%w: store %s is not installed", ErrAppSession, hash)
	}
	if !st.HasUser(s.UserID) {
		return nil, Session{}, fmt.Errorf("%w: user removed", ErrAppSession)
	}
	return st, s, nil
}

func (s *Store) addUsers(ids ...int64) {
	for _, id := range ids {
		if id > 0 && !s.HasUser(id) {
			s.Users = append(s.Users, id)
		}
	}
}
