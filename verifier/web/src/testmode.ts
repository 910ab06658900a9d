// The test page (docs/test-mode.md): behind a test verification's link the tester
// picks the outcome instead of scanning a license and a face. It uses the
// same session API and, after the pick, the same review offer and end
// screens as a real link; the server builds the result from its fixture
// identity (POST /v/{token}/test/complete). A link that asked for phone
// verification walks the real phone step first, on the server's test
// provider (code 000000, nothing sent); as on a live link it cannot be
// skipped, and its result is the result's phone_verification.
import type { App } from "./app";
import { button, h, spinner } from "./dom";
import { outcome } from "./finish";
import { t, type Key } from "./i18n";
import { phone } from "./phone";
import { documentName } from "./pick";

const outcomes: [string, Key][] = [
  ["verified", "test.o.verified"],
  ["license_expired", "test.o.license_expired"],
  ["under_18", "test.o.under_18"],
  ["under_21", "test.o.under_21"],
  ["license_not_genuine", "test.o.license_not_genuine"],
  ["liveness_failed", "test.o.liveness_failed"],
  ["likely_match", "test.o.likely_match"],
  ["possible_match", "test.o.possible_match"],
  ["no_match", "test.o.no_match"],
  ["inconclusive", "test.o.inconclusive"],
  ["manual_review", "test.o.manual_review"],
];

// neutral words the two outcomes that name a license on links that
// accept another document too: the document shown is picked on the page.
const neutral: Partial<Record<Key, Key>> = {
  "test.o.license_expired": "test.o.document_expired",
  "test.o.license_not_genuine": "test.o.document_not_genuine",
};

const indicators: [string, Key][] = [
  ["phone", "test.phone"],
  ["address", "test.address"],
  ["location", "test.location"],
];

const choices: [string, Key][] = [
  ["present", "test.i.present"],
  ["negative", "test.i.negative"],
  ["absent", "test.i.absent"],
];

// testFlow opens a test link: the phone step when the link has one not
// settled yet (the live flow's screens), then the outcome picker.
export function testFlow(app: App): void {
  const step = app.session.steps.find((s) => s.name === "phone");
  if (!step || step.done) return testPage(app);
  phone(app, () => {
    step.done = true;
    testPage(app);
  });
}

function testPage(app: App): void {
  // A walked phone step is the result's phone_verification: the picker
  // names it instead of offering the phone indicator (which would
  // override it).
  const walked = app.session.steps.some((s) => s.name === "phone");
  const confirmed = !!app.session.phone && app.session.phone.verified;
  const licenseOnly = app.session.documents.every((k) => k === "drivers_license");
  const words = (key: Key): string => t(licenseOnly ? key : (neutral[key] ?? key));
  const list = h(
    "fieldset",
    { class: "choices" },
    h("legend", null, t("test.outcome")),
    ...outcomes.map(([value, key], i) =>
      h("label", { class: "choice" }, h("input", { type: "radio", name: "outcome", value, checked: i === 0 }), words(key)),
    ),
  );
  const selects = indicators.filter(([name]) => !(walked && name === "phone")).map(([name, key]) => {
    const id = "test-" + name;
    const sel = h("select", { id, name }, ...choices.map(([value, ck]) => h("option", { value }, t(ck))));
    return { name, sel, row: h("p", { class: "field" }, h("label", { for: id }, t(key)), sel) };
  });
  // A link accepting several kinds of document: which one the result
  // names (document_type), the link's first by default.
  const docs = app.session.documents;
  const docSel = docs.length > 1 ? h("select", { id: "test-document", name: "document" }, ...docs.map((k) => h("option", { value: k }, documentName(k)))) : null;
  const go = async () => {
    const picked = list.querySelector<HTMLInputElement>("input[name=outcome]:checked");
    const pick: Record<string, string> = { outcome: picked ? picked.value : "verified" };
    if (docSel) pick.document = docSel.value;
    for (const s of selects) pick[s.name] = s.sel.value;
    app.show("submitting", t("submit.title"), spinner(t("submit.working")));
    try {
      outcome(app, (await app.api.testComplete(pick)).status);
    } catch (e) {
      app.fail(e, () => testPage(app));
    }
  };
  app.show(
    "test",
    t("test.title"),
    h("p", null, t("test.intro")),
    !!app.session.message && h("figure", { class: "msg" }, h("figcaption", null, t("start.from")), h("blockquote", null, app.session.message)),
    docSel && h("p", { class: "field" }, h("label", { for: "test-document" }, t("test.document")), docSel),
    list,
    walked && h("p", { class: "note" }, t(confirmed ? "test.phone.confirmed" : "test.phone.unconfirmed")),
    h("details", null, h("summary", null, t("test.checks")), ...selects.map((s) => s.row)),
    h("div", { class: "actions" }, button(t("test.submit"), () => void go())),
  );
}
