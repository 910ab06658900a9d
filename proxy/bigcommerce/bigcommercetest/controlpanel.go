package bigcommercetest

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// The single-click app flow has no OpenAPI document; the ControlPanel holds
// the app to BigCommerce's guides instead, as published in bigcommerce/docs
// (docs/integrations/apps/guide/auth.mdx and callbacks.mdx):
//
//   - The auth callback is GET {auth_callback}?code=&scope=&context=stores/{hash}&account_uuid=
//     from the merchant's browser; scope is space-separated.
//   - The app exchanges the code: POST https://login.bigcommerce.com/oauth2/token,
//     Accept and Content-Type application/json, a body of exactly client_id,
//     client_secret, code, context, scope (both as received), grant_type
//     "authorization_code" and redirect_uri "identical to the auth callback
//     registered in the app profile".
//   - The answer is JSON {access_token, scope, user {id, username, email},
//     owner {id, username, email}, context, account_uuid}. The guide shows no
//     error body; a refused code is answered as RFC 6749 §5.2 says (400
//     invalid_grant, 401 invalid_client), which the app only reads as "no".
//   - load, uninstall and remove_user are GET {callback}?signed_payload_jwt=,
//     an HS256 JWT signed with the app's client secret whose claims are aud
//     (client ID), iss "bc", iat, nbf (= iat), exp (24 hours after nbf), jti,
//     sub "stores/{hash}", user {id, email, locale}, owner {id, email}, url,
//     channel_id. load comes from the browser and expects markup; uninstall
//     and remove_user come from the platform's servers and need no answer.
//
// A request that breaks these is a contract violation (OnViolation), as
// the Management API double reports one.

// codeTTL is how long an issued code may be exchanged. The guides give no
// figure; codes are single-use and exchanged at once.
const codeTTL = 5 * time.Minute

// ControlPanelOptions configure a ControlPanel.
type ControlPanelOptions struct {
	ClientID     string // the app's client ID; required
	ClientSecret string // the app's client secret; required
	// RedirectURI is the auth callback registered in the app profile; the
	// exchange must name it exactly. Required.
	RedirectURI string
	OnViolation func(error) // required
	Now         func() time.Time
}

// issuedCode is a code handed to an auth callback, until exchanged.
type issuedCode struct {
	hash, scope string
	user        bigcommerce.AppUser
	expires     time.Time
}

// ControlPanel plays BigCommerce's side of a single-click app: the OAuth
// server at login.bigcommerce.com that exchanges codes, the control panel
// that sends the callbacks with their signed payloads, and, below
// /stores/{hash}/, the Management API of each store it holds (its Double),
// so one base URL serves the login and every store.
type ControlPanel struct {
	URL  string
	opts ControlPanelOptions

	mu     sync.Mutex
	stores map[string]*Double
	owners map[string]bigcommerce.AppUser
	codes  map[string]issuedCode
}

// NewControlPanel builds a ControlPanel; serve it and set URL (or use
// StartControlPanel in tests).
func NewControlPanel(opts ControlPanelOptions) (*ControlPanel, error) {
	if opts.ClientID == "" || opts.ClientSecret == "" || opts.RedirectURI == "" || opts.OnViolation == nil {
		return nil, errors.New("bigcommercetest: ClientID, ClientSecret, RedirectURI and OnViolation are required")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &ControlPanel{opts: opts, stores: map[string]*Double{}, owners: map[string]bigcommerce.AppUser{}, codes: map[string]issuedCode{}}, nil
}

// StartServer serves cp on a local httptest server and sets cp.URL.
func (cp *ControlPanel) StartServer() *httptest.Server {
	srv := httptest.NewServer(cp)
	cp.URL = srv.URL
	return srv
}

// AddStore makes d's store installable, owned by owner.
func (cp *ControlPanel) AddStore(d *Double, owner bigcommerce.AppUser) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.stores[d.StoreHash()] = d
	cp.owners[d.StoreHash()] = owner
}

// APIBaseURL is the Management API base for the stores it holds.
func (cp *ControlPanel) APIBaseURL() string { return cp.URL + "/stores/{store_hash}/" }

// Install is the merchant clicking Install (as user) and accepting scope:
// it returns the query the browser brings to the app's auth callback.
func (cp *ControlPanel) Install(hash string, user bigcommerce.AppUser, scope string) (url.Values, error) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if cp.stores[hash] == nil {
		return nil, fmt.Errorf("bigcommercetest: no store %q in the control panel", hash)
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	code := hex.EncodeToString(b)
	cp.codes[code] = issuedCode{hash: hash, scope: scope, user: user, expires: cp.opts.Now().Add(codeTTL)}
	return url.Values{
		"code": {code}, "scope": {scope}, "context": {"stores/" + hash},
		"account_uuid": {"12345678-90ab-cdef-1234-567890abcdef"},
	}, nil
}

// SignedPayload signs the signed_payload_jwt the control panel sends to the
// load, uninstall and remove_user callbacks of store hash for user.
func (cp *ControlPanel) SignedPayload(hash string, user bigcommerce.AppUser) string {
	cp.mu.Lock()
	owner := cp.owners[hash]
	cp.mu.Unlock()
	claims := bigcommerce.SignedPayloadClaims(cp.opts.ClientID, hash, user, owner, cp.opts.Now(), uuid.NewString())
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(cp.opts.ClientSecret))
	if err != nil {
		panic(fmt.Sprintf("bigcommercetest: sign payload: %v", err)) // HS256 with a key never fails
	}
	return tok
}

// ServeHTTP serves POST /oauth2/token and, below /stores/{hash}/, the
// store's Management API double.
func (cp *ControlPanel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/stores/"); ok {
		hash, _, _ := strings.Cut(rest, "/")
		cp.mu.Lock()
		d := cp.stores[hash]
		cp.mu.Unlock()
		if d == nil {
			writeError(w, http.StatusNotFound, "no such store")
			return
		}
		d.ServeHTTP(w, r)
		return
	}
	if r.URL.Path != "/oauth2/token" || r.Method != http.MethodPost {
		cp.violation("%s %s: the login service serves POST /oauth2/token only", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	cp.token(w, r)
}

// tokenBody is the documented request; unknown members are a violation.
type tokenBody struct {
	ClientID     *string `json:"client_id"`
	ClientSecret *string `json:"client_secret"`
	Code         *string `json:"code"`
	Context      *string `json:"context"`
	Scope        *string `json:"scope"`
	GrantType    *string `json:"grant_type"`
	RedirectURI  *string `json:"redirect_uri"`
}

func (cp *ControlPanel) token(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		cp.violation("POST /oauth2/token: Content-Type %q, want application/json", r.Header.Get("Content-Type"))
	}
	if !strings.Contains(r.Header.Get("Accept"), "application/json") {
		cp.violation("POST /oauth2/token: Accept %q, want application/json", r.Header.Get("Accept"))
	}
	var in tokenBody
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		cp.violation("POST /oauth2/token: body: %v", err)
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	for name, v := range map[string]*string{
		"client_id": in.ClientID, "client_secret": in.ClientSecret, "code": in.Code, "context": in.Context,
		"scope": in.Scope, "grant_type": in.GrantType, "redirect_uri": in.RedirectURI,
	} {
		if v == nil || *v == "" {
			cp.violation("POST /oauth2/token: %s missing", name)
			oauthError(w, http.StatusBadRequest, "invalid_request")
			return
		}
	}
	if *in.GrantType != "authorization_code" {
		cp.violation("POST /oauth2/token: grant_type %q, want authorization_code", *in.GrantType)
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	if *in.RedirectURI != cp.opts.RedirectURI {
		cp.violation("POST /oauth2/token: redirect_uri %q is not the registered auth callback %q", *in.RedirectURI, cp.opts.RedirectURI)
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	if *in.ClientID != cp.opts.ClientID || subtle.ConstantTimeCompare([]byte(*in.ClientSecret), []byte(cp.opts.ClientSecret)) != 1 {
		// Wrong credentials are the caller's problem, not a breach.
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	cp.mu.Lock()
	issued, ok := cp.codes[*in.Code]
	delete(cp.codes, *in.Code) // single use, even when refused below
	d := cp.stores[issued.hash]
	owner := cp.owners[issued.hash]
	cp.mu.Unlock()
	switch {
	case !ok || cp.opts.Now().After(issued.expires):
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	case *in.Context != "stores/"+issued.hash || *in.Scope != issued.scope:
		cp.violation("POST /oauth2/token: context %q and scope %q are not the callback's %q and %q", *in.Context, *in.Scope, "stores/"+issued.hash, issued.scope)
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	user := func(u bigcommerce.AppUser) map[string]any {
		return map[string]any{"id": u.ID, "username": u.Email, "email": u.Email}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": d.opts.Token, "scope": issued.scope, "user": user(issued.user), "owner": user(owner),
		"context": "stores/" + issued.hash, "account_uuid": "12345678-90ab-cdef-1234-567890abcdef",
	})
}

// oauthError answers in RFC 6749 §5.2's shape.
func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code})
}

func (cp *ControlPanel) violation(format string, args ...any) {
	cp.opts.OnViolation(fmt.Errorf("bigcommerce app contract: "+format, args...))
}
