package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// LoadOrCreateServerKey is the dev stand-in for IDGATE_SECRET_KEY: the key
// in the file at path, or, when there is no file yet, a fresh random key
// written there (mode 0600, directory 0700) so secrets sealed under it stay
// readable across restarts. A file others can read is refused.
func LoadOrCreateServerKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("server key file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		key := make([]byte, 32)
		_, err = rand.Read(key)
		if err == nil {
			_, err = f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("server key file: write %s: %w", path, err)
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("server key file: %w", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("server key file: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("server key file %s is accessible by others (mode %o); chmod 600 it", path, info.Mode().Perm())
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("server key file: %w", err)
	}
	key, err := ParseServerKey(string(text))
	if err != nil {
		return nil, fmt.Errorf("server key file %s: %w", path, err)
	}
	return key, nil
}
