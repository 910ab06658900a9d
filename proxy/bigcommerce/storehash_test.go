package bigcommerce_test

import (
	"errors"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

func TestStoreHashFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://store-abc123.mybigcommerce.com":              "abc123",
		"https://store-abc123.mybigcommerce.com/cart.php?x=1": "abc123",
		"store-z9y8x7.mybigcommerce.com":                      "z9y8x7",
		"  HTTPS://Store-ABC123.MyBigCommerce.com/  ":         "abc123",
		"http://store-q1.mybigcommerce.com:443":               "q1",
	} {
		got, err := bigcommerce.StoreHashFromURL(in)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "https://shop.example.com", "https://abc123.mybigcommerce.com", "https://store-.mybigcommerce.com",
		"https://store-abc123.mybigcommerce.com.evil.example", "https://evil.example/store-abc123.mybigcommerce.com",
		"https://store-abc_123.mybigcommerce.com", "https://store-abc123.mybigcommerce.com@evil.example", "http://[::1",
	} {
		if got, err := bigcommerce.StoreHashFromURL(in); !errors.Is(err, bigcommerce.ErrStoreHash) {
			t.Errorf("%q: %q, %v; want ErrStoreHash", in, got, err)
		}
	}
}

func TestValidateStoreHash(t *testing.T) {
	for _, ok := range []string{"abc123", "z", "0000000000"} {
		if err := bigcommerce.ValidateStoreHash(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "ABC", "abc/../x", "a b", "abc-123"} {
		if err := bigcommerce.ValidateStoreHash(bad); !errors.Is(err, bigcommerce.ErrStoreHash) {
			t.Errorf("%q: %v, want ErrStoreHash", bad, err)
		}
	}
}

func TestNewValidatesConfig(t *testing.T) {
	for name, cfg := range map[string]bigcommerce.Config{
		"bad hash":      {StoreHash: "../x", Token: "t"},
		"no token":      {StoreHash: "abc"},
		"relative base": {StoreHash: "abc", Token: "t", BaseURL: "/stores/{store_hash}/"},
		"ftp base":      {StoreHash: "abc", Token: "t", BaseURL: "ftp://x/"},
	} {
		if _, err := bigcommerce.New(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzStoreHashFromURL: never panics; whatever it returns is a valid hash.
func FuzzStoreHashFromURL(f *testing.F) {
	f.Add("https://store-abc123.mybigcommerce.com/path")
	f.Add("store-x.mybigcommerce.com")
	f.Add("http://[::1]:80")
	f.Fuzz(func(t *testing.T, in string) {
		hash, err := bigcommerce.StoreHashFromURL(in)
		if err == nil {
			if vErr := bigcommerce.ValidateStoreHash(hash); vErr != nil {
				t.Fatalf("%q gave invalid hash %q", in, hash)
			}
		} else if !errors.Is(err, bigcommerce.ErrStoreHash) {
			t.Fatalf("uncoded error %v", err)
		}
	})
}
