// The end user's pages behind a verification's url (GET /v/{token}): one
// small app that walks the session's steps in order. The token is read
// from the page's own path and sent only back to this origin.
import { API } from "./api";
import { App } from "./app";
import { offer, submit } from "./finish";
import { enterSteps, inSteps, watchBack } from "./history";
import { langMenu, pickLang, t } from "./i18n";
import { license } from "./license";
import { idCard } from "./idcard";
import { liveness } from "./liveness";
import { passport } from "./passport";
import { phone } from "./phone";
import { canRepick, needsPick, pick } from "./pick";
import { keptNote, start } from "./start";
import { testFlow } from "./testmode";

function boot(): void {
  const root = document.getElementById("app");
  const m = location.pathname.match(/^\/v\/([^/]+)\/?$/);
  if (!root || !m) return;
  if (!pickLang(document)) return;
  langMenu(document);
  const app = new App(root, new API(decodeURIComponent(m[1])), location.origin + location.pathname);
  const load = async () => {
    try {
      app.session = await app.api.session();
    } catch (e) {
      app.fail(e, () => void load());
      return;
    }
    const s = app.session;
    keptNote(s);
    if (s.status === "review_offered") return offer(app);
    if (s.status !== "pending" && s.status !== "started") return app.ended(s.status);
    if (!s.livemode) return testFlow(app);
    if (inSteps(s.steps.some((x) => x.done))) {
      enterSteps();
      return next(app);
    }
    start(app, () => {
      enterSteps();
      next(app);
    });
  };
  watchBack();
  app.resume = () => void load();
  void load();
}

// next goes to the first step not done yet, and to submit after the last;
// on a link accepting several kinds of document, to the pick first.
function next(app: App): void {
  if (needsPick(app.session)) return pick(app, () => next(app));
  const todo = app.session.steps.find((s) => !s.done);
  const mark = (name: string) => () => {
    for (const s of app.session.steps) if (s.name === name) s.done = true;
    next(app);
  };
  // The first document step offers another document while none of its
  // photos has been accepted; later steps offer to retake the last photo.
  const another = canRepick(app.session) ? [{ label: t("pick.other"), go: () => pick(app, () => next(app)) }] : [];
  const retakeFront = { label: t("license.retakefront"), go: () => license(app, "front", () => next(app)) };
  const retakeBack = { label: t("license.retakeback"), go: () => license(app, "back", () => next(app), [retakeFront]) };
  const retakePage = { label: t("passport.retake"), go: () => passport(app, () => next(app)) };
  const retakeCardFront = { label: t("license.retakefront"), go: () => idCard(app, "front", () => next(app)) };
  const retakeCardBack = { label: t("license.retakeback"), go: () => idCard(app, "back", () => next(app), [retakeCardFront]) };
  // The liveness step offers to retake the document's last photo.
  const steps = app.flowSteps();
  const retakeLast = steps.includes("passport_page") ? retakePage : steps.includes("id_card_back") ? retakeCardBack : retakeBack;
  switch (todo?.name) {
    case "license_front":
      return license(app, "front", mark("license_front"), another);
    case "license_back":
      return license(app, "back", mark("license_back"), [retakeFront]);
    case "passport_page":
      return passport(app, mark("passport_page"), another);
    case "id_card_front":
      return idCard(app, "front", mark("id_card_front"), another);
    case "id_card_back":
      return idCard(app, "back", mark("id_card_back"), [retakeCardFront]);
    case "liveness":
      return liveness(app, mark("liveness"), retakeLast);
    case "phone":
      return phone(app, mark("phone"));
    case undefined:
      void submit(app);
      return;
  }
  // A step this page does not know (a newer server): reload the session
  // rather than skipping it.
  app.fail(new Error("unknown step " + todo?.name), () => location.reload());
}

boot();
