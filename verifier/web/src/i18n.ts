// The one string table (strings.json, shared with the Go side that renders
// the pages for ended links) and the language the page speaks.
import table from "../strings.json";

export type Lang = keyof typeof table;
export type Key = keyof (typeof table)["en"];

let lang: Lang = "en";

// pickLang chooses the language: the one the server chose from
// Accept-Language (<html lang>), else the browser's, else English.
export function pickLang(doc: Document, nav: Navigator): Lang {
  for (const c of [doc.documentElement.lang, ...(nav.languages || []), nav.language]) {
    const l = supported(c || "");
    if (l) return (lang = l);
  }
  return (lang = "en");
}

// supported is the table's language for a BCP 47 tag, as the server's
// web.Supported: Simplified Chinese for zh, zh-CN, zh-SG and zh-Hans-*, none
// for Traditional (zh-Hant-*, zh-TW, zh-HK, zh-MO); Tagalog for tl and fil.
export function supported(tag: string): Lang | null {
  const parts = tag.trim().toLowerCase().split("-");
  let base = parts[0];
  if (base === "fil") base = "tl";
  if (base === "zh") {
    for (const p of parts.slice(1)) {
      if (p === "hant" || p === "tw" || p === "hk" || p === "mo") return null;
      if (p === "hans") break;
    }
  }
  return base in table ? (base as Lang) : null;
}

export function currentLang(): Lang {
  return lang;
}

// t returns the string for key with {name} placeholders filled in.
export function t(key: Key, vars?: Record<string, string | number>): string {
  let s: string = table[lang][key] ?? table.en[key];
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}

// has reports whether key is in the table (codes from the server map to
// keys; unknown ones fall back to a generic sentence).
export function has(key: string): key is Key {
  return key in table.en;
}
