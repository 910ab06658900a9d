// Package strtable checks the string tables of the end user's pages
// (verifier/web/strings.json) and the storefront widget
// (widget/src/strings.json): every language has English's keys and no
// others, no empty text, the same {placeholders} as English, and the
// glossary's term (docs/glossary.md) wherever English uses the English
// one.
package strtable

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Table is language → key → text, English under "en".
type Table map[string]map[string]string

// Complete fails t for every key a language lacks or adds, every empty
// text and every string whose placeholders differ from English's.
func Complete(t testing.TB, tab Table) {
	t.Helper()
	en := tab["en"]
	if len(en) == 0 || len(tab) < 2 {
		t.Fatalf("table of %d languages, %d English strings: want English and more", len(tab), len(en))
	}
	for _, lang := range slices.Sorted(maps.Keys(tab)) {
		got := tab[lang]
		for _, k := range slices.Sorted(maps.Keys(en)) {
			tr, ok := got[k]
			if !ok || strings.TrimSpace(tr) == "" {
				t.Errorf("%s lacks %q", lang, k)
				continue
			}
			if a, b := Placeholders(en[k]), Placeholders(tr); !slices.Equal(a, b) {
				t.Errorf("%s %q: placeholders %v, English has %v", lang, k, b, a)
			}
		}
		for k := range got {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which English lacks", lang, k)
			}
		}
	}
}

// Placeholders are s's {name}s, sorted, with any stray brace kept as a
// placeholder of its own so "{n" or "n}" differs from "{n}".
func Placeholders(s string) []string {
	out := regexp.MustCompile(`\{[^{}]*\}|[{}]`).FindAllString(s, -1)
	slices.Sort(out)
	return out
}

// Glossary is English term → language → the forms a translation may use.
type Glossary map[string]map[string][]string

// ReadGlossary parses the table between docs/glossary.md's markers: a
// header row of languages, then one row a term, each cell its forms
// separated by "/".
func ReadGlossary(t testing.TB, path string) Glossary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(b), "<!-- glossary:begin -->")
	body, _, ok2 := strings.Cut(body, "<!-- glossary:end -->")
	if !ok || !ok2 {
		t.Fatalf("%s: no glossary markers", path)
	}
	var cols []string
	out := Glossary{}
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cols == nil:
			cols = cells
		case strings.HasPrefix(cells[0], "---"):
		default:
			if len(cells) != len(cols) {
				t.Fatalf("glossary row %q: %d cells, the header has %d", line, len(cells), len(cols))
			}
			row := map[string][]string{}
			for i, c := range cells[1:] {
				for _, f := range strings.Split(c, "/") {
					row[cols[i+1]] = append(row[cols[i+1]], strings.TrimSpace(f))
				}
			}
			out[strings.ToLower(cells[0])] = row
		}
	}
	return out
}

// Consistent fails t for every string of every language that does not use
// one of its language's forms of a term where the English text uses the
// term (as a word start, any case). It returns how many English strings
// use a term, so a caller can tell a glossary that matched nothing.
func Consistent(t testing.TB, tab Table, g Glossary) int {
	t.Helper()
	checked := 0
	for _, term := range slices.Sorted(maps.Keys(g)) {
		forms := g[term]
		re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(term))
		for _, k := range slices.Sorted(maps.Keys(tab["en"])) {
			if !re.MatchString(tab["en"][k]) {
				continue
			}
			checked++
			for _, lang := range slices.Sorted(maps.Keys(tab)) {
				if lang == "en" {
					continue
				}
				fs, ok := forms[lang]
				if !ok {
					t.Errorf("glossary: %q has no %s column", term, lang)
					continue
				}
				if !containsAny(tab[lang][k], fs) {
					t.Errorf("%s %q: English says %q, %s says none of %v: %q", lang, k, term, lang, fs, tab[lang][k])
				}
			}
		}
	}
	return checked
}

func containsAny(s string, forms []string) bool {
	s = strings.ToLower(s)
	return slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(s, strings.ToLower(f)) })
}
