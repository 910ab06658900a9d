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
		if l := Supported(tag); l != "" && q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}

// PageLang is the language of a page: the one chosen on the page's menu
// (?lang=, when the table has it), else Lang(accept).
func PageLang(query, accept string) string {
	if l := Supported(query); l != "" {
		return l
	}
	return Lang(accept)
}

// Supported is the table's language for a BCP 47 tag, or "" when the
// table has none. Chinese is Simplified only: zh, zh-CN, zh-SG and
// zh-Hans-* get it; Traditional (zh-Hant-*, zh-TW, zh-HK, zh-MO) does not,
// since a Traditional reader should not be handed Simplified script. Tagalog
// is asked for as tl or fil (Filipino). src/i18n.ts does the same for the
// browser's languages.
func Supported(tag string) string {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(tag)), "-")
	base := parts[0]
	switch base {
	case "fil":
		base = "tl"
	case "zh":
		for _, p := range parts[1:] {
			switch p {
			case "hant", "tw", "hk", "mo":
				return ""
			case "hans":
				return "zh"
			}
		}
	}
	if _, ok := table[base]; ok {
		return base
	}
	return ""
}
