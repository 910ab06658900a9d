package bundle_test

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/idgate/idgate/internal/bundle"
)

// app is a two-file program with a type, an import and long names, so
// minification has something to remove; embedded like the real sources.
//
//go:embed testdata/app
var app embed.FS

const entry = "testdata/app/main.ts"

func TestBuildMinifiesIntoOneIIFE(t *testing.T) {
	b, err := bundle.Build(bundle.Options{Sources: app, Entry: entry})
	if err != nil {
		t.Fatal(err)
	}
	js := string(b.JS)
	t.Logf("%d bytes: %s", len(js), js)
	if !strings.HasPrefix(js, "(()=>{") || !strings.HasSuffix(strings.TrimSpace(js), "})();") {
		t.Fatalf("not one minified IIFE: %q", js)
	}
	for _, gone := range []string{"veryLongVariableName", "whoeverItIs", "greetingFor", "comment", ": string", "\n  "} {
		if strings.Contains(js, gone) {
			t.Errorf("minified bundle still contains %q", gone)
		}
	}
	if !strings.Contains(js, `"hello, "`) || !strings.Contains(js, "document.title") {
		t.Fatalf("bundle lost the program: %q", js)
	}
}

func TestGzipAndETag(t *testing.T) {
	a, err := bundle.Build(bundle.Options{Sources: app, Entry: entry})
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(a.Gzip))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(plain, a.JS) {
		t.Fatalf("gzip form does not decompress to the script (%v)", err)
	}
	// The run of "!" compresses: the gzip form must be clearly smaller.
	if len(a.Gzip) >= len(a.JS)*3/4 {
		t.Fatalf("gzip %d bytes for %d bytes of script", len(a.Gzip), len(a.JS))
	}
	if len(a.ETag) != 26 || a.ETag[0] != '"' || a.ETag[25] != '"' {
		t.Fatalf("ETag %q is not a quoted 24-hex validator", a.ETag)
	}
	b, err := bundle.Build(bundle.Options{Sources: app, Entry: entry})
	if err != nil {
		t.Fatal(err)
	}
	if a.ETag != b.ETag || !bytes.Equal(a.JS, b.JS) {
		t.Fatalf("two builds differ: %s vs %s", a.ETag, b.ETag)
	}
	main, err := app.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	changed := fstest.MapFS{"main.ts": {Data: main}, "lib/greet.ts": {Data: []byte(`export const greetingFor = (w: string) => "bye " + w;`)}}
	c, err := bundle.Build(bundle.Options{Sources: changed, Entry: "main.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if c.ETag == a.ETag {
		t.Fatal("a different program has the same ETag")
	}
}

func TestGlobalNameExposesExports(t *testing.T) {
	b, err := bundle.Build(bundle.Options{Sources: app, Entry: "testdata/app/lib/greet.ts", GlobalName: "greetTest"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b.JS), "var greetTest=") {
		t.Fatalf("exports not on the global: %.40q", b.JS)
	}
}

func TestOnceBuildsOnce(t *testing.T) {
	get := bundle.Once(bundle.Options{Sources: app, Entry: entry})
	a, err := get()
	if err != nil {
		t.Fatal(err)
	}
	b, err := get()
	if err != nil || a != b {
		t.Fatalf("second call built again (%p vs %p, %v)", a, b, err)
	}
}

func TestErrorsSurface(t *testing.T) {
	for name, tc := range map[string]struct {
		fs    fstest.MapFS
		entry string
		want  []string
	}{
		"typescript syntax":  {fstest.MapFS{"a.ts": {Data: []byte("const x: number = ;\n")}}, "a.ts", []string{"a.ts:1:", "Unexpected"}},
		"missing import":     {fstest.MapFS{"a.ts": {Data: []byte(`import "./nope";`)}}, "a.ts", []string{"no source nope.ts"}},
		"leaves sources":     {fstest.MapFS{"a.ts": {Data: []byte(`import "../etc/passwd";`)}}, "a.ts", []string{"leaves the sources"}},
		"npm without dir":    {fstest.MapFS{"a.ts": {Data: []byte(`import "left-pad";`)}}, "a.ts", []string{`"left-pad"`, "NodeModules"}},
		"missing entry":      {fstest.MapFS{}, "main.ts", []string{"no source main.ts"}},
		"entry of no loader": {fstest.MapFS{"a.css": {Data: []byte("a{}")}}, "a.css", []string{"a.css", "only .ts, .js and .json"}},
		"css is refused":     {fstest.MapFS{"a.ts": {Data: []byte(`import "./x.css";`)}, "x.css": {Data: []byte("a{}")}}, "a.ts", []string{`"./x.css"`, "only .ts, .js and .json"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := bundle.Build(bundle.Options{Sources: tc.fs, Entry: tc.entry})
			if err == nil {
				t.Fatal("built")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// Bare imports resolve from NodeModules, packages' own imports included,
// and the package's code is bundled in.
func TestNodeModules(t *testing.T) {
	uses := fstest.MapFS{"main.ts": {Data: []byte(`import { shout } from "shouty"; document.title = shout("hi");`)}}
	b, err := bundle.Build(bundle.Options{Sources: uses, Entry: "main.ts", NodeModules: "testdata/node_modules"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b.JS), "toUpperCase") || !strings.Contains(string(b.JS), `"!!"`) {
		t.Fatalf("package code not bundled: %s", b.JS)
	}
	missing := fstest.MapFS{"main.ts": {Data: []byte(`import "not-installed";`)}}
	if _, err := bundle.Build(bundle.Options{Sources: missing, Entry: "main.ts", NodeModules: "testdata/node_modules"}); err == nil || !strings.Contains(err.Error(), "not-installed") {
		t.Fatalf("uninstalled package: %v", err)
	}
}

// A JSON file imports as a module: its content is bundled, not fetched.
func TestJSONImport(t *testing.T) {
	src := fstest.MapFS{
		"main.ts":      {Data: []byte(`import table from "./strings.json"; document.title = table.en.hello;`)},
		"strings.json": {Data: []byte(`{"en":{"hello":"hello from json"}}`)},
	}
	b, err := bundle.Build(bundle.Options{Sources: src, Entry: "main.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b.JS), "hello from json") {
		t.Fatalf("bundle lacks the JSON content: %s", b.JS)
	}
}

// A generated file is served under a name that changes with its content;
// one that `make npm` did not write is the package's ErrNotBuilt.
func TestGenerated(t *testing.T) {
	notBuilt := errors.New("not built")
	gen := fstest.MapFS{"gen/reader.wasm": {Data: []byte("\x00asm one")}, "gen/README.md": {Data: []byte("x")}}
	a, err := bundle.Generated(gen, "reader.wasm", notBuilt)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^reader-[0-9a-f]{16}\.wasm$`).MatchString(a.Name) || string(a.JS) != "\x00asm one" || a.Name[7:23] != a.ETag[1:17] ||
		a.ContentType != bundle.Wasm || a.Path() != "/assets/"+a.Name {
		t.Fatalf("asset %s (ETag %s, %s, at %s)", a.Name, a.ETag, a.ContentType, a.Path())
	}
	gen["gen/reader.wasm"] = &fstest.MapFile{Data: []byte("\x00asm two")}
	if b, _ := bundle.Generated(gen, "reader.wasm", notBuilt); b == nil || b.Name == a.Name {
		t.Fatalf("new content, same name %s", a.Name)
	}
	if _, err := bundle.Generated(gen, "barcode.js", notBuilt); !errors.Is(err, notBuilt) || !strings.Contains(err.Error(), "barcode.js") {
		t.Fatalf("missing file: %v", err)
	}
	// A kind of file npmgen does not write has no content type to serve.
	if _, err := bundle.Generated(gen, "README.md", notBuilt); err == nil || errors.Is(err, notBuilt) {
		t.Fatalf("unknown kind: %v", err)
	}
}

// "@idgate/dom" is the shared DOM builder (shared/dom.ts), from any
// bundle's sources; an unknown shared module is an error naming it.
func TestSharedModules(t *testing.T) {
	src := fstest.MapFS{"main.ts": {Data: []byte(`import { h } from "@idgate/dom"; document.body.append(h("p", { class: "x" }, "shared"));`)}}
	b, err := bundle.Build(bundle.Options{Sources: src, Entry: "main.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if js := string(b.JS); !strings.Contains(js, "createElement") || !strings.Contains(js, `"shared"`) {
		t.Fatalf("the shared builder is not in the bundle: %s", js)
	}
	src["main.ts"] = &fstest.MapFile{Data: []byte(`import { h } from "@idgate/nope"; h();`)}
	if _, err := bundle.Build(bundle.Options{Sources: src, Entry: "main.ts"}); err == nil || !strings.Contains(err.Error(), "@idgate/nope") {
		t.Fatalf("unknown shared module: %v", err)
	}
}
