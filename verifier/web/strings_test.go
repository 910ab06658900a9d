package web

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit/strtable"
	"github.com/idgate/idgate/verifier/face/liveness"
)

// Every language has exactly English's keys, none empty, and the same
// {placeholders} in each string.
func TestStringsTableComplete(t *testing.T) {
	strtable.Complete(t, table)
	t.Logf("%d strings in %v", len(table["en"]), Langs())
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
	g := strtable.ReadGlossary(t, "../../docs/glossary.md")
	for _, term := range []string{"license", "barcode", "selfie video", "requester"} {
		if g[term] == nil {
			t.Errorf("glossary lacks %q", term)
		}
	}
	if n := strtable.Consistent(t, table, g); n < 40 {
		t.Errorf("only %d strings use a glossary term: is the glossary read?", n)
	}
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
		// app.named("k") uses k and, for a requester with a name, k.named.
		base, named := strings.CutSuffix(k, ".named")
		if !strings.Contains(src.String(), `"`+k+`"`) && !(named && strings.Contains(src.String(), `named("`+base+`")`)) {
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

func TestPageLang(t *testing.T) {
	for _, c := range []struct{ query, accept, want string }{
		{"ar", "en-US", "ar"},
		{"", "de-DE", "de"},
		{"xx", "es", "es"},
		{"zh-TW", "en", "en"},
		{"fil", "en", "tl"},
	} {
		if got := PageLang(c.query, c.accept); got != c.want {
			t.Errorf("PageLang(%q, %q) = %s, want %s", c.query, c.accept, got, c.want)
		}
	}
}

// The pages of ended links, which have no script, speak the language
// asked for, mirror for Arabic and carry the menu of every language, each
// named in itself, the page's own selected.
func TestEndedPageLanguageMenu(t *testing.T) {
	b, err := EndedPage("ar", Canceled, Requester{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`<html lang="ar" dir="rtl">`, `<form class="langs" method="get">`, `<select id="lang" name="lang">`,
		`<option value="ar" lang="ar" dir="rtl" selected>العربية</option>`, `<option value="zh" lang="zh" dir="ltr">中文（简体）</option>`,
		`<button type="submit" class="sec">` + T("ar", "lang.apply") + `</button>`, T("ar", "ended.canceled.title")} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(page, "<option "); n != len(Langs()) {
		t.Errorf("%d options, want %d", n, len(Langs()))
	}
}
