// The widget's UI, in a Shadow DOM so theme CSS cannot break it and it
// cannot break the theme (open, so tests and assistive tools can read it).
// Themed through CSS variables set on the page: --idgate-accent, --idgate-accent-text, --idgate-ok, --idgate-error,
// --idgate-radius, --idgate-font.
import type { QRCode } from "./api";
import type { Strings } from "./strings";

const CSS = `
:host{all:initial;display:block;margin:8px 0;font:14px/1.4 var(--idgate-font,system-ui,sans-serif);color:inherit}
.box{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
button{font:inherit;cursor:pointer;border:0;border-radius:var(--idgate-radius,4px);padding:8px 14px;background:var(--idgate-accent,#1a56db);color:var(--idgate-accent-text,#fff)}
button:focus-visible,a:focus-visible{outline:2px solid var(--idgate-accent,#1a56db);outline-offset:2px}
button.sec{background:transparent;color:var(--idgate-accent,#1a56db);border:1px solid currentColor}
.badge{display:inline-flex;gap:6px;align-items:center;color:var(--idgate-ok,#067647);font-weight:600}
.msg{width:100%;margin:0}
.err{color:var(--idgate-error,#b42318)}
.link{width:100%;overflow-wrap:anywhere}
svg{display:block;width:164px;height:164px;background:#fff}
`;

export type Mode = "loading" | "unverified" | "pending" | "verified" | "failed" | "expired" | "error";

export interface ViewState {
  mode: Mode;
  hold: boolean;
  orderHeld?: boolean; // the confirmation page's order waits for the verification
  link?: string;
  qr?: QRCode;
}

export class View {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly box: HTMLDivElement;
  // What is on screen, so that render redraws only a change: every poll
  // renders, and a redraw would take the link from under a pointer or
  // the keyboard's focus and re-read the whole live region aloud.
  private shown = "";
  private copiedLink?: string; // "Copied" stays for the link it copied

  constructor(
    doc: Document,
    private readonly s: Strings,
    private readonly onVerify: () => void,
  ) {
    this.host = doc.createElement("div");
    this.host.setAttribute("data-idgate-widget", "");
    this.root = this.host.attachShadow({ mode: "open" });
    const style = doc.createElement("style");
    style.textContent = CSS;
    this.box = doc.createElement("div");
    this.box.className = "box";
    this.box.setAttribute("role", "status");
    this.box.setAttribute("aria-live", "polite");
    this.root.append(style, this.box);
  }

  // text returns what the widget currently shows, for tests and debugging.
  text(): string {
    return this.box.textContent ?? "";
  }

  private key(st: ViewState): string {
    const copied = st.link !== undefined && st.link === this.copiedLink;
    return JSON.stringify([st.mode, st.hold, st.orderHeld, st.link, st.qr, copied]);
  }

  render(st: ViewState): void {
    const key = this.key(st);
    if (key === this.shown) return;
    this.shown = key;
    const copied = st.link !== undefined && st.link === this.copiedLink;
    const d = this.host.ownerDocument;
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text: string): HTMLElementTagNameMap[K] => {
      const e = d.createElement(tag);
      if (cls) e.className = cls;
      e.textContent = text;
      return e;
    };
    this.box.replaceChildren();
    this.host.setAttribute("data-state", st.mode);
    switch (st.mode) {
      case "loading":
        return;
      case "verified": {
        const b = el("span", "badge", "");
        const tick = el("span", "", "✓");
        tick.setAttribute("aria-hidden", "true");
        b.append(tick, d.createTextNode(this.s.verified));
        this.box.append(b);
        return;
      }
      case "error":
        this.box.append(el("p", "msg err", this.s.error));
        return;
    }
    if (st.orderHeld) this.box.append(el("p", "msg", this.s.orderHeld));
    if (st.mode === "failed") this.box.append(el("p", "msg err", this.s.failed));
    if (st.mode === "expired") this.box.append(el("p", "msg err", this.s.expired));
    if (st.mode === "pending") this.box.append(el("p", "msg", this.s.verifying));
    const btn = el("button", st.mode === "pending" ? "sec" : "", this.s.verify);
    btn.type = "button";
    btn.addEventListener("click", () => this.onVerify());
    this.box.append(btn);
    if (st.link) {
      const p = el("p", "msg link", this.s.desktopHint + " ");
      const a = el("a", "", this.s.openLink);
      a.href = st.link;
      a.target = "_blank";
      a.rel = "noopener";
      p.append(a);
      this.box.append(p);
      if (st.qr) this.box.append(qrSVG(d, st.qr, this.s.qrLabel));
      const copy = el("button", "sec", copied ? this.s.copied : this.s.copyLink);
      copy.type = "button";
      copy.addEventListener("click", () => {
        void navigator.clipboard?.writeText(st.link as string).then(() => {
          // The button changes in place: a redraw would take its focus.
          this.copiedLink = st.link;
          this.shown = this.key(st);
          copy.textContent = this.s.copied;
        });
      });
      this.box.append(copy);
    }
    if (st.hold) this.box.append(el("p", "msg", this.s.hold));
  }
}

const SVG = "http://www.w3.org/2000/svg";

// qrSVG draws the proxy's QR code of the link for a phone to scan. The
// path data goes in through setAttribute, so it can never become markup.
function qrSVG(d: Document, code: QRCode, label: string): SVGSVGElement {
  const n = String(Number(code.size));
  const svg = d.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + n + " " + n);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("data-idgate-qr", "");
  svg.setAttribute("shape-rendering", "crispEdges");
  const path = d.createElementNS(SVG, "path");
  path.setAttribute("d", code.path);
  svg.append(path);
  return svg;
}
