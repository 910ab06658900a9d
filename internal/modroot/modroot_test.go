package modroot

import (
	"os"
	"path/filepath"
	"testing"
)

func TestVarDir(t *testing.T) {
	root, err := Find()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("root %s holds no go.mod: %v", root, err)
	}
	t.Setenv("MODROOT_TEST_DIR", "")
	if got, want := VarDir("MODROOT_TEST_DIR", "models"), filepath.Join(root, "var", "models"); got != want {
		t.Errorf("VarDir without the variable = %s, want %s", got, want)
	}
	t.Setenv("MODROOT_TEST_DIR", "/elsewhere")
	if got := VarDir("MODROOT_TEST_DIR", "models"); got != "/elsewhere" {
		t.Errorf("VarDir with the variable = %s, want /elsewhere", got)
	}
	t.Chdir(t.TempDir())
	if _, err := Find(); err == nil {
		t.Error("Find outside the module found a root")
	}
	t.Setenv("MODROOT_TEST_DIR", "")
	if got, want := VarDir("MODROOT_TEST_DIR", "data"), filepath.Join("var", "data"); got != want {
		t.Errorf("VarDir outside the module = %s, want %s", got, want)
	}
}
