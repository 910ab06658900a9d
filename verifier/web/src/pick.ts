// The pick: a link that accepts several kinds of document asks which one
// the person has before its document's steps (POST document); the
// session then lists that kind's steps. The choice can be changed until
// a photo of the document is accepted (the first document step offers
// it); the server fixes it from then on.
import type { DocumentKind, Session } from "./api";
import type { App } from "./app";
import { h } from "./dom";
import { t, type Key } from "./i18n";
import { keptNote } from "./start";

// needsPick: the link accepts several kinds and none is picked yet.
export function needsPick(s: Session): boolean {
  return s.documents.length > 1 && s.document === "";
}

// canRepick: the link accepts several kinds and no photo of the picked
// one has been accepted yet.
export function canRepick(s: Session): boolean {
  return s.documents.length > 1 && !s.steps.some((x) => x.done && x.name !== "liveness" && x.name !== "phone");
}

// documentName is a kind's name on the page.
export function documentName(kind: DocumentKind): string {
  return t(names[kind][0]);
}

const names: Record<DocumentKind, [Key, Key]> = {
  drivers_license: ["pick.drivers_license", "pick.drivers_license.hint"],
  passport: ["pick.passport", "pick.passport.hint"],
  id_card: ["pick.id_card", "pick.id_card.hint"],
};

// pick shows one button per accepted kind, in the requester's order; a
// button's name is the kind and what will be photographed.
export function pick(app: App, done: () => void): void {
  const choices = app.session.documents.map((kind) =>
    h(
      "button",
      { type: "button", class: "sec pick", "data-kind": kind, onclick: () => void choose(kind) },
      h("span", { class: "pick-name" }, t(names[kind][0])),
      h("span", { class: "pick-hint" }, t(names[kind][1])),
    ),
  );
  const choose = async (kind: DocumentKind) => {
    for (const b of choices) b.disabled = true;
    try {
      app.session = await app.api.pick(kind);
    } catch (e) {
      app.fail(e, () => pick(app, done));
      return;
    }
    keptNote(app.session);
    done();
  };
  app.show("pick", t("pick.title"), h("p", null, t("pick.hint")), h("div", { class: "actions picks" }, ...choices));
}
