// Command npmgen is what `go generate` runs, from `make npm`, in a package
// that ships npm code to the browser: it bundles the package's TypeScript
// entry with the npm packages it imports into gen/<entry>.js, one minified
// script with internal/bundle's esbuild settings (the settings every
// served script is built with), and copies files the bundle loads at run
// time (WebAssembly) from node_modules into gen/. The packages come from
// the module's node_modules, installed by `npm ci` from the committed
// package-lock.json; gen/ is gitignored and embedded, read through
// bundle.Generated, so the binary never reads node_modules.
//
// Usage, in the package's directory:
//
//	npmgen -global NAME ENTRY.ts [FILE ...]
//
// NAME is the global the entry's exports are assigned to; each FILE is a
// path under node_modules, copied into gen/ under its base name.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/internal/modroot"
)

func main() {
	global := flag.String("global", "", "the global the entry's exports are assigned to")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: npmgen -global NAME ENTRY.ts [FILE under node_modules ...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *global == "" || flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	root, err := modroot.Find()
	if err == nil {
		err = run(root, ".", *global, flag.Arg(0), flag.Args()[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmgen:", err)
		os.Exit(1)
	}
}

// run bundles dir/entry into dir/gen with root/node_modules.
func run(root, dir, global, entry string, copies []string) error {
	nodeModules := filepath.Join(root, "node_modules")
	if _, err := os.Stat(filepath.Join(nodeModules, ".package-lock.json")); err != nil {
		return errors.New("no node_modules at the module root: run `make npm` (npm ci from package-lock.json)")
	}
	b, err := bundle.Build(bundle.Options{Sources: os.DirFS(dir), Entry: entry, NodeModules: nodeModules, GlobalName: global, Strict: true})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "gen"), 0o755); err != nil {
		return err
	}
	out := filepath.Join(dir, "gen", strings.TrimSuffix(filepath.Base(entry), filepath.Ext(entry))+".js")
	if err := os.WriteFile(out, b.JS, 0o644); err != nil {
		return err
	}
	for _, f := range copies {
		if !fs.ValidPath(f) {
			return fmt.Errorf("%s: not a path under node_modules", f)
		}
		body, err := os.ReadFile(filepath.Join(nodeModules, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "gen", filepath.Base(f)), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}
