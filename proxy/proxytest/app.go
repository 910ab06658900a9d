package proxytest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/idgate/idgate/internal/seal"
	seenmemory "github.com/idgate/idgate/internal/seen/memory"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/storefile"
	"github.com/idgate/idgate/proxy/verifierapi"
)

// AppOptions add a store that is not installed yet and installs through
// the BigCommerce single-click app (the local demo's merchant path): a
// ControlPanel double plays BigCommerce's OAuth server and serves the
// store's Management API; the proxy serves the app's callbacks and pages
// over a store file of its own, beside the Env's ready-made stores.
type AppOptions struct {
	// Hash is the store's hash (lowercase alphanumeric).
	Hash string
	// StorefrontURL is the store's storefront origin (the widget's origin
	// and the integration key's allowlist once linked); its control panel
	// is served there too, as BigCommerce serves /manage on the store's
	// domain.
	StorefrontURL string
	// StoreFile is where the app keeps installed stores (sealed under a
	// key of this run only).
	StoreFile string
	// Owner is the control panel user who installs the app.
	Owner bigcommerce.AppUser
}

// AppEnv is the running app side of an Env.
type AppEnv struct {
	Hash string
	// ControlPanel plays BigCommerce's OAuth server and, below
	// /stores/{hash}/, the store's Management API; its URL is reached by
	// the proxy only.
	ControlPanel *bigcommercetest.ControlPanel
	Double       *bigcommercetest.Double
	Registry     *storefile.Stores
	Owner        bigcommerce.AppUser
	// ProxyURL is the proxy the callbacks go to.
	ProxyURL string
}

// randomCredential is a client ID or secret made for this run: the demo's
// app is registered nowhere, and its secret is never printed.
func randomCredential(prefix string) string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return prefix + hex.EncodeToString(b)
}

// startApp starts the app's doubles and returns the app the proxy serves
// (at proxyURL) and the stores it adds to the Env's.
func (e *Env) startApp(o *AppOptions, proxyURL string, sealer *seal.Sealer, verifierURL string, opts Options) (*proxy.App, error) {
	if o.Hash == "" || o.StorefrontURL == "" || o.StoreFile == "" {
		return nil, errors.New("proxytest: AppOptions needs Hash, StorefrontURL and StoreFile")
	}
	if _, dup := e.Stores[o.Hash]; dup {
		return nil, fmt.Errorf("proxytest: store %q is both ready-made and the app's", o.Hash)
	}
	clientID, clientSecret := randomCredential("demo-app-"), randomCredential("")
	d, err := bigcommercetest.New(bigcommercetest.Options{
		ContractsDir: opts.ContractsDir, StoreHash: o.Hash, Token: randomCredential("token-"), OnViolation: opts.OnViolation,
	})
	if err != nil {
		return nil, err
	}
	cp, err := bigcommercetest.NewControlPanel(bigcommercetest.ControlPanelOptions{
		ClientID: clientID, ClientSecret: clientSecret, RedirectURI: proxyURL + proxyhttp.AuthCallbackPath,
		OnViolation: opts.OnViolation, Now: opts.Now,
	})
	if err != nil {
		return nil, err
	}
	owner := o.Owner
	if owner.ID == 0 {
		owner = bigcommerce.AppUser{ID: 1, Email: "owner@" + o.Hash + ".example"}
	}
	cp.AddStore(d, owner)
	e.closers = append(e.closers, cp.StartServer().Close)
	reg, err := storefile.Load(o.StoreFile, sealer)
	if err != nil {
		return nil, err
	}
	accounts, err := verifierapi.New(verifierURL, 0)
	if err != nil {
		return nil, err
	}
	e.Doubles[o.Hash] = d
	e.App = &AppEnv{Hash: o.Hash, ControlPanel: cp, Double: d, Registry: reg, Owner: owner, ProxyURL: proxyURL}
	return &proxy.App{
		Registry: reg, Sealer: sealer, APIBaseURL: cp.APIBaseURL(), PublicURL: proxyURL,
		OAuth: bigcommerce.App{
			ClientID: clientID, ClientSecret: bigcommerce.Secret(clientSecret),
			RedirectURI: proxyURL + proxyhttp.AuthCallbackPath, LoginURL: cp.URL,
		},
		ControlPanelURL: o.StorefrontURL, StorefrontURL: o.StorefrontURL,
		Seen: seenmemory.New(opts.Now, 0), Accounts: accounts, Now: opts.Now, Log: opts.Logger,
		// The order webhooks go to this proxy over http on loopback, where
		// the double delivers them (BigCommerce: https on 443 only).
		NewInstaller: func(st *proxy.Store) (proxy.Installer, error) {
			return bigcommerce.New(bigcommerce.Config{StoreHash: st.Hash, Token: st.AccessToken, BaseURL: st.APIBaseURL, LoopbackPlatform: true})
		},
	}, nil
}

// either looks a store up in the Env's ready-made stores, then in the
// app's store file (the one Service serves both, as one proxy does).
type either struct {
	first  Stores
	second proxy.Stores
}

func (s either) Store(ctx context.Context, hash string) (*proxy.Store, error) {
	if st, ok := s.first[hash]; ok {
		return st, nil
	}
	return s.second.Store(ctx, hash)
}
