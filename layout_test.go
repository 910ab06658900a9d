// Package idgate_test guards the repository's layout: the import rules of
// docs/layout.md, and that its table names every package, so neither can
// drift from the tree (docs/layout.md).
package idgate_test

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/idgate/idgate"

// pkg is one package of the module as go list sees it.
type pkg struct {
	imports []string // direct, outside the standard library
	deps    []string // transitive, outside the standard library
	test    []string // direct imports of its tests
	cgo     bool
}

// listPackages runs go list once over the module. Paths are relative to the
// module ("verifier/flow"); other modules' paths stay whole.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}|{{len .CgoFiles}}`,
		"./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		pkgs[rel(f[0])] = pkg{imports: nonStd(f[1]), deps: nonStd(f[2]), test: nonStd(f[3]), cgo: f[4] != "0"}
	}
	return pkgs
}

func rel(p string) string {
	if p == module {
		return "."
	}
	return strings.TrimPrefix(p, module+"/")
}

// nonStd keeps the paths outside the standard library (a dot in the first
// element, or the module itself).
func nonStd(list string) []string {
	var out []string
	for _, p := range strings.Fields(list) {
		if strings.HasPrefix(p, module) || strings.Contains(strings.Split(p, "/")[0], ".") {
			out = append(out, rel(p))
		}
	}
	return out
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

func anyUnder(p string, dirs ...string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return under(p, d) })
}

// isModule reports whether p is one of the module's packages.
func isModule(pkgs map[string]pkg, p string) bool { _, ok := pkgs[p]; return ok }

// TestImportRules enforces the "may import" column's key rules.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	need := func(p string) pkg {
		t.Helper()
		x, ok := pkgs[p]
		if !ok {
			t.Fatalf("package %s is gone: update this test and docs/layout.md's table", p)
		}
		return x
	}

	// The domain imports no adapter: only these of the module's packages.
	// verifier/imgio is the bounded, pure-Go image decoder: the domain uses
	// it to hold a requester's logo to its rules (format, bytes, pixels)
	// and to re-encode it, as it holds every other input to its rules.
	domain := []string{"verifier/e2ee", "verifier/face/match", "verifier/imgio", "verifier/ipintel", "verifier/license",
		"verifier/webhook", "internal/password", "internal/problem", "internal/seal"}
	for _, imp := range need("verifier").imports {
		if isModule(pkgs, imp) && !slices.Contains(domain, imp) {
			t.Errorf("verifier imports %s; the domain may import only %v", imp, domain)
		}
	}

	// No package of the domain's side reaches a database driver, the web
	// framework or cgo.
	for _, p := range []string{"verifier", "verifier/webhook", "verifier/flow", "verifier/license", "rulesets"} {
		for _, d := range need(p).deps {
			if anyUnder(d, "github.com/gofiber", "github.com/jackc", "modernc.org/sqlite", "verifier/sqlstore", "verifier/http") {
				t.Errorf("%s depends on %s", p, d)
			}
		}
	}

	// webhook is a leaf below the domain (the verifier imports it).
	for _, d := range need("verifier/webhook").deps {
		if d == "verifier" || d == "internal/httperr" || anyUnder(d, "verifier/flow", "verifier/sqlstore") {
			t.Errorf("verifier/webhook depends on %s; it must stay a leaf", d)
		}
	}

	// The flow speaks to engines and storage through its ports only.
	for _, d := range need("verifier/flow").deps {
		if anyUnder(d, "verifier/engines", "verifier/web", "verifier/license/pdf417", "verifier/license/card", "verifier/ipintel/ipdb") {
			t.Errorf("verifier/flow depends on %s; it reaches engines and storage through its ports", d)
		}
	}

	// license, mrz and rulesets are pure: nothing outside the standard
	// library, but for mrz the license it answers the document port in
	// (mrz.Document speaks license.Checks, license.Holder, ...).
	for _, p := range []string{"verifier/license", "verifier/mrz", "rulesets"} {
		for _, d := range need(p).deps {
			if !(p == "verifier/mrz" && d == "verifier/license") {
				t.Errorf("%s is pure but depends on %s", p, d)
			}
		}
	}

	// The proxy knows the verifier only through client (which brings
	// verifier/e2ee). Its tests may also run the real verifier on loopback
	// (verifier/verifiertest, with the domain and server configuration its
	// options take), as a merchant's proxy meets one; nothing else of it.
	testVerifier := []string{"verifier/verifiertest", "verifier", "verifier/http"}
	for p, x := range pkgs {
		if !under(p, "proxy") {
			continue
		}
		for _, d := range x.deps {
			if under(d, "verifier") && d != "verifier/e2ee" {
				t.Errorf("%s depends on %s; the proxy talks to the verifier through client", p, d)
			}
		}
		for _, d := range x.test {
			if under(d, "verifier") && d != "verifier/e2ee" && !slices.Contains(testVerifier, d) {
				t.Errorf("%s's tests import %s; they reach the verifier through client or run it with verifier/verifiertest", p, d)
			}
		}
	}

	// Wiring only in cmd (the bench programs, proxy/server, which
	// assembles the proxy for cmd, verifier/verifiertest and proxy/proxytest,
	// which assemble the real verifier and proxy for tests, and
	// verifier/engines/enginestest, which loads the engines for tests): the
	// adapters are imported by no other package outside tests.
	for p, x := range pkgs {
		if anyUnder(p, "cmd", "bench", "proxy/server", "verifier/verifiertest", "proxy/proxytest", "verifier/engines/enginestest") {
			continue
		}
		for _, imp := range x.imports {
			if slices.Contains([]string{"verifier/sqlstore", "verifier/engines", "verifier/http", "proxy/server", "proxy/storefile", "verifier/ipintel/ipdb"}, imp) {
				t.Errorf("%s imports the adapter %s; wiring belongs in cmd", p, imp)
			}
		}
	}

	// cgo lives in two packages, the C and C++ engines with no Go
	// equivalent (zxing-cpp for PDF417, Tesseract for the printed front),
	// which only the engines (and the barcode and card tools) reach.
	cgoPkgs := []string{"verifier/license/pdf417/zxing", "verifier/license/tesseract"}
	for _, c := range cgoPkgs {
		if !need(c).cgo {
			t.Errorf("the cgo probe finds no cgo in %s; the checks below could not fail", c)
		}
	}
	for p, x := range pkgs {
		if x.cgo && !slices.Contains(cgoPkgs, p) {
			t.Errorf("%s has cgo files; cgo belongs to %v alone", p, cgoPkgs)
		}
	}
	for _, p := range []string{"verifier", "verifier/flow", "verifier/imgio", "verifier/license", "verifier/webhook", "rulesets"} {
		for _, c := range cgoPkgs {
			if slices.Contains(need(p).deps, c) {
				t.Errorf("cgo (%s) reaches %s", c, p)
			}
		}
	}
}

// closure is roots and every module package they reach (tests' imports are
// direct only in go list).
func closure(pkgs map[string]pkg, roots []string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, d := range pkgs[p].deps {
			walk(d)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	return out
}

// TestCgoFreeBuild: the domain, the flow, the image decoder, the proxy and
// the rulesets build with CGO_ENABLED=0 (so they run where no C toolchain
// is, and the cgo engines stay behind their ports). Checked on go list's
// view instead of by building (which compiled the whole tree a second time,
// about a minute of CI): outside the standard library, no dependency has
// cgo files, and each compiles the same Go files with cgo off as with it on,
// so with cgo off the same code builds. The standard library builds either
// way by design.
func TestCgoFreeBuild(t *testing.T) {
	roots := []string{"./verifier/", "./verifier/flow/", "./verifier/imgio/", "./verifier/license/",
		"./verifier/webhook/", "./proxy/...", "./rulesets/"}
	list := func(cgo string) map[string]string {
		t.Helper()
		cmd := exec.Command("go", append([]string{"list", "-deps", "-f",
			`{{if not .Standard}}{{.ImportPath}}|{{join .GoFiles ","}}|{{len .CgoFiles}}{{end}}`}, roots...)...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+cgo)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("CGO_ENABLED=%s go list: %v", cgo, err)
		}
		files := map[string]string{}
		for _, line := range strings.Fields(string(out)) {
			f := strings.Split(line, "|")
			if f[2] != "0" {
				t.Errorf("%s has cgo files: it needs a C toolchain", f[0])
			}
			files[f[0]] = f[1]
		}
		return files
	}
	on, off := list("1"), list("0")
	for p, files := range on {
		if off[p] != files {
			t.Errorf("%s compiles other files with cgo off (%q) than on (%q)", p, off[p], files)
		}
	}
	if len(on) != len(off) {
		t.Errorf("the dependencies differ with cgo off: %d packages on, %d off", len(on), len(off))
	}
}

// tablePath is a backquoted path in the first column of a table row.
var tablePath = regexp.MustCompile("`([^`]+)`")

// layoutTable reads the first column of the table under "## Layout" in
// docs/layout.md.
func layoutTable(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var paths []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Layout"
		case in && strings.HasPrefix(line, "| `"):
			first := strings.SplitN(line, "|", 3)[1]
			for _, m := range tablePath.FindAllStringSubmatch(first, -1) {
				paths = append(paths, path.Clean(strings.TrimSuffix(m[1], "/")))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestLayoutTable: docs/layout.md's table names every package of the
// module, and every path it names exists.
func TestLayoutTable(t *testing.T) {
	paths := layoutTable(t)
	if len(paths) == 0 {
		t.Fatal("no layout table under ## Layout in docs/layout.md")
	}
	for p := range listPackages(t) {
		if p != "." && !slices.Contains(paths, p) {
			t.Errorf("package %s is missing from docs/layout.md's table", p)
		}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("docs/layout.md's table names %s, which does not exist", p)
		}
	}
}
