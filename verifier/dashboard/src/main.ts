// The dashboard app: the session, the shell (header, navigation, sign-out)
// and the router that mounts one page module at a time (src/router.ts).
import { ApiError, call, describe, setSession, whenSignedOut, type Session } from "./api";
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

function start(s: Session): void {
  session = s;
  setSession(s);
  shell();
  route();
}

let main: HTMLElement;
let navLinks: Map<string, HTMLAnchorElement>;

function shell(): void {
  navLinks = new Map();
  const nav = h("nav", { "aria-label": "Dashboard" }, h("ul", null, pages.filter((p) => p.nav).map((p) => {
    const a = h("a", { href: "#/" + p.path }, p.title);
    navLinks.set(p.path, a);
    return h("li", null, a);
  })));
  const out = h("button", { type: "button", class: "sec small", onclick: () => void signOut() }, "Sign out");
  main = h("main", { id: "main" });
  root.replaceChildren(
    h("a", { class: "skip", href: "#main", onclick: (e: Event) => { e.preventDefault(); main.querySelector("h1")?.focus(); } }, "Skip to content"),
    h("header", { class: "top" },
      h("p", { class: "brand" }, "idgate"), nav,
      h("div", { class: "who" }, h("span", { class: "email" }, session!.email), out)),
    main);
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
  document.title = page.title + " · idgate dashboard";
  try {
    await page.render({ root: section, params: r.params, query: r.query, session, signal: ctl.signal, navigate: (hash) => { location.hash = hash; } });
  } catch (e) {
    if (ctl.signal.aborted || (e instanceof ApiError && e.status === 401)) return;
    section.querySelectorAll(".busy").forEach((b) => b.remove());
    if (!section.querySelector("h1")) section.prepend(h("h1", { tabindex: "-1" }, page.title));
    section.append(h("div", { class: "alert", role: "alert" }, e instanceof ApiError && e.status === 404 ? "Not found in this account." : describe(e)));
  }
  if (!ctl.signal.aborted) focusHeading(section);
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
