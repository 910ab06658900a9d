// A small DOM builder: every page is built from elements, never from HTML
// strings, so nothing the server or the account holder sends is ever parsed
// as markup (and no inline script or style exists for CSP to allow).
export type Child = Node | string | null | undefined | false;
export type Attrs = Record<string, string | boolean | ((e: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) e.append(c);
  return e;
}

export function button(label: string, onClick: () => void, cls = ""): HTMLButtonElement {
  return h("button", { type: "button", class: cls || undefined, onclick: () => onClick() }, label);
}

// busy is a status line screen readers announce.
export function busy(label: string): HTMLElement {
  return h("p", { class: "busy", role: "status" }, h("span", { class: "spin", "aria-hidden": "true" }), label);
}

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
