package bigcommerce

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// ErrStoreHash is returned when a store hash is malformed or cannot be
// derived from a store URL.
var ErrStoreHash = errors.New("invalid store hash")

// A store hash is BigCommerce's permanent store ID. It is spliced into API
// paths, so only lowercase letters and digits are accepted.
var storeHashPattern = regexp.MustCompile(`^[a-z0-9]{1,64}$`)

// storeHostPattern is the permanent storefront host every store has,
// whatever custom domain it also uses.
var storeHostPattern = regexp.MustCompile(`^store-([a-z0-9]{1,64})\.mybigcommerce\.com$`)

// ValidateStoreHash checks a store hash given explicitly.
func ValidateStoreHash(hash string) error {
	if !storeHashPattern.MatchString(hash) {
		return fmt.Errorf("store hash %q: %w: want 1-64 lowercase letters or digits", hash, ErrStoreHash)
	}
	return nil
}

// StoreHashFromURL derives the hash from a store URL of the form
// https://store-{hash}.mybigcommerce.com (scheme optional, any path). A
// custom domain carries no hash: such stores must give it explicitly.
func StoreHashFromURL(storeURL string) (string, error) {
	raw := strings.TrimSpace(storeURL)
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("store URL: %w: %v", ErrStoreHash, err)
	}
	m := storeHostPattern.FindStringSubmatch(strings.ToLower(u.Hostname()))
	if m == nil {
		return "", fmt.Errorf("store URL host %q: %w: not store-{hash}.mybigcommerce.com; give the store hash explicitly", u.Hostname(), ErrStoreHash)
	}
	return m[1], nil
}
