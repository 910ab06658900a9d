// The one string table (strings.json, shared with the Go side that renders
// the pages) and the language the page speaks. Only English is bundled (the
// named import lets esbuild leave the other languages out); the server
// writes the page's own language into the page as a JSON data block
// (web.go), so the app carries one language, not ten.
import { en } from "../strings.json";

export type Key = keyof typeof en;
// Lang is a language code of the table (web.Langs), as the server names it.
export type Lang = string;

let lang: Lang = "en";
let table: Record<string, string> = en;

// pickLang takes the language the server wrote the page in (<html lang>
// and the data block: ?lang=, else Accept-Language). When this tab chose
// another one on this link's menu (sessionStorage: Back to an entry opened
// before the choice), it loads the page again in that one and answers
// null: the caller stops there.
export function pickLang(doc: Document): Lang | null {
  const block = doc.getElementById("idgate-strings");
  const served = block?.getAttribute("data-lang") || "en";
  const want = saved();
  if (want && want !== served && block && offered(doc, want)) {
    reloadIn(want);
    return null;
  }
  lang = "en";
  table = en;
  if (block && served !== "en") {
    try {
      table = JSON.parse(block.textContent || "{}");
      lang = served;
    } catch {
      table = en;
    }
  }
  doc.documentElement.lang = lang;
  doc.documentElement.dir = lang === "ar" ? "rtl" : "ltr";
  return lang;
}

// offered: the page's menu has l (so the server speaks it, and a reload
// in it cannot loop).
function offered(doc: Document, l: string): boolean {
  return !!doc.querySelector(`form.langs option[value="${CSS.escape(l)}"]`);
}

// The choice is kept per link (the path holds its token) for the tab.
function savedKey(): string {
  return "idgate.lang:" + location.pathname;
}

function saved(): string | null {
  try {
    return sessionStorage.getItem(savedKey());
  } catch {
    return null; // storage blocked: the URL's ?lang= still holds it
  }
}

// reloadIn loads this entry again in l (?lang=), replacing it rather than
// adding one to the history.
function reloadIn(l: string): void {
  const u = new URL(location.href);
  u.searchParams.set("lang", l);
  history.replaceState(history.state, "", u.href);
  location.reload();
}

// langMenu wires the server's language menu (web.go): choosing keeps the
// choice for the link and loads the page again in it (?lang= in its URL,
// so a reload and the pages of an ended link speak it too), replacing this
// history entry instead of adding one.
export function langMenu(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>("form.langs");
  const sel = form?.querySelector<HTMLSelectElement>("select");
  if (!form || !sel) return;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const l = sel.value;
    if (!offered(doc, l)) return;
    try {
      sessionStorage.setItem(savedKey(), l);
    } catch {
      /* the URL keeps it */
    }
    reloadIn(l);
  });
}

export function currentLang(): Lang {
  return lang;
}

// t returns the string for key with {name} placeholders filled in.
export function t(key: Key, vars?: Record<string, string | number>): string {
  let s: string = table[key] ?? en[key];
  if (vars) for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(String(vars[k]));
  return s;
}

// has reports whether key is in the table (codes from the server map to
// keys; unknown ones fall back to a generic sentence).
export function has(key: string): key is Key {
  return key in en;
}
