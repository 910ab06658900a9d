package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// baselineCommit is main just before the face-selection and replay-cue changes (face selection,
// liveness multiple_faces, portrait choice, full-frame cards): the
// "before" column is that commit's own `idgate` binary run on the same
// files, so no old code is kept in the tree.
const baselineCommit = "f20516448ee1a0bec65392dc2bdce12d7ff6c99e"

// baseline is the before binary, built in a temporary git worktree.
type baseline struct {
	bin, root string
}

// buildBaseline checks baselineCommit out beside the repository and builds
// its cmd/idgate into dir.
func buildBaseline(root, dir string) (*baseline, error) {
	return buildAt(root, dir, baselineCommit, "idgate-before", "./cmd/idgate", nil)
}

// buildAt checks commit out in a temporary git worktree under dir, lets
// prepare add files to it (a driver program), builds pkg into dir/name and
// removes the worktree again at once.
func buildAt(root, dir, commit, name, pkg string, prepare func(wt string) error) (*baseline, error) {
	wt := filepath.Join(dir, "worktree-"+name)
	if out, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", wt, commit).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git worktree add %s: %v: %s", commit[:12], err, strings.TrimSpace(string(out)))
	}
	defer exec.Command("git", "-C", root, "worktree", "remove", "--force", wt).Run()
	if prepare != nil {
		if err := prepare(wt); err != nil {
			return nil, err
		}
	}
	bin := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-o", bin, pkg)
	build.Dir = wt
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build %s at %s: %v: %s", pkg, commit[:12], err, strings.TrimSpace(string(out)))
	}
	return &baseline{bin: bin, root: root}, nil
}

// run runs the baseline binary in the repository's root (so it finds the
// same models) and decodes its JSON into out; a failing command returns
// its stderr as the error.
func (b *baseline) run(out any, args ...string) error {
	cmd := exec.Command(b.bin, args...)
	cmd.Dir = b.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s", strings.TrimSpace(stderr.String()))
	}
	return json.Unmarshal(stdout.Bytes(), out)
}

// writeFile writes data into dir under name and returns its path.
func writeFile(dir, name string, data []byte) (string, error) {
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, data, 0o600)
}
