// Package models locates the model files installed by `make models` and
// reads them only after checking their sha256 against the list in the repo,
// so a truncated download or a swapped file never reaches the engine.
package models

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/idgate/idgate/internal/modroot"
)

// Hashes is models.sha256, the list `make models` installs and checks; it
// sits beside this code so the list and the code that trusts it change
// together.
//
//go:embed models.sha256
var Hashes string

// Candidates lists the face embeddings bench/match evaluates beside the
// engine's, and the face detectors bench/pages measures beside the page's
// tracker's (candidates.sha256); the engine does not read them.
//
//go:embed candidates.sha256
var Candidates string

// EnvDir overrides where models are read from.
const EnvDir = "IDGATE_MODELS_DIR"

var (
	// ErrMissing: a listed model file is absent.
	ErrMissing = errors.New("model file missing (run `make models`)")
	// ErrCorrupt: a model file is present but its sha256 differs from the list.
	ErrCorrupt = errors.New("model file corrupt (run `make models`)")
	// ErrUnlisted: the file is not in the hash list, so it cannot be trusted.
	ErrUnlisted = errors.New("model file not in the hash list")
)

// Set reads verified model files from one directory.
type Set struct {
	Dir    string
	hashes map[string]string // relative path -> lowercase hex sha256
}

// Open returns the set in dir, trusting the sha256sum-format list. An empty
// dir means DefaultDir().
func Open(dir, list string) (*Set, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	hashes, err := parseList(list)
	if err != nil {
		return nil, fmt.Errorf("open models: %w", err)
	}
	return &Set{Dir: dir, hashes: hashes}, nil
}

// DefaultDir is $IDGATE_MODELS_DIR, else var/models under the module root
// (found by walking up from the working directory to go.mod), else
// ./var/models.
func DefaultDir() string { return modroot.VarDir(EnvDir, "models") }

// ReadFile returns the verified content of a listed file, e.g.
// "human/blazeface.json".
func (s *Set) ReadFile(name string) ([]byte, error) {
	want, ok := s.hashes[filepath.ToSlash(name)]
	if !ok {
		return nil, fmt.Errorf("read model %s: %w", name, ErrUnlisted)
	}
	path := filepath.Join(s.Dir, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read model %s: %w", path, ErrMissing)
	}
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, fmt.Errorf("read model %s: sha256 %s, want %s: %w", path, got, want, ErrCorrupt)
	}
	return data, nil
}

// Check verifies every listed file and returns the first failure.
func (s *Set) Check() error {
	for name := range s.hashes {
		if _, err := s.ReadFile(name); err != nil {
			return err
		}
	}
	return nil
}

func parseList(list string) (map[string]string, error) {
	hashes := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(list))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || len(f[0]) != 64 {
			return nil, fmt.Errorf("hash list line %d: want \"<sha256>  <path>\", got %q", n, line)
		}
		if _, err := hex.DecodeString(f[0]); err != nil {
			return nil, fmt.Errorf("hash list line %d: %w", n, err)
		}
		hashes[strings.TrimPrefix(f[1], "*")] = strings.ToLower(f[0])
	}
	if len(hashes) == 0 {
		return nil, errors.New("hash list is empty")
	}
	return hashes, nil
}
