package proxy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/rulesets"
)

// Settings are what the merchant chooses on the settings page. The link
// to the verifier account is LinkAccount's.
type Settings struct {
	Ruleset rulesets.Ruleset
	// HoldCheckout: verify before checkout (the widget holds the checkout
	// buttons). OrderGuard: hold orders placed without a verification
	// (status Manual Verification Required).
	HoldCheckout, OrderGuard bool
	// Triggers: which orders "after the order" holds.
	Triggers Triggers
	// ReleaseStatus: where a held order goes once verified or approved
	// (Store.ReleaseStatus).
	ReleaseStatus int
	// ReuseDays: how long a passing verification lets the shopper (a
	// logged-in customer, or the same cart) skip the next one.
	ReuseDays int
	// GuestToAccount: a guest's verification carries to the account their
	// order names (Store.GuestToAccount).
	GuestToAccount bool
	TestMode       bool
	// Storefronts are the storefront's addresses besides the store's own
	// URL (always one): its custom domains, as origins. The widget and the
	// integration key must allow each (Store.AllowedOrigins, KeyHosts).
	Storefronts []string
}

// MaxStorefronts bounds the addresses a store lists besides its own.
const MaxStorefronts = 10

// MaxReuseDays bounds ReuseDays: a year.
const MaxReuseDays = 365

// SettingsOf reads a store's current settings (never its secrets).
func SettingsOf(st *Store) Settings {
	return Settings{
		Ruleset: st.Ruleset, HoldCheckout: st.HoldCheckout,
		OrderGuard: st.OrderGuard, TestMode: st.TestMode, Triggers: st.Triggers, ReleaseStatus: st.ReleaseStatus,
		ReuseDays: int(st.ApprovalTTL / (24 * time.Hour)), GuestToAccount: st.GuestToAccount,
		Storefronts: otherStorefronts(st),
	}
}

// otherStorefronts are the store's allowed origins but its URL's.
func otherStorefronts(st *Store) []string {
	own, _ := Origin(st.URL)
	var out []string
	for _, o := range st.AllowedOrigins {
		if o != own {
			out = append(out, o)
		}
	}
	return out
}

// storefrontOrigins checks the settings page's addresses and answers the
// store's allowed origins: its URL's first, then each address, once. An
// address is an https origin (a path, query or fragment is refused, not
// cut: the merchant may have pasted the wrong thing).
func storefrontOrigins(st *Store, addresses []string) ([]string, error) {
	if len(addresses) > MaxStorefronts {
		return nil, &InputError{Field: "storefronts", Message: fmt.Sprintf("list at most %d addresses besides the store's own", MaxStorefronts)}
	}
	own, err := Origin(st.URL)
	if err != nil {
		return nil, fmt.Errorf("store URL: %w", err)
	}
	out := []string{own}
	for _, a := range addresses {
		o, err := Origin(a)
		if err != nil || !strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(a), "/"), o) {
			return nil, &InputError{Field: "storefronts", Message: fmt.Sprintf("%q: want an address such as https://www.example.com, with nothing after the name", a)}
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out, nil
}

// SaveSettings applies the settings page's choices to the store the sealed
// session opens, validated as every store is, and saves them for every
// proxy instance.
func (a *App) SaveSettings(ctx context.Context, hash, sealed string, in Settings) (*Store, error) {
	if _, _, err := a.OpenSession(ctx, hash, sealed); err != nil {
		return nil, fmt.Errorf("save settings: %w", err)
	}
	// Checked here: Normalize reads an empty ruleset as "the defaults".
	if err := in.Ruleset.Validate(); err != nil {
		return nil, fmt.Errorf("save settings: %w", &InputError{Field: "ruleset", Message: "turn at least one rule on"})
	}
	if in.ReuseDays < 1 || in.ReuseDays > MaxReuseDays {
		return nil, fmt.Errorf("save settings: %w", &InputError{Field: "reuse_days", Message: fmt.Sprintf("a verification lasts 1 to %d days", MaxReuseDays)})
	}
	if err := validReleaseStatus(in.ReleaseStatus); err != nil {
		return nil, fmt.Errorf("save settings: %w", &InputError{Field: "release_status", Message: "choose where verified orders go from the statuses offered"})
	}
	st, err := a.Registry.Update(ctx, hash, func(st *Store) error {
		origins, err := storefrontOrigins(st, in.Storefronts)
		if err != nil {
			return err
		}
		st.AllowedOrigins = origins
		st.Ruleset, st.HoldCheckout, st.OrderGuard, st.TestMode = in.Ruleset, in.HoldCheckout, in.OrderGuard, in.TestMode
		st.Triggers, st.ReleaseStatus = in.Triggers, in.ReleaseStatus
		st.ApprovalTTL = time.Duration(in.ReuseDays) * 24 * time.Hour
		st.GuestToAccount = in.GuestToAccount
		return nil
	})
	if errors.Is(err, ErrInvalidStore) {
		// What Normalize refuses (a test key on a live store, a country
		// code) is the merchant's to correct.
		msg := err.Error()
		if _, after, ok := strings.Cut(msg, ErrInvalidStore.Error()+": "); ok {
			msg = after
		}
		return nil, fmt.Errorf("save settings: %w", &InputError{Field: "settings", Message: msg})
	}
	if err != nil {
		return nil, fmt.Errorf("save settings: %w", err)
	}
	return st, nil
}
