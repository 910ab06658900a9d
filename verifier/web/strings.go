package web

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

//go:embed strings.json
var stringsJSON []byte

// table is strings.json: language → key → text. A test keeps every
// language's keys equal to English's.
var table = func() map[string]map[string]string {
	var t map[string]map[string]string
	if err := json.Unmarshal(stringsJSON, &t); err != nil {
		panic("web: strings.json: " + err.Error())
	}
	return t
}()

// Langs are the languages of the table, English first.
func Langs() []string {
	out := []string{"en"}
	for l := range table {
		if l != "en" {
			out = append(out, l)
		}
	}
	slices.Sort(out[1:])
	return out
}

// T is the text of key in lang (English when lang lacks it).
func T(lang, key string) string {
	if s, ok := table[lang][key]; ok {
		return s
	}
	return table["en"][key]
}

// Lang picks the page's language from an Accept-Language header: the
// supported language with the highest q (earliest on ties), else English.
func Lang(accept string) string {
	best, bestQ := "en", 0.0
	for _, part := range strings.Split(accept, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if _, ok := table[base]; ok && q > bestQ {
			best, bestQ = base, q
		}
	}
	return best
}
