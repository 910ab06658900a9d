package storefile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"syscall"
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
	VerifierAccount    string           `json:"verifier_account_id,omitempty"`
	VerifierEmail      string           `json:"verifier_account_email,omitempty"`
	WebhookHeader      string           `json:"webhook_header"`
	WebhookHeaderValue string           `json:"webhook_header_value"`
	Ruleset            rulesets.Ruleset `json:"ruleset"`
	HoldCheckout       bool             `json:"hold_checkout"`
	TestMode           bool             `json:"test_mode,omitempty"`
	OrderGuard         bool             `json:"order_guard"`
	Triggers           proxy.Triggers   `json:"triggers"`
	ReleaseStatus      int              `json:"release_status,omitempty"`
	CheckoutSelectors  []string         `json:"checkout_selectors"`
	AllowedOrigins     []string         `json:"allowed_origins"`
	KeyHosts           []string         `json:"key_hosts,omitempty"`
	ApprovalTTL        string           `json:"approval_ttl"`
	GuestToAccount     bool             `json:"guest_to_account,omitempty"`
	AppInstalled       bool             `json:"app_installed,omitempty"`
	Users              []int64          `json:"app_users,omitempty"`
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

// Stores is the store file, opened; it implements proxy.Registry. Every
// lookup first checks whether the file changed (another process or proxy
// instance wrote it: each write replaces the file, so its identity
// changes) and reads it again if so: stores added, changed and removed
// reach every process using the file without a restart.
type Stores struct {
	path   string
	sealer *seal.Sealer

	mu     sync.Mutex
	byHash map[string]*proxy.Store
	seen   os.FileInfo // the file byHash was read from; nil: it did not exist
}

// Store implements proxy.Stores.
func (s *Stores) Store(_ context.Context, hash string) (*proxy.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(); err != nil {
		return nil, err
	}
	st, ok := s.byHash[hash]
	if !ok {
		return nil, fmt.Errorf("store %q: %w", hash, proxy.ErrUnknownStore)
	}
	return st, nil
}

// List returns the stores sorted by hash.
func (s *Stores) List() ([]*proxy.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(); err != nil {
		return nil, err
	}
	out := make([]*proxy.Store, 0, len(s.byHash))
	for _, st := range s.byHash {
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Hash < out[j].Hash })
	return out, nil
}

// Put implements proxy.Registry: Put(path, sealer, st), then the new file
// is what this Stores serves.
func (s *Stores) Put(_ context.Context, st *proxy.Store) error {
	return s.change(func() error { return Put(s.path, s.sealer, st) })
}

// Update implements proxy.Registry: the store is read, changed and
// written back under the file's lock, so a change made meanwhile by
// another process (a user added on another instance, settings saved) is
// not lost.
func (s *Stores) Update(_ context.Context, hash string, change func(*proxy.Store) error) (*proxy.Store, error) {
	var out *proxy.Store
	err := s.change(func() error {
		return update(s.path, func(f *file) error {
			for i := range f.Stores {
				if f.Stores[i].Hash != hash {
					continue
				}
				st, err := open(&f.Stores[i], s.sealer)
				if err != nil {
					return fmt.Errorf("update store %q: %w", hash, err)
				}
				if err := change(st); err != nil {
					return err
				}
				e, err := sealEntry(s.sealer, st)
				if err != nil {
					return fmt.Errorf("update store %q: %w", hash, err)
				}
				f.Stores[i], out = e, st
				return nil
			}
			return fmt.Errorf("update store %q: %w", hash, proxy.ErrUnknownStore)
		})
	})
	return out, err
}

// Delete implements proxy.Registry: the store's entry (and so its sealed
// secrets) leaves the file.
func (s *Stores) Delete(_ context.Context, hash string) error {
	return s.change(func() error {
		return update(s.path, func(f *file) error {
			n := len(f.Stores)
			f.Stores = slices.DeleteFunc(f.Stores, func(e entry) bool { return e.Hash == hash })
			if len(f.Stores) == n {
				return fmt.Errorf("delete store %q: %w", hash, proxy.ErrUnknownStore)
			}
			return nil
		})
	})
}

func (s *Stores) change(write func() error) error {
	if err := write(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refresh()
}

// refresh reads the file again when it is not the one last read. Holds mu.
func (s *Stores) refresh() error {
	fi, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		fi, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("load stores: %w", err)
	}
	if s.byHash != nil && sameFile(fi, s.seen) {
		return nil
	}
	f, err := read(s.path)
	if err != nil {
		return err
	}
	byHash := make(map[string]*proxy.Store, len(f.Stores))
	for i := range f.Stores {
		st, err := open(&f.Stores[i], s.sealer)
		if err != nil {
			return fmt.Errorf("load stores %s: %w", s.path, err)
		}
		byHash[st.Hash] = st
	}
	s.byHash, s.seen = byHash, fi
	return nil
}

// sameFile: the same file, unchanged since. Writes replace the file by a
// rename, so its identity changes with every write; size and time guard
// against an editor writing in place.
func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// Load opens the file at path (a missing file is an empty set of stores: a
// fresh install) and reads it once, so a broken file or a wrong key fails
// at start.
func Load(path string, sealer *seal.Sealer) (*Stores, error) {
	s := &Stores{path: path, sealer: sealer}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(); err != nil {
		return nil, err
	}
	return s, nil
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
		KeyHosts: e.KeyHosts, AppInstalled: e.AppInstalled, Users: e.Users, Triggers: e.Triggers, ReleaseStatus: e.ReleaseStatus,
		VerifierAccountID: e.VerifierAccount, VerifierAccountEmail: e.VerifierEmail, GuestToAccount: e.GuestToAccount,
	}
	if e.ApprovalTTL != "" {
		d, err := time.ParseDuration(e.ApprovalTTL)
		if err != nil {
			return nil, fmt.Errorf("store %s: approval_ttl: %w", e.Hash, err)
		}
		st.ApprovalTTL = d
	}
	for _, sec := range secrets(e, st) {
		if *sec.sealed == "" {
			continue // an app store not linked yet; Normalize decides
		}
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
	e, err := sealEntry(sealer, st)
	if err != nil {
		return fmt.Errorf("put store: %w", err)
	}
	return update(path, func(f *file) error {
		for i := range f.Stores {
			if f.Stores[i].Hash == st.Hash {
				f.Stores[i] = e
				return nil
			}
		}
		f.Stores = append(f.Stores, e)
		return nil
	})
}

// sealEntry validates st and returns it as at rest, its secrets sealed.
func sealEntry(sealer *seal.Sealer, st *proxy.Store) (entry, error) {
	if err := st.Normalize(); err != nil {
		return entry{}, err
	}
	e := entry{
		Hash: st.Hash, URL: st.URL, APIBaseURL: st.APIBaseURL, AppClientID: st.AppClientID,
		IntegrationKey: st.IntegrationKey, WebhookHeader: st.WebhookHeader, Ruleset: st.Ruleset,
		HoldCheckout: st.HoldCheckout, TestMode: st.TestMode, OrderGuard: st.OrderGuard, CheckoutSelectors: st.CheckoutSelectors, AllowedOrigins: st.AllowedOrigins,
		KeyHosts: st.KeyHosts, ApprovalTTL: st.ApprovalTTL.String(), AppInstalled: st.AppInstalled, Users: st.Users, Triggers: st.Triggers, ReleaseStatus: st.ReleaseStatus,
		VerifierAccount: st.VerifierAccountID, VerifierEmail: st.VerifierAccountEmail, GuestToAccount: st.GuestToAccount,
	}
	for _, sec := range secrets(&e, st) {
		if *sec.plain != "" {
			*sec.sealed = sealer.Seal([]byte(*sec.plain), st.Hash+"/"+sec.name)
		}
	}
	return e, nil
}

// update is one read-change-write of the file, under an exclusive lock on
// path+".lock", so concurrent writers (proxy instances, store add) never
// lose each other's changes. Readers need no lock: the file is replaced by
// a rename, so they read either the old file or the new one, whole.
func update(path string, change func(*file) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("write stores: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("write stores: lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing releases it anyway
	f, err := read(path)
	if err != nil {
		return err
	}
	if err := change(&f); err != nil {
		return err
	}
	return write(path, f)
}

func write(path string, f file) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
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
