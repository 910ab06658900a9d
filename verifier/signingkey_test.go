package verifier_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
)

func TestParseSigningKeys(t *testing.T) {
	secret := strings.Repeat("s", 32)
	std := base64.StdEncoding.EncodeToString([]byte(secret))
	url := base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("\xff", 40)))
	keys, err := verifier.ParseSigningKeys("k1:" + std + ", k2:" + url + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != "k1" || string(keys[0].Secret) != secret || len(keys[1].Secret) != 40 {
		t.Fatalf("keys %+v", keys)
	}
	again, err := verifier.ParseSigningKeys(verifier.FormatSigningKeys(keys))
	if err != nil || len(again) != 2 || string(again[1].Secret) != string(keys[1].Secret) {
		t.Fatalf("round trip: %v %v", again, err)
	}
	short := base64.StdEncoding.EncodeToString([]byte("tooshort-secret"))
	for _, bad := range []string{"", " , ", "nocolon", "k1:!!!", "k1:" + short, "bad kid:" + std, "k1:" + std + ",k1:" + std} {
		_, err := verifier.ParseSigningKeys(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
			continue
		}
		if strings.Contains(err.Error(), std) || strings.Contains(err.Error(), short) {
			t.Errorf("error echoes the secret: %v", err)
		}
	}
}

func TestLoadOrCreateKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "var", "jwt-keys")
	first, err := verifier.LoadOrCreateKeyFile(path)
	if err != nil || len(first) != 1 {
		t.Fatalf("create: %v %v", first, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", info.Mode(), err)
	}
	second, err := verifier.LoadOrCreateKeyFile(path)
	if err != nil || second[0].ID != first[0].ID || string(second[0].Secret) != string(first[0].Secret) {
		t.Fatalf("reload gave other keys: %v", err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.LoadOrCreateKeyFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable file accepted: %v", err)
	}
}

func FuzzParseSigningKeys(f *testing.F) {
	f.Add("k1:" + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("s", 32))))
	f.Add("a:b,c:d\n")
	f.Add(":::,,,")
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := verifier.ParseSigningKeys(s)
		if err != nil {
			return
		}
		// Whatever parses is usable and survives a round trip.
		if _, err := verifier.NewAuthenticator(nil, authTokenConfig(keys...), (&authClock{authEpoch}).Now); err != nil {
			t.Fatalf("%q parsed but is unusable: %v", s, err)
		}
		again, err := verifier.ParseSigningKeys(verifier.FormatSigningKeys(keys))
		if err != nil || len(again) != len(keys) {
			t.Fatalf("round trip of %q: %v", s, err)
		}
	})
}
