// Package modroot finds the module's root directory (the nearest directory
// holding go.mod, walking up from the working directory), where make puts
// installed data under var/.
package modroot

import (
	"errors"
	"os"
	"path/filepath"
)

// Find returns the module root above the working directory.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// VarDir is $env when set, else var/name under the module root, else
// ./var/name: where make installs name (models, data).
func VarDir(env, name string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	if root, err := Find(); err == nil {
		return filepath.Join(root, "var", name)
	}
	return filepath.Join("var", name)
}
