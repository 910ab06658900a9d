// A small DOM builder, shared by the end-user pages (verifier/web) and the
// dashboard (verifier/dashboard), which import it as "@idgate/dom": every
// screen is built from elements, never from HTML strings, so nothing the
// server or the account holder sends is ever parsed as markup (and no
// inline script or style exists for CSP to allow).
export type Child = Node | string | null | undefined | false;
export type Attrs = Record<string, string | boolean | ((e: Event) => void) | undefined>;

// h makes a tag with attributes (on* keys become listeners, true a bare
// attribute) and children (arrays of children are spread).
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

// busy is a busy indicator: a spinner and the status line beside it,
// which screen readers announce.
export function busy(label: string): HTMLElement {
  return h("p", { class: "busy", role: "status" }, h("span", { class: "spin", "aria-hidden": "true" }), label);
}
