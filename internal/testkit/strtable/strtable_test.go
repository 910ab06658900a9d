package strtable

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps the failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *recorder) Helper()                   {}

func TestCompleteFindsEachDefect(t *testing.T) {
	tab := Table{
		"en": {"a": "Step {n} of {total}", "b": "Hello", "c": "x"},
		"fr": {"a": "Étape {n} sur {totale}", "b": "", "d": "extra"},
	}
	r := &recorder{TB: t}
	Complete(r, tab)
	want := []string{"%s %q: placeholders %v, English has %v", "%s lacks %q", "%s lacks %q", "%s has %q, which English lacks"}
	slices.Sort(r.errs)
	slices.Sort(want)
	if !slices.Equal(r.errs, want) {
		t.Errorf("errors %q, want %q", r.errs, want)
	}
}

func TestPlaceholders(t *testing.T) {
	for s, want := range map[string]string{
		"Step {n} of {total}": "{n} {total}",
		"{total}: {n}":        "{n} {total}",
		"broken {n":           "{",
		"none":                "",
	} {
		if got := strings.Join(Placeholders(s), " "); got != want {
			t.Errorf("Placeholders(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestGlossary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g.md")
	md := "x\n<!-- glossary:begin -->\n| English | fr | ar |\n|---|---|---|\n| license | permis de conduire / permis | رخصة |\n<!-- glossary:end -->\n"
	if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	g := ReadGlossary(t, p)
	tab := Table{
		"en": {"a": "Your driver's license", "b": "Licenses expire", "c": "unrelated"},
		"fr": {"a": "Votre permis", "b": "Les cartes expirent", "c": "autre"},
		"ar": {"a": "رخصتك", "b": "تنتهي الرخص", "c": "أخرى"},
	}
	r := &recorder{TB: t}
	if n := Consistent(r, tab, g); n != 2 {
		t.Errorf("checked %d strings, want 2", n)
	}
	if len(r.errs) != 3 {
		t.Errorf("%d errors, want 3 (fr b, ar a, ar b)", len(r.errs))
	}
}
