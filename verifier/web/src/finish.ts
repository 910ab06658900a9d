// Submit and its outcome: a spinner while the server compares the faces,
// then "Done" (never the extracted data or scores), or the offer of a
// manual review with both choices.
import type { App } from "./app";
import { button, h, spinner } from "./dom";
import { added, referrer } from "./history";
import { t } from "./i18n";

export async function submit(app: App): Promise<void> {
  // The face match's wait: say what is compared, once (the heading used
  // to repeat the spinner's words).
  const steps = app.flowSteps();
  const matching = steps.includes("passport_page") ? "submit.matching.passport" : steps.includes("id_card_front") ? "submit.matching.idcard" : "submit.matching";
  app.show("submitting", t("submit.title"), spinner(t(matching)));
  let r: { status: string };
  try {
    r = await app.api.submit();
  } catch (e) {
    app.fail(e, () => void submit(app));
    return;
  }
  outcome(app, r.status);
}

// outcome shows where a finished step left the link (the test page's too).
export function outcome(app: App, status: string): void {
  if (status === "review_offered") return offer(app);
  const ret = back(app.session.site_origin);
  if (status === "manual_review") {
    app.show("review-sent", t("review.sent.title"), h("p", null, t(ret ? "review.sent.back" : "review.sent.body")), ret);
    return;
  }
  const done = h("p", { class: "ok" }, h("span", { class: "tick", "aria-hidden": "true" }), t(ret ? "done.back.body" : "done.body"));
  // Where the result went and that nothing is left to do here: "Done"
  // alone left people waiting on the page for an answer.
  app.show("done", t("done.title"), done, h("p", null, app.named("done.sent")), ret);
}

// back is the way back to the site that sent the person here in this very
// tab, or null. A storefront's widget opens the link in the same tab on a
// phone, where "close this page" would close the store: the person goes
// back instead, to the page itself (history.go; the referrer is often
// only the site's origin), which then shows the outcome. A link opened in a
// new tab or on another device (the QR code) has no page to go back to and
// keeps "close this page".
//
// The site is known from the referrer, or, when the site sends none
// (Referrer-Policy: no-referrer), from the link's fragment: the widget
// adds #from=<its origin> (never sent to a server). The fragment is
// anyone's to write, so it counts only when it names siteOrigin, the
// origin the verification was created from with the site's integration
// key (the session's site_origin). Either way the button only goes back
// in this tab's history; it never navigates to a URL the link carries.
//
// The steps' own history entry (history.ts) lies between this page and the
// site, so the way back is that many entries and one more.
export function back(siteOrigin: string): HTMLElement | null {
  const up = 1 + added();
  if (history.length < 1 + up) return null;
  const from = webURL(referrer()) ?? fragmentSite(siteOrigin);
  if (!from || from.origin === location.origin) return null;
  return h("div", { class: "actions" }, button(t("done.back", { site: from.host }), () => history.go(-up)));
}

// fragmentSite is the origin in the link's #from=, when it is siteOrigin.
function fragmentSite(siteOrigin: string): URL | null {
  const from = webURL(new URLSearchParams(location.hash.slice(1)).get("from") ?? "");
  return from && siteOrigin !== "" && from.origin === siteOrigin ? from : null;
}

// webURL parses an http(s) URL, or gives null.
function webURL(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.protocol === "https:" || u.protocol === "http:" ? u : null;
  } catch {
    return null;
  }
}

export function offer(app: App): void {
  const choose = (yes: boolean) => async () => {
    app.show("submitting", t("submit.title"), spinner(t("submit.working")));
    try {
      outcome(app, (await (yes ? app.api.review() : app.api.decline())).status);
    } catch (e) {
      app.fail(e, () => offer(app));
    }
  };
  app.show(
    "review",
    t("review.title"),
    h("p", null, t("review.body")),
    h("div", { class: "actions" }, button(t("review.yes"), choose(true)), button(t("review.no"), choose(false), "sec")),
  );
}
