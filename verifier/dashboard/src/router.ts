// The dashboard's router: one module per page, chosen by the URL fragment.
//
// CONTRACT for a page module (src/requests.ts, src/review.ts,
// src/templates.ts, src/profile.ts, …):
//   - It exports `page: Page` (below). `path` is the first fragment segment
//     it owns ("requests" owns #/requests and #/requests/<id>); `title` is
//     its name in the navigation and the document title; `nav` false keeps
//     it out of the navigation.
//   - It is listed once in src/pages.ts; nothing else needs to change.
//   - `render(ctx)` fills `ctx.root` (the page's <section>, empty when
//     called, already labelled by nothing: put one <h1> first, the router
//     focuses it) and returns. It may be async; errors it throws are shown
//     in place of the page.
//   - It calls the API only through src/api.ts (`call`, `fetchRaw`): they
//     send the session cookie and the CSRF header and turn a lost session
//     into the sign-in form.
//   - `ctx.signal` is aborted when the user leaves the page: pass it to
//     fetches and stop timers on it. `ctx.params` are the fragment's later
//     segments (decoded), `ctx.query` its ?query.
//   - Navigate with `ctx.navigate("#/requests/" + id)` or plain <a href="#/…">.
//   - Build the DOM with src/dom.ts's `h` (never innerHTML), and use the
//     stylesheet's classes (src/app.css) so pages look alike.
//   - Secrets typed or chosen on a page (private keys, passphrases) stay in
//     that page's memory: never in the URL, storage or a request.

import type { Session } from "./api";

export interface PageContext {
  root: HTMLElement;
  params: string[];
  query: URLSearchParams;
  session: Session;
  signal: AbortSignal;
  navigate(hash: string): void;
}

export interface Page {
  path: string;
  title: string;
  nav: boolean;
  render(ctx: PageContext): void | Promise<void>;
}

export interface Route {
  page: Page;
  params: string[];
  query: URLSearchParams;
}

// parse reads a fragment ("#/requests/abc?status=completed") against the
// pages; an unknown page is null.
export function parse(hash: string, pages: Page[]): Route | null {
  let rest = hash.replace(/^#\/?/, "");
  let query = new URLSearchParams();
  const qi = rest.indexOf("?");
  if (qi >= 0) {
    query = new URLSearchParams(rest.slice(qi + 1));
    rest = rest.slice(0, qi);
  }
  const segs = rest.split("/").filter((s) => s !== "").map((s) => {
    try { return decodeURIComponent(s); } catch { return s; }
  });
  const path = segs.shift() || pages[0].path;
  const page = pages.find((p) => p.path === path);
  return page ? { page, params: segs, query } : null;
}
