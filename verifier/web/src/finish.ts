// Submit and its outcome: a spinner while the server compares the faces,
// then "Done" (never the extracted data or scores), or the offer of a
// manual review with both choices.
import type { App } from "./app";
import { button, h, spinner } from "./dom";
import { t } from "./i18n";

export async function submit(app: App): Promise<void> {
  app.show("submitting", t("submit.working"), spinner(t("submit.working")));
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
  if (status === "manual_review") {
    app.show("review-sent", t("review.sent.title"), h("p", null, t("review.sent.body")));
    return;
  }
  app.show("done", t("done.title"), h("p", { class: "ok" }, h("span", { class: "tick", "aria-hidden": "true" }), t("done.body")));
}

export function offer(app: App): void {
  const choose = (yes: boolean) => async () => {
    app.show("submitting", t("submit.working"), spinner(t("submit.working")));
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
