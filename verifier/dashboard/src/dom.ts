// The dashboard's DOM helpers: the builder it shares with the end-user
// pages (internal/bundle/shared/dom.ts), and its forms' and tables' own.
import { type Child, h } from "@idgate/dom";

export { busy, button, h } from "@idgate/dom";

let uid = 0;
// id is a fresh element id (labels, descriptions).
export function id(prefix: string): string {
  uid++;
  return prefix + "-" + uid;
}

// field is a labelled form control with an optional hint.
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  if (!control.id) control.id = id("f");
  const hintEl = hint ? h("p", { class: "hint", id: control.id + "-hint" }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: control.id }, label), hintEl, control);
}

// when formats an RFC 3339 time for people, in their time zone.
export function when(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// table is a list table: one header row, one row per item. Each cell
// carries its column's name (data-label), which narrow screens show beside
// the value when the rows are stacked.
export function table(caption: string, headers: string[], rows: Child[][], cls = ""): HTMLTableElement {
  return h("table", { class: ("list " + cls).trim() },
    h("caption", { class: "vh" }, caption),
    h("thead", null, h("tr", null, headers.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, rows.map((r) => h("tr", null, r.map((c, i) => {
      const td = h("td", { "data-label": headers[i] || undefined }, c);
      return td;
    })))));
}
