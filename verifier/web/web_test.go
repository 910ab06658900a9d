package web

import (
	"html/template"
	"strings"
	"testing"
)

// budget is the limit for the whole app: script and stylesheet,
// gzipped.
const budget = 60 << 10

func TestAppUnderBudget(t *testing.T) {
	js, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	st, err := Style()
	if err != nil {
		t.Fatal(err)
	}
	total := len(js.Gzip) + len(st.Gzip)
	t.Logf("app: script %d bytes (%d gzipped), stylesheet %d bytes (%d gzipped); %d of %d bytes gzipped", len(js.JS), len(js.Gzip), len(st.JS), len(st.Gzip), total, budget)
	if total > budget {
		t.Fatalf("app is %d bytes gzipped, over the %d byte budget", total, budget)
	}
}

// The pages of ended links need no script and say why, in the language
// asked for; the app's page loads only this origin's script and style.
func TestPages(t *testing.T) {
	for _, why := range []Ended{Unknown, Expired, Canceled, Completed, InReview} {
		for _, lang := range Langs() {
			b, err := EndedPage(lang, why, Requester{})
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			title := T(lang, "ended."+string(why)+".title")
			if !strings.Contains(page, `<html lang="`+lang+`" dir="`+Dir(lang)+`">`) || !strings.Contains(page, "<h1>"+template.HTMLEscapeString(title)+"</h1>") ||
				strings.Contains(page, "<script") || strings.Contains(page, "style=") || !strings.Contains(page, `data-screen="ended-`+string(why)+`"`) {
				t.Errorf("%s %s: %s", lang, why, page)
			}
		}
	}
	b, err := App("es", Requester{})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := Script()
	st, _ := Style()
	page := string(b)
	if !strings.Contains(page, `<script defer src="`+js.Path()+`"></script>`) || !strings.Contains(page, `<link rel="stylesheet" href="`+st.Path()+`">`) ||
		strings.Count(page, "<script") != 2 || strings.Count(page, "<script defer") != 1 || strings.Contains(page, "style=") || !strings.Contains(page, "<h1>Verifica tu identidad</h1>") ||
		!strings.Contains(page, `<script type="application/json" id="idgate-strings" data-lang="es">{"app.noscript":`) {
		t.Fatalf("app page: %s", page)
	}
	if !strings.HasPrefix(js.Path(), "/assets/flow-") || !strings.HasSuffix(st.Path(), ".css") {
		t.Fatalf("asset paths %s %s", js.Path(), st.Path())
	}
}
