// Every string the widget shows, in strings.json: one table per language,
// the same keys in each (a Go test checks it, and the glossary's terms).
// The widget speaks the store's language when the table has it: the
// store's choice (window.idgateWidgetConfig = { lang: "fr" }), else the
// storefront page's <html lang>, else the shopper's browser, else English.
// A store can still reword any string with idgateWidgetConfig.strings =
// { verify: "…", … }; missing keys keep the chosen language's text.
import table from "./strings.json";

export type Strings = (typeof table)["en"];
export type Lang = keyof typeof table;

// pickLang is the first of the candidates the table speaks. Simplified
// Chinese answers zh, zh-CN, zh-SG and zh-Hans-*, never Traditional
// (zh-TW, zh-HK, zh-MO, zh-Hant-*); Tagalog answers tl and fil.
export function pickLang(candidates: readonly (string | null | undefined)[]): Lang {
  for (const c of candidates) {
    const parts = (c || "").trim().toLowerCase().split("-");
    let base = parts[0];
    if (base === "fil") base = "tl";
    if (base === "zh" && parts.slice(1).some((p) => p === "hant" || p === "tw" || p === "hk" || p === "mo") && !parts.includes("hans")) continue;
    if (base in table) return base as Lang;
  }
  return "en";
}

// dir is the writing direction of lang.
export function dir(lang: Lang): "rtl" | "ltr" {
  return lang === "ar" ? "rtl" : "ltr";
}

export function mergeStrings(lang: Lang, overrides: unknown): Strings {
  const out: Strings = { ...table.en, ...table[lang] };
  if (overrides && typeof overrides === "object") {
    for (const k of Object.keys(table.en) as (keyof Strings)[]) {
      const v = (overrides as Record<string, unknown>)[k];
      if (typeof v === "string" && v !== "") out[k] = v;
    }
  }
  return out;
}
