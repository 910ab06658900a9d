// The manual review queue: verifications in manual_review, the one waiting
// longest first; one at a time, the license portrait and the selfie side by
// side with the scores, and Approve / Reject with a reason.
import { ApiError, call, describe, fetchRaw, q } from "./api";
import { busy, field, h, table, when } from "./dom";
import type { Verification } from "./requests";
import { resultView } from "./result";
import type { Page, PageContext } from "./router";
import { unlockPanel } from "./unlock";

export const page: Page = {
  path: "review",
  title: "Review queue",
  nav: true,
  render(ctx) {
    return ctx.params.length ? one(ctx, ctx.params[0]) : queue(ctx);
  },
};

// The queue reads every page of GET /verifications?status=manual_review
// (up to maxQueue) and orders it by the time each entered review
// (completed_at), oldest first: the list endpoint pages newest first.
const maxQueue = 1000;

async function waiting(signal: AbortSignal): Promise<{ items: Verification[]; more: boolean }> {
  const items: Verification[] = [];
  let cursor = "";
  do {
    const page = await call<{ items: Verification[]; next_cursor?: string }>("GET", "/verifications" + q({ status: "manual_review", limit: 100, cursor }), { signal });
    items.push(...page.items);
    cursor = page.next_cursor || "";
  } while (cursor && items.length < maxQueue);
  items.sort((a, b) => (a.completed_at || a.created_at).localeCompare(b.completed_at || b.created_at));
  return { items, more: !!cursor };
}

function ver(v: Verification): Record<string, unknown> {
  return ((v.result || {}).verification || {}) as Record<string, unknown>;
}

async function queue(ctx: PageContext): Promise<void> {
  const out = h("div", null, busy("Loading the queue…"));
  const test = ctx.session.mode === "test";
  ctx.root.append(h("h1", null, test ? "Review queue (test)" : "Review queue"),
    h("p", null, "End users asked for a person to compare their face with their license photo. The one waiting longest comes first."),
    test ? h("p", { class: "note" }, "Test verifications only (for example test/complete with the outcome manual_review): deciding one sends its test webhook as live would, and touches nothing live.") : "",
    out);
  const { items, more } = await waiting(ctx.signal);
  if (!items.length) {
    out.replaceChildren(h("p", { role: "status", class: "done" }, "Nothing to review."));
    return;
  }
  out.replaceChildren(h("p", { role: "status" }, items.length + (more ? "+" : "") + " waiting."),
    table("Verifications waiting for review, oldest first", ["Waiting since", "External ID", "Face match", "Confidence", "Action"], items.map((v) => [
      when(v.completed_at),
      h("span", { class: "mono ext" }, v.external_id || "—"),
      String(ver(v).face_match_score || "—").replace(/_/g, " "),
      typeof ver(v).face_match_confidence === "number" ? Math.round((ver(v).face_match_confidence as number) * 100) + " %" : "—",
      h("a", { class: "button small", href: "#/review/" + encodeURIComponent(v.id), "aria-label": "Review the request waiting since " + when(v.completed_at) }, "Review"),
    ])));
}

// image shows one review image: the picture itself (mode none), the unlock
// panel when it is sealed to the account's key, or why there is none.
async function image(ctx: PageContext, id: string, kind: string, caption: string, alt: string): Promise<HTMLElement> {
  const fig = h("figure", null, h("figcaption", null, caption));
  let r: Response;
  try {
    r = await fetchRaw("/verification/review/image" + q({ id, kind }), ctx.signal);
  } catch (e) {
    const none = ctx.session.mode === "test" ? "None: a test verification's outcome is chosen, not photographed." : "Not kept: never taken, or the personal data was purged.";
    fig.append(h("p", { class: "note" }, e instanceof ApiError && e.status === 404 ? none : "Could not load it: " + describe(e)));
    return fig;
  }
  const show = (b: Blob) => {
    const url = URL.createObjectURL(b);
    ctx.signal.addEventListener("abort", () => URL.revokeObjectURL(url));
    fig.append(h("img", { src: url, alt }));
  };
  if ((r.headers.get("Content-Type") || "").startsWith("application/json")) {
    const doc = (await r.json()) as Record<string, unknown>;
    const panel = unlockPanel(doc, caption.toLowerCase(), (o) => {
      if (o.kind === "image") {
        panel.remove();
        show(o.blob);
      }
    });
    fig.append(panel);
  } else {
    show(await r.blob());
  }
  return fig;
}

async function one(ctx: PageContext, id: string): Promise<void> {
  const heading = h("h1", null, "Review");
  ctx.root.append(h("p", { class: "crumb" }, h("a", { href: "#/review" }, "← Review queue")), heading, busy("Loading…"));
  const v = await call<Verification>("GET", "/verification" + q({ id }), { signal: ctx.signal });
  heading.textContent = "Review " + (v.external_id || v.id.slice(0, 8));
  const back = h("p", { class: "crumb" }, h("a", { href: "#/review" }, "← Review queue"));
  if (v.status !== "manual_review") {
    ctx.root.replaceChildren(back, heading, h("p", { role: "status" }, "This request is not waiting for review (it is " + v.status.replace(/_/g, " ") + "). ",
      h("a", { href: "#/requests/" + encodeURIComponent(id) }, "See the request")));
    return;
  }
  const kind = String(v.result?.document_type ?? "drivers_license");
  const [front, selfie] = await Promise.all([
    kind === "passport"
      ? image(ctx, id, "passport_page", "Passport photo page", "The passport's photo page the end user photographed")
      : kind === "id_card"
        ? image(ctx, id, "id_card_front", "ID card photo", "The front of the ID card the end user photographed")
        : image(ctx, id, "license_front", "License photo", "The front of the license the end user photographed"),
    image(ctx, id, "selfie", "Selfie", "A frame of the end user's liveness video"),
  ]);
  const s = ver(v);
  const scores = h("dl", { class: "facts scores" },
    h("dt", null, "Face match"), h("dd", null, String(s.face_match_score || "—").replace(/_/g, " ")),
    h("dt", null, "Confidence"), h("dd", null, typeof s.face_match_confidence === "number" ? Math.round((s.face_match_confidence as number) * 100) + " %" : "—"),
    h("dt", null, "Cosine similarity"), h("dd", null, typeof s.face_match_cosine_similarity === "number" ? (s.face_match_cosine_similarity as number).toFixed(3) + " (all faces score high; the tier decides)" : "—"),
    h("dt", null, "Selfie appears live"), h("dd", null, s.webcam_appears_live === true ? "Yes" : s.webcam_appears_live === false ? "No" : "—"),
    h("dt", null, "License appears real"), h("dd", null, s.license_appears_real === true ? "Yes" : s.license_appears_real === false ? "No" : "—"),
    h("dt", null, "Waiting since"), h("dd", null, when(v.completed_at)));

  const reason = h("textarea", { name: "reason", maxlength: "500", rows: "3" });
  const errors = h("div", { role: "alert" });
  const decide = (approved: boolean) => async (e: Event) => {
    const b = e.currentTarget as HTMLButtonElement;
    errors.replaceChildren();
    for (const x of form.querySelectorAll("button")) x.disabled = true;
    try {
      await call<Verification>("POST", "/verification/review" + q({ id }), { body: reason.value.trim() ? { approved, reason: reason.value.trim() } : { approved } });
      const rest = (await waiting(ctx.signal)).items;
      const next = rest.find((x) => x.id !== id);
      ctx.root.replaceChildren(back, h("h1", null, approved ? "Approved" : "Rejected"),
        h("p", { class: "done", role: "status" }, (approved ? "Approved: the faces match." : "Rejected: the faces do not match.") +
          " The account's webhook receives the decided result now (a second delivery, with webcam_face_matches_license_photo " + approved + (reason.value.trim() ? " and your reason" : "") + ")."),
        h("div", { class: "actions" },
          next ? h("a", { class: "button", href: "#/review/" + encodeURIComponent(next.id) }, "Next in the queue") : h("p", null, "The queue is empty."),
          h("a", { class: "button sec", href: "#/requests/" + encodeURIComponent(id) }, "See the request")));
      ctx.root.querySelector("h1")?.setAttribute("tabindex", "-1");
      (ctx.root.querySelector("h1") as HTMLElement | null)?.focus();
    } catch (err) {
      errors.replaceChildren(h("div", { class: "alert" }, "The decision was not recorded: " + describe(err)));
      for (const x of form.querySelectorAll("button")) x.disabled = false;
      b.focus();
    }
  };
  const form = h("form", { class: "decision", novalidate: true, onsubmit: (e: Event) => e.preventDefault() },
    h("h2", null, "Decision"),
    field("Reason (optional)", reason, "Sent in the webhook and kept with the result, in clear: do not write personal data here. Up to 500 characters."),
    errors,
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: decide(true) }, "Approve: same person"),
      h("button", { type: "button", class: "danger", onclick: decide(false) }, "Reject: not the same person")));
  ctx.root.replaceChildren(back, heading,
    h("div", { class: "pair" }, front, selfie),
    h("h2", null, "Scores"), scores, form,
    h("details", null, h("summary", null, "The whole result"), v.result ? resultView(v.result) : h("p", null, "No result.")));
}
