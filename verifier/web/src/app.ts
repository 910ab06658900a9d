// The app shell: one <main> whose content is replaced per screen, a
// heading that takes focus on every change (so screen readers and keyboard
// users start at the top of the new screen), an aria-live region for
// instructions, and the one place that turns API errors into words.
import { API, APIError, NetworkError, type Session, type StepName } from "./api";
import { button, h } from "./dom";
import { t, type Key } from "./i18n";

export class App {
  session!: Session;
  // resume reloads the session and shows where the link is now, as
  // opening it does (main.ts sets it).
  resume: () => void = () => location.reload();
  private timer = 0;
  private focusTimer = 0;
  private resumedAt = 0;
  // requester is who asks (the account's display name, docs/api.md), as
  // the server wrote it on the page with its header and footer, which
  // stay while screens change; "" keeps the pages neutral.
  readonly requester: string;

  constructor(
    readonly root: HTMLElement,
    readonly api: API,
    readonly link: string,
  ) {
    this.requester = root.dataset.requester || "";
    // A person who touches, clicks, scrolls with the wheel or types before
    // the new screen's heading has taken focus keeps their focus where it
    // is: the heading is for those who have not started on the screen.
    for (const e of ["pointerdown", "touchstart", "keydown", "wheel"]) {
      addEventListener(e, () => clearTimeout(this.focusTimer), { capture: true, passive: true });
    }
  }

  // named is key's text naming the requester (key + ".named"), or key's
  // own when it has no name.
  named(key: Key): string {
    return this.requester ? t((key + ".named") as Key, { name: this.requester }) : t(key);
  }

  // show replaces the screen. name is for tests and styles
  // (data-screen), title becomes the heading and the document title.
  show(name: string, title: string, ...body: (Node | null | false)[]): HTMLElement {
    clearTimeout(this.timer);
    const head = h("h1", { tabindex: "-1" }, title);
    const progress = this.progress(name);
    // Every screen of a test verification's link says so (docs/test-mode.md).
    const test = this.session && !this.session.livemode && h("p", { class: "testbanner", role: "note" }, t("test.banner"));
    clearTimeout(this.focusTimer);
    this.root.replaceChildren(...[test, progress, head, ...body].filter((n): n is Node => !!n));
    this.root.setAttribute("data-screen", name);
    document.title = title + " · " + t("app.title");
    // A new screen starts at the top now, in the same change as its
    // content, so the heading's focus below never moves the page: a late
    // focus that scrolled moved a button from under a finger whose touch
    // had begun on it (the storefront demo's lost tap: the touch began on
    // "Finish with this outcome" and its click landed on an outcome's
    // label above it).
    window.scrollTo(0, 0);
    // The heading takes focus in a later task, once the browser has told
    // assistive technology that the old screen (and the control that had
    // focus, now removed) is gone: Orca does not announce a focus that
    // arrives in the same change as the removal of the focused element
    // (it takes the new element for the old one's replacement), and the
    // screen-reader walk (TestScreenReaderWalkInChromium) heard no heading
    // on such screens. A control the screen focused itself meanwhile, or
    // one the person reached with Tab, keeps its focus; so does a person
    // who has already touched the screen (the constructor).
    this.focusTimer = window.setTimeout(() => {
      const a = document.activeElement;
      if (head.isConnected && (!a || a === document.body)) head.focus({ preventScroll: true });
    }, 100);
    return head;
  }

  // flowSteps are the session's steps in order (with "phone" on links
  // that ask for it).
  flowSteps(): StepName[] {
    return this.session.steps.map((s) => s.name);
  }

  private progress(screen: string): HTMLElement | null {
    const steps = this.flowSteps();
    const i = steps.indexOf(screenStep[screen]);
    // A test link skips the camera steps, so "Step 4 of 4" on its phone
    // screens would count screens the tester never sees.
    if (i < 0 || !this.session.livemode) return null;
    return h("p", { class: "progress" }, t("app.step", { n: i + 1, total: steps.length }));
  }

  // fail shows what went wrong with a way on: a 503 retries by itself
  // after Retry-After, an ended link shows why it ended, a 409 resumes
  // where the link is, anything else offers to try again.
  fail(err: unknown, retry: () => void): void {
    // 409: the link moved on without this page (the same link open on
    // another phone or tab took the step, submitted, or reached the
    // review offer). Retrying the same request would get the same 409
    // for ever; the session says where to go instead.
    // (A second 409 right after resuming falls through to "try again",
    // so a server that disagrees with its own session cannot spin.)
    if (err instanceof APIError && err.status === 409 && Date.now() - this.resumedAt > 3000) {
      this.resumedAt = Date.now();
      return this.resume();
    }
    if (err instanceof APIError && err.status === 410) {
      void this.api.session().then(
        (s) => this.ended(s.status),
        () => this.ended("expired"),
      );
      return;
    }
    if (err instanceof APIError && err.status === 404) return this.ended("unknown");
    if (err instanceof APIError && err.status === 503) {
      let n = Math.min(Math.max(err.retryAfter || 5, 1), 60);
      const p = h("p", { role: "status" }, t("error.busy", { n }));
      this.show("busy", t("app.title"), p);
      const tick = () => {
        if (--n <= 0) return retry();
        p.textContent = t("error.busy", { n });
        this.timer = window.setTimeout(tick, 1000);
      };
      this.timer = window.setTimeout(tick, 1000);
      return;
    }
    let key: Key = "error.generic";
    if (err instanceof NetworkError) key = "error.network";
    else if (err instanceof APIError && err.status === 429) key = "error.limit";
    this.show("error", t("app.title"), h("p", { class: "err", role: "alert" }, t(key)), h("div", { class: "actions" }, button(t("error.retry"), retry)));
  }

  // ended is the page of a link that can no longer be used.
  ended(status: string): void {
    const kind = status === "manual_review" ? "review" : status === "completed" || status === "expired" || status === "canceled" ? status : "unknown";
    const body = ("ended." + kind + ".body") as Key;
    this.show("ended-" + kind, t(("ended." + kind + ".title") as Key), h("p", null, kind === "expired" || kind === "canceled" ? this.named(body) : t(body)));
  }
}

// screenStep says which session step a screen belongs to, for "Step n of N".
const screenStep: Record<string, StepName> = {
  front: "license_front",
  back: "license_back",
  passport: "passport_page",
  idfront: "id_card_front",
  idback: "id_card_back",
  live: "liveness",
  "live-capture": "liveness",
  "live-failed": "liveness",
  "live-nocamera": "liveness",
  phone: "phone",
  "phone-code": "phone",
  "phone-failed": "phone",
};
