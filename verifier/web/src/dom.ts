// A small DOM builder: every screen is built from elements, never from
// HTML strings, so nothing the server or the account holder sends is ever
// parsed as markup (and no inline script or style exists for CSP to allow).
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | ((e: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, "");
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

export function button(label: string, onClick: () => void, cls = ""): HTMLButtonElement {
  return h("button", { type: "button", class: cls || undefined, onclick: () => onClick() }, label);
}

// spinner is a busy indicator; the text beside it is what screen readers
// announce.
export function spinner(label: string): HTMLElement {
  return h("p", { class: "busy", role: "status" }, h("span", { class: "spin", "aria-hidden": "true" }), label);
}
