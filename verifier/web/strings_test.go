package web

import (
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// Every language has exactly English's keys, none empty, and the same
// {placeholders} in each string.
func TestStringsTableComplete(t *testing.T) {
	en := table["en"]
	if len(Langs()) < 2 {
		t.Fatalf("languages %v: want English and at least one more", Langs())
	}
	for _, lang := range Langs() {
		got := table[lang]
		for k, v := range en {
			tr, ok := got[k]
			if !ok || strings.TrimSpace(tr) == "" {
				t.Errorf("%s lacks %q", lang, k)
				continue
			}
			if a, b := placeholders(v), placeholders(tr); !slices.Equal(a, b) {
				t.Errorf("%s %q: placeholders %v, English has %v", lang, k, b, a)
			}
		}
		for k := range got {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which English lacks", lang, k)
			}
		}
	}
	t.Logf("%d strings in %v", len(en), slices.Sorted(maps.Keys(table)))
}

func placeholders(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "{")
		j := strings.Index(s, "}")
		if i < 0 || j < i {
			break
		}
		out = append(out, s[i:j+1])
		s = s[j+1:]
	}
	slices.Sort(out)
	return out
}

func TestLang(t *testing.T) {
	for accept, want := range map[string]string{
		"":                                  "en",
		"es":                                "es",
		"es-MX,es;q=0.9,en;q=0.8":           "es",
		"en-US,en;q=0.9,es;q=0.8":           "en",
		"fr-FR,fr;q=0.9,es;q=0.5":           "fr",
		"fr, de":                            "fr",
		"de-AT;q=0.5, ko;q=0.6":             "ko",
		"pt-BR":                             "pt",
		"pt-PT,pt;q=0.9":                    "pt",
		"vi-VN":                             "vi",
		"ar-EG,ar;q=0.9,en;q=0.5":           "ar",
		"fil-PH":                            "tl",
		"tl":                                "tl",
		"zh-CN,zh;q=0.9":                    "zh",
		"zh-SG":                             "zh",
		"zh-Hans-HK":                        "zh",
		"zh-TW,zh;q=0.9,en;q=0.8":           "zh",
		"zh-TW,en;q=0.8":                    "en",
		"zh-Hant-TW,es;q=0.5":               "es",
		"zh-HK":                             "en",
		"ja-JP,ja;q=0.9":                    "en",
		"en;q=0.2, es;q=0.7":                "es",
		"es;q=bogus, en":                    "en",
		"ES-419":                            "es",
		";;;,,,q=1":                         "en",
		strings.Repeat("es-xx;q=0.1,", 200): "es",
	} {
		if got := Lang(accept); got != want {
			t.Errorf("Lang(%.40q) = %s, want %s", accept, got, want)
		}
	}
}

// The table speaks at least the languages the end-user pages promise
// (docs/end-user-flow.md), Arabic among them.
func TestLangsPromised(t *testing.T) {
	want := []string{"en", "ar", "de", "es", "fr", "ko", "pt", "tl", "vi", "zh"}
	if got := Langs(); !slices.Equal(got, want) {
		t.Errorf("Langs() = %v, want %v", got, want)
	}
}

// Every string whose English text uses a glossary term (docs/glossary.md)
// uses that term's translation in every language, so "license" or
// "barcode" is not called two things on two screens.
func TestGlossary(t *testing.T) {
	g := readGlossary(t, "../../docs/glossary.md")
	en := table["en"]
	checked := 0
	for term, forms := range g {
		re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(term))
		for k, v := range en {
			if !re.MatchString(v) {
				continue
			}
			checked++
			for _, lang := range Langs()[1:] {
				fs, ok := forms[lang]
				if !ok {
					t.Errorf("glossary: %q has no %s column", term, lang)
					continue
				}
				if !containsAny(table[lang][k], fs) {
					t.Errorf("%s %q: English says %q, %s does not say %v: %q", lang, k, term, lang, fs, table[lang][k])
				}
			}
		}
	}
	for _, term := range []string{"license", "barcode"} {
		if g[term] == nil {
			t.Errorf("glossary lacks %q", term)
		}
	}
	if checked < 40 {
		t.Errorf("only %d strings use a glossary term: is the glossary read?", checked)
	}
}

// readGlossary parses the table between the glossary markers of
// docs/glossary.md: English term → language → accepted forms.
func readGlossary(t *testing.T, path string) map[string]map[string][]string {
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
	out := map[string]map[string][]string{}
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
				t.Fatalf("glossary row %q: %d cells, header has %d", line, len(cells), len(cols))
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

func containsAny(s string, forms []string) bool {
	s = strings.ToLower(s)
	return slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(s, strings.ToLower(f)) })
}

func FuzzLang(f *testing.F) {
	f.Add("es-MX,es;q=0.9,en;q=0.8")
	f.Fuzz(func(t *testing.T, accept string) {
		if l := Lang(accept); table[l] == nil {
			t.Fatalf("Lang(%q) = %q, not in the table", accept, l)
		}
	})
}

// Every string is used: by its key in the app or the server, or under a
// prefix the code completes with a code from the API.
func TestStringsAllUsed(t *testing.T) {
	var src strings.Builder
	files, _ := fs.Glob(sources, "src/*.ts")
	for _, f := range files {
		b, _ := sources.ReadFile(f)
		src.Write(b)
	}
	for _, f := range []string{"web.go", "../http/pages.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	dynamic := []string{"problem.", "field.", "live.step.", "live.reason.", "live.stepfail.", "ended."}
	for k := range table["en"] {
		if slices.ContainsFunc(dynamic, func(p string) bool { return strings.HasPrefix(k, p) }) {
			continue
		}
		if !strings.Contains(src.String(), `"`+k+`"`) {
			t.Errorf("string %q is not used", k)
		}
	}
}

// Every reason the liveness engine reports has a sentence in the table:
// each stream-level one its own, each step-level one (but not_reached,
// which only follows another step's failure, said already) one for the
// reason, and each step a sentence of its own for the reasons a person
// can act on.
func TestLivenessReasonsHaveSentences(t *testing.T) {
	en := table["en"]
	for _, r := range liveness.Reasons {
		if _, ok := en["live.reason."+string(r)]; !ok {
			t.Errorf("no sentence for %s", r)
		}
	}
	for _, r := range liveness.StepReasons {
		if r == liveness.StepNotReached {
			continue
		}
		if _, ok := en["live.stepfail."+string(r)]; !ok {
			t.Errorf("no sentence for step reason %s", r)
		}
	}
	for _, s := range []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight} {
		for _, r := range []liveness.Reason{liveness.StepNotObserved, liveness.StepWrong} {
			if _, ok := en["live.stepfail."+string(s)+"."+string(r)]; !ok {
				t.Errorf("no sentence for %s %s", s, r)
			}
		}
	}
	for _, s := range []liveness.Step{liveness.TurnLeft, liveness.TurnRight} {
		if _, ok := en["live.stepfail."+string(s)+"."+string(liveness.StepNotFarEnough)]; !ok {
			t.Errorf("no sentence for %s not_far_enough", s)
		}
	}
}
