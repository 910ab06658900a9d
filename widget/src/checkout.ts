// Holds the theme's checkout buttons until the shopper is verified. Held
// elements are marked, taken out of the tab order, ignore the pointer and
// swallow clicks and submits (keyboard, scripts); a MutationObserver holds
// buttons the theme adds later (cart preview).

const HELD = "data-idgate-held";

export class CheckoutHold {
  private selectors: string[] = [];
  private held = false;
  private observer: MutationObserver | null = null;
  private readonly block = (e: Event): void => {
    const el = e.target as Element | null;
    if (this.held && el && el.closest && el.closest("[" + HELD + "]")) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  };

  constructor(private readonly doc: Document) {
    // Capture phase on the document runs before the theme's own handlers.
    doc.addEventListener("click", this.block, true);
    doc.addEventListener("submit", this.block, true);
  }

  set(hold: boolean, selectors: string[]): void {
    this.selectors = selectors.filter((s) => typeof s === "string" && s !== "");
    this.held = hold;
    if (hold) {
      this.apply();
      if (!this.observer) {
        this.observer = new MutationObserver(() => this.apply());
        this.observer.observe(this.doc.body, { childList: true, subtree: true });
      }
    } else {
      this.observer?.disconnect();
      this.observer = null;
      this.release();
    }
  }

  private each(fn: (el: HTMLElement) => void): void {
    for (const sel of this.selectors) {
      let found: NodeListOf<HTMLElement>;
      try {
        found = this.doc.querySelectorAll<HTMLElement>(sel);
      } catch {
        continue; // a bad selector from the configuration must not stop the rest
      }
      found.forEach(fn);
    }
  }

  private apply(): void {
    this.each((el) => {
      if (el.hasAttribute(HELD)) return;
      el.setAttribute(HELD, el.getAttribute("tabindex") ?? "");
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("tabindex", "-1");
      if (el instanceof HTMLButtonElement) el.disabled = true;
      el.style.setProperty("opacity", "0.5");
      // Wallet buttons are iframes: only pointer-events stops clicks in them.
      el.style.setProperty("pointer-events", "none");
    });
  }

  private release(): void {
    this.doc.querySelectorAll<HTMLElement>("[" + HELD + "]").forEach((el) => {
      const tab = el.getAttribute(HELD);
      if (tab) el.setAttribute("tabindex", tab);
      else el.removeAttribute("tabindex");
      el.removeAttribute(HELD);
      el.removeAttribute("aria-disabled");
      if (el instanceof HTMLButtonElement) el.disabled = false;
      el.style.removeProperty("opacity");
      el.style.removeProperty("pointer-events");
    });
  }
}
