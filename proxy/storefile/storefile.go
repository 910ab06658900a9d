package storefile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// maxFileBytes bounds what Load reads: thousands of stores fit.
const maxFileBytes = 16 << 20

// fileVersion is the format written; Load refuses others.
const fileVersion = 1

type file struct {
	Version int     `json:"version"`
	Stores  []entry `json:"stores"`
}

// entry is one store at rest. Secret members hold sealed text (internal/seal),
// sealed under "<hash>/<member>" so they cannot be moved between stores or
// members.
type entry struct {
	Hash               string           `json:"store_hash"`
	URL                string           `json:"store_url"`
	APIBaseURL         string           `json:"api_base_url,omitempty"`
	AccessToken        string           `json:"access_token"`
	AppClientID        string           `json:"app_client_id"`
	AppClientSecret    string           `json:"app_client_secret"`
	IntegrationKey     string           `json:"integration_key"`
	WebhookSecret      string           `json:"webhook_secret"`
	WebhookHeader      string           `json:"webhook_header"`
	WebhookHeaderValue string           `json:"webhook_header_value"`
	Ruleset            rulesets.Ruleset `json:"ruleset"`
	HoldCheckout       bool             `json:"hold_checkout"`
	TestMode           bool             `json:"test_mode,omitempty"`
	OrderGuard         bool             `json:"order_guard"`
	CheckoutSelectors  []string         `json:"checkout_selectors"`
	AllowedOrigins     []string         `json:"allowed_origins"`
	ApprovalTTL        string           `json:"approval_ttl"`
}

// sealedField pairs a sealed member at rest with its in-memory field.
type sealedField struct {
	name   string
	sealed *string
	plain  *bigcommerce.Secret
}

// secrets lists the sealed members of e and st.
func secrets(e *entry, s *proxy.Store) []sealedField {
	return []sealedField{
		{"access_token", &e.AccessToken, &s.AccessToken},
		{"app_client_secret", &e.AppClientSecret, &s.AppClientSecret},
		{"webhook_secret", &e.WebhookSecret, &s.WebhookSecret},
		{"webhook_header_value", &e.WebhookHeaderValue, &s.WebhookHeaderValue},
	}
}

// Stores is a loaded file; it implements proxy.Stores.
type Stores struct {
	byHash map[string]*proxy.Store
}

// Store implements proxy.Stores.
func (s *Stores) Store(_ context.Context, hash string) (*proxy.Store, error) {
	st, ok := s.byHash[hash]
	if !ok {
		return nil, fmt.Errorf("store %q: %w", hash, proxy.ErrUnknownStore)
	}
	return st, nil
}

// List returns the stores sorted by hash.
func (s *Stores) List() []*proxy.Store {
	out := make([]*proxy.Store, 0, len(s.byHash))
	for _, st := range s.byHash {
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Hash < out[j].Hash })
	return out
}

// Load reads and opens the file at path. A missing file is an empty set of
// stores (a fresh install).
func Load(path string, sealer *seal.Sealer) (*Stores, error) {
	f, err := read(path)
	if err != nil {
		return nil, err
	}
	out := &Stores{byHash: map[string]*proxy.Store{}}
	for i := range f.Stores {
		st, err := open(&f.Stores[i], sealer)
		if err != nil {
			return nil, fmt.Errorf("load stores %s: %w", path, err)
		}
		out.byHash[st.Hash] = st
	}
	return out, nil
}

func read(path string) (file, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return file{Version: fileVersion}, nil
	}
	if err != nil {
		return file{}, fmt.Errorf("load stores: %w", err)
	}
	if len(b) > maxFileBytes {
		return file{}, fmt.Errorf("load stores %s: larger than %d bytes", path, maxFileBytes)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return file{}, fmt.Errorf("load stores %s: %w", path, err)
	}
	if f.Version != fileVersion {
		return file{}, fmt.Errorf("load stores %s: version %d, want %d", path, f.Version, fileVersion)
	}
	return f, nil
}

func open(e *entry, sealer *seal.Sealer) (*proxy.Store, error) {
	st := &proxy.Store{
		Hash: e.Hash, URL: e.URL, APIBaseURL: e.APIBaseURL, AppClientID: e.AppClientID,
		IntegrationKey: e.IntegrationKey, WebhookHeader: e.WebhookHeader, Ruleset: e.Ruleset,
		HoldCheckout: e.HoldCheckout, TestMode: e.TestMode, OrderGuard: e.OrderGuard, CheckoutSelectors: e.CheckoutSelectors, AllowedOrigins: e.AllowedOrigins,
	}
	if e.ApprovalTTL != "" {
		d, err := time.ParseDuration(e.ApprovalTTL)
		if err != nil {
			return nil, fmt.Errorf("store %s: approval_ttl: %w", e.Hash, err)
		}
		st.ApprovalTTL = d
	}
	for _, sec := range secrets(e, st) {
		plain, err := sealer.Open(*sec.sealed, e.Hash+"/"+sec.name)
		if err != nil {
			return nil, fmt.Errorf("store %s: %s: %w (wrong IDGATE_PROXY_KEY?)", e.Hash, sec.name, err)
		}
		*sec.plain = bigcommerce.Secret(plain)
	}
	if err := st.Normalize(); err != nil {
		return nil, err
	}
	return st, nil
}

// Put validates st, seals its secrets and writes it into the file at path,
// replacing a store with the same hash. The file is replaced atomically and
// is readable by its owner only.
func Put(path string, sealer *seal.Sealer, st *proxy.Store) error {
	if err := st.Normalize(); err != nil {
		return fmt.Errorf("put store: %w", err)
	}
	f, err := read(path)
	if err != nil {
		return err
	}
	e := entry{
		Hash: st.Hash, URL: st.URL, APIBaseURL: st.APIBaseURL, AppClientID: st.AppClientID,
		IntegrationKey: st.IntegrationKey, WebhookHeader: st.WebhookHeader, Ruleset: st.Ruleset,
		HoldCheckout: st.HoldCheckout, TestMode: st.TestMode, OrderGuard: st.OrderGuard, CheckoutSelectors: st.CheckoutSelectors, AllowedOrigins: st.AllowedOrigins,
		ApprovalTTL: st.ApprovalTTL.String(),
	}
	for _, sec := range secrets(&e, st) {
		*sec.sealed = sealer.Seal([]byte(*sec.plain), st.Hash+"/"+sec.name)
	}
	replaced := false
	for i := range f.Stores {
		if f.Stores[i].Hash == st.Hash {
			f.Stores[i], replaced = e, true
		}
	}
	if !replaced {
		f.Stores = append(f.Stores, e)
	}
	return write(path, f)
}

func write(path string, f file) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".stores-*.json")
	if err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write stores: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	return nil
}
