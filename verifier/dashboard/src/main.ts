// The dashboard app: the session, the shell (header, navigation, the
// live/test switch, sign-out) and the router that mounts one page module at
// a time (src/router.ts).
import { ApiError, call, describe, setSession, whenModeChanged, whenSignedOut, type Mode, type Session } from "./api";
import { forget } from "./crypto/index";
import { h } from "./dom";
import { pages } from "./pages";
import { parse, type Page } from "./router";
import { signIn } from "./signin";

const root = document.getElementById("root") as HTMLElement;
let session: Session | null = null;
let leave: AbortController | null = null;

function signedOut(why: string): void {
  session = null;
  setSession(null);
  forget(); // keys given to open sealed data live only as long as the session
  leave?.abort();
  signIn(root, why, (s) => start(s));
}

whenSignedOut(() => signedOut("Your session ended. Sign in again."));

// Another tab switched the session's mode: this one follows at once (the
// server already refuses its calls in the old mode) and says why.
let following = false;
whenModeChanged(async () => {
  if (following || !session) return;
  following = true;
  try {
    const s = await call<Session>("GET", "/dashboard/session");
    start(s, `The session was switched to ${modeName(s.mode)} in another tab or window; this tab shows ${modeName(s.mode)} now.`);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) alertIn(main, "Could not follow the mode switch: " + describe(e));
  } finally {
    following = false;
  }
});

const modeName = (m: Mode) => (m === "test" ? "test mode" : "live mode");

// start draws the shell for session s and its page; said is announced
// (after a mode switch).
function start(s: Session, said = ""): void {
  session = s;
  setSession(s);
  shell(said);
  route();
}

let main: HTMLElement;
let navLinks: Map<string, HTMLAnchorElement>;
let modeSwitch: HTMLButtonElement;

function shell(said: string): void {
  const test = session!.mode === "test";
  document.body.classList.toggle("testmode", test);
  navLinks = new Map();
  const nav = h("nav", { "aria-label": "Dashboard" }, h("ul", null, pages.filter((p) => p.nav).map((p) => {
    const a = h("a", { href: "#/" + p.path }, p.title);
    navLinks.set(p.path, a);
    return h("li", null, a);
  })));
  const out = h("button", { type: "button", class: "sec small", onclick: () => void signOut() }, "Sign out");
  // The live/test switch: one control, named the same in both states (its
  // state is aria-checked, the knob and the banner below).
  modeSwitch = h("button", { type: "button", role: "switch", class: "modeswitch", "aria-checked": test ? "true" : "false",
    "aria-describedby": test ? "testbanner" : undefined, onclick: () => void switchMode(test ? "live" : "test") },
  h("span", { class: "knob", "aria-hidden": "true" }), "Test mode");
  main = h("main", { id: "main" });
  const announce = h("p", { class: "vh", role: "status", "aria-live": "polite" });
  root.replaceChildren(
    h("a", { class: "skip", href: "#main", onclick: (e: Event) => { e.preventDefault(); main.querySelector("h1")?.focus(); } }, "Skip to content"),
    h("header", { class: "top" },
      h("p", { class: "brand" }, "idgate", test ? h("span", { class: "modetag" }, "Test") : null), nav,
      h("div", { class: "who" }, modeSwitch, h("span", { class: "email" }, session!.email), out)),
    ...(test ? [h("div", { class: "testbanner", id: "testbanner", role: "note", "aria-label": "Test data" },
      h("strong", null, "TEST DATA"), " — you are in test mode: test verifications, the test integration key and its allowlist. ",
      "Nothing here is live, and nothing here uses your plan's allowance.")] : []),
    announce,
    main);
  // A live region speaks changes, not what it was created with.
  if (said) setTimeout(() => { announce.textContent = said; }, 100);
}

// switchMode is the switch's click: PATCH /dashboard/session (a state
// change, with the CSRF header), then the shell and the page again in the
// new mode, the switch keeping the focus.
async function switchMode(to: Mode): Promise<void> {
  modeSwitch.disabled = true;
  let s: Session;
  try {
    s = await call<Session>("PATCH", "/dashboard/session", { body: { mode: to } });
  } catch (e) {
    modeSwitch.disabled = false;
    if (!(e instanceof ApiError && e.status === 401)) alertIn(main, "Could not switch to " + modeName(to) + ": " + describe(e));
    return;
  }
  start(s, s.mode === "test" ? "Test mode: showing test data only." : "Live mode: showing live data.");
  modeSwitch.focus({ preventScroll: true });
}

async function signOut(): Promise<void> {
  try {
    await call("DELETE", "/dashboard/session");
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) {
      alertIn(main, "Could not sign out: " + describe(e));
      return;
    }
  }
  history.replaceState(null, "", "#/");
  signedOut("You are signed out.");
}

function alertIn(where: HTMLElement, text: string): void {
  where.prepend(h("div", { class: "alert", role: "alert" }, text));
}

async function route(): Promise<void> {
  if (!session) return;
  leave?.abort();
  const ctl = new AbortController();
  leave = ctl;
  const r = parse(location.hash, pages);
  const section = h("section", { class: "page" });
  main.replaceChildren(section);
  for (const [path, a] of navLinks) {
    if (r && r.page.path === path) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  if (!r) {
    section.append(h("h1", { tabindex: "-1" }, "Page not found"), h("p", null, h("a", { href: "#/" }, "Back to the dashboard")));
    focusHeading(section);
    return;
  }
  const page: Page = r.page;
  document.title = (session.mode === "test" ? "TEST · " : "") + page.title + " · idgate dashboard";
  try {
    await page.render({ root: section, params: r.params, query: r.query, session, signal: ctl.signal, navigate: (hash) => { location.hash = hash; } });
  } catch (e) {
    if (ctl.signal.aborted || (e instanceof ApiError && e.status === 401)) return;
    section.querySelectorAll(".busy").forEach((b) => b.remove());
    if (!section.querySelector("h1")) section.prepend(h("h1", { tabindex: "-1" }, page.title));
    section.append(h("div", { class: "alert", role: "alert" }, e instanceof ApiError && e.status === 404 ? "Not found in this account." : describe(e)));
  }
  // The heading takes the focus, unless the user just flipped the switch.
  if (!ctl.signal.aborted && document.activeElement !== modeSwitch) focusHeading(section);
}

function focusHeading(section: HTMLElement): void {
  const h1 = section.querySelector("h1");
  if (h1) {
    h1.setAttribute("tabindex", "-1");
    h1.focus({ preventScroll: true });
  }
}

window.addEventListener("hashchange", () => void route());

async function boot(): Promise<void> {
  try {
    start(await call<Session>("GET", "/dashboard/session"));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) signedOut("");
    else root.replaceChildren(h("main", { id: "main" }, h("h1", null, "idgate dashboard"), h("div", { class: "alert", role: "alert" }, "Could not reach the server: " + describe(e))));
  }
}

void boot();
