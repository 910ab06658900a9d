package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A package's entry importing an npm package is bundled into gen/ with the
// package's code and the global, in strict mode, and a file the bundle
// loads is copied beside it; without node_modules it says what to run.
func TestBundlesTheEntryAndCopiesFiles(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	write := func(p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(root, dir, "idgateX", "x.ts", nil); err == nil || !strings.Contains(err.Error(), "make npm") {
		t.Fatalf("without node_modules: %v", err)
	}
	nm := filepath.Join(root, "node_modules")
	write(filepath.Join(nm, ".package-lock.json"), "{}")
	write(filepath.Join(nm, "twice", "package.json"), `{"name":"twice","main":"index.js"}`)
	write(filepath.Join(nm, "twice", "index.js"), "export function twice(n) { return n * 2 + 0.5; }")
	write(filepath.Join(nm, "twice", "dist", "twice.wasm"), "\x00asm")
	write(filepath.Join(dir, "x.ts"), `import { twice } from "twice";
export function four(): number { return twice(2); }
`)
	if err := run(root, dir, "idgateX", "x.ts", []string{"twice/dist/twice.wasm"}); err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(dir, "gen", "x.js"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(js); !strings.HasPrefix(s, `"use strict";var idgateX=(()=>{`) || !strings.Contains(s, "*2+.5") {
		t.Fatalf("gen/x.js: %s", s)
	}
	if wasm, err := os.ReadFile(filepath.Join(dir, "gen", "twice.wasm")); err != nil || string(wasm) != "\x00asm" {
		t.Fatalf("gen/twice.wasm: %q %v", wasm, err)
	}
	if err := run(root, dir, "idgateX", "x.ts", []string{"../outside"}); err == nil {
		t.Fatal("copied a file outside node_modules")
	}
}
