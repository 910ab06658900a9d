// The first screen: who asks, what is checked, what they receive (which
// photos are kept is in every page's footer, web.go); on a computer, a QR code to continue on a phone
// while this page follows the session.
import type { Session } from "./api";
import type { App } from "./app";
import { button, h } from "./dom";
import { currentLang, has, t, type Key } from "./i18n";

// Which document the page speaks of: the link's one kind (or the one
// picked), either of the license and the passport, or any of the kinds
// it accepts (words that name no document).
type Which = "license" | "passport" | "id_card" | "either" | "any";

function which(s: Session): Which {
  const kinds = s.document ? [s.document] : s.documents;
  if (kinds.length > 1) return kinds.length === 2 && kinds.includes("drivers_license") && kinds.includes("passport") ? "either" : "any";
  return kinds[0] === "passport" ? "passport" : kinds[0] === "id_card" ? "id_card" : "license";
}

const words: Record<Which, { check: Key; selfie: Key; fields: Key; time: Key; kept: Key }> = {
  license: { check: "start.check.license", selfie: "start.check.selfie", fields: "start.shares.fields", time: "start.time", kept: "start.kept" },
  passport: {
    check: "start.check.passport",
    selfie: "start.check.selfie.passport",
    fields: "start.shares.fields.passport",
    time: "start.time.passport",
    kept: "start.kept.passport",
  },
  id_card: {
    check: "start.check.idcard",
    selfie: "start.check.selfie.idcard",
    fields: "start.shares.fields.idcard",
    time: "start.time.idcard",
    kept: "start.kept.idcard",
  },
  either: {
    check: "start.check.either",
    selfie: "start.check.selfie.either",
    fields: "start.shares.fields.either",
    time: "start.time.either",
    kept: "start.kept.either",
  },
  any: {
    check: "start.check.any",
    selfie: "start.check.selfie.either",
    fields: "start.shares.fields.any",
    time: "start.time.any",
    kept: "start.kept.any",
  },
};

// keptNote words the footer's note of which photos are kept (web.go
// writes the license's, knowing no link) for the link's document.
// Only a different text is written: replacing the text node, even with
// the same words, is a change a screen reader may follow away from the
// heading that has just taken focus.
export function keptNote(s: Session): void {
  const p = document.querySelector("footer.foot p.kept");
  const text = t(words[which(s)].kept);
  if (p && p.textContent !== text) p.textContent = text;
}

// field names a requested field, in the words of the document (a
// passport's number is not a license number).
function field(f: string, w: Which): string {
  for (const k of ["field." + (w === "id_card" ? "idcard" : w) + "." + f, "field." + f]) if (has(k)) return t(k as Key);
  return f.replace(/_/g, " ");
}

export function start(app: App, go: () => void): void {
  const s = app.session;
  const w = which(s);
  const fields = s.requested_fields.map((f) => field(f, w));
  const expires = formatDate(s.expires_at);
  const desktop = isDesktop();
  const hasPhone = s.steps.some((x) => x.name === "phone");
  const body: Node[] = [];
  if (s.message) body.push(h("figure", { class: "msg" }, h("figcaption", null, t("start.from")), h("blockquote", null, s.message)));
  body.push(
    h("h2", null, t("start.checks")),
    h(
      "ul",
      null,
      h("li", null, t(words[w].check, { documents: s.documents.map((k) => t(("pick." + k) as Key)).join(" · ") })),
      // Only a license's printed front is read (an ID card's is not).
      s.front_barcode_match && w !== "passport" && w !== "id_card" && h("li", null, t("start.check.front")),
      h("li", null, t(words[w].selfie)),
      hasPhone && h("li", null, t("start.check.phone")),
      s.address_verification && h("li", null, t("start.check.address")),
      s.location_consistency && h("li", null, t("start.check.location")),
    ),
    h("h2", null, t("start.shares")),
    h("ul", null, h("li", null, t("start.shares.result")), fields.length > 0 && h("li", null, t(words[w].fields, { fields: fields.join(", ") })), hasPhone && h("li", null, t("start.shares.phone"))),
  );
  if (expires) body.push(h("p", { class: "note" }, t("start.expires", { date: expires })));
  body.push(h("p", null, t(words[w].time)));
  let stopFollow = () => {};
  const startBtn = button(desktop ? t("start.here") : t("start.button"), () => {
    stopFollow();
    go();
  }, desktop ? "sec" : "");
  if (desktop) {
    const status = h("p", { role: "status", class: "note" }, t("handoff.waiting"));
    body.unshift(
      h(
        "section",
        { class: "handoff", "aria-labelledby": "handoff-h" },
        h("h2", { id: "handoff-h" }, t("handoff.title")),
        h("img", { class: "qr", src: app.api.base + "/qr.svg", alt: app.named("handoff.qr"), width: "200", height: "200" }),
        s.unreachable_link_host && h("p", { class: "warn", id: "qr-unreachable" }, t("handoff.unreachable", { host: s.unreachable_link_host })),
        h("p", null, t("handoff.body")),
        status,
      ),
    );
    stopFollow = follow(app, status);
  }
  body.push(h("div", { class: "actions" }, startBtn));
  app.show("start", app.named("start.title"), ...body);
}

// follow polls the session while the person continues on a phone, shows
// progress, and ends on "Completed on your phone". The progress names no
// device: steps done on this computer before (Back to the start) count
// too, and were once credited to the phone.
function follow(app: App, status: HTMLElement): () => void {
  let live = true;
  let last = -1;
  const tick = async () => {
    if (!live) return;
    try {
      const s = await app.api.session();
      if (!live) return;
      app.session = s;
      if (s.status === "completed" || s.status === "manual_review") {
        live = false;
        const text = t(s.status === "completed" ? "handoff.done.body" : "handoff.review.body");
        app.show("handoff-done", t("handoff.done.title"), h("p", { class: "ok" }, h("span", { class: "tick", "aria-hidden": "true" }), text));
        return;
      }
      if (s.status === "expired" || s.status === "canceled") {
        live = false;
        app.ended(s.status);
        return;
      }
      const done = s.steps.filter((x) => x.done).length;
      if (done !== last && done > 0) status.textContent = t("handoff.progress", { done, total: s.steps.length });
      last = done;
    } catch {
      // A dropped poll is retried on the next tick.
    }
    if (live) setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
  return () => (live = false);
}

// isDesktop: no phone or tablet in the user agent (iPadOS claims to be a
// Mac but has touch points) and no coarse (touch) primary pointer.
export function isDesktop(): boolean {
  const ua = navigator.userAgent;
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(ua)) return false;
  if (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1) return false;
  return !window.matchMedia("(pointer: coarse)").matches;
}

function formatDate(iso: string): string {
  const d = new Date(iso);
  if (!iso || isNaN(d.getTime())) return "";
  try {
    return d.toLocaleString(currentLang(), { dateStyle: "long", timeStyle: "short" });
  } catch {
    return d.toISOString();
  }
}
