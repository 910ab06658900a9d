// Requests: the account's verifications (filters, paging) and one
// verification's detail (timeline, result, webhook deliveries, actions).
import { ApiError, call, describe, q } from "./api";
import { busy, field, h, table, when } from "./dom";
import type { Page, PageContext } from "./router";
import { resultView } from "./result";

export interface Verification {
  id: string;
  status: string;
  type: string;
  livemode: boolean;
  external_id?: string;
  template_id?: string;
  created_at: string;
  expires_at: string;
  started_at?: string;
  completed_at?: string;
  pii_purged_at?: string;
  result?: Record<string, unknown>;
  webhook_status?: string;
}

interface List { items: Verification[]; next_cursor?: string }

interface Attempt { attempt: number; started_at: string; status_code: number; error?: string; duration_ms: number; response_snippet: string }
interface Delivery { id: string; state: string; url: string; header_names: string[]; created_at: string; next_attempt_at?: string; attempts: Attempt[] }
interface DeliveryLog { verification_id: string; webhook_status: string; deliveries: Delivery[] }

export const statuses = ["pending", "started", "completed", "manual_review", "expired", "canceled"];
export const statusLabel: Record<string, string> = {
  pending: "Pending", started: "Started", completed: "Completed", manual_review: "Manual review", expired: "Expired", canceled: "Canceled",
};

export function statusBadge(s: string): HTMLElement {
  return h("span", { class: "badge st-" + s }, statusLabel[s] || s);
}

export const page: Page = {
  path: "requests",
  title: "Requests",
  nav: true,
  render(ctx) {
    return ctx.params.length ? detail(ctx, ctx.params[0]) : list(ctx);
  },
};

// dayStart turns a yyyy-mm-dd from a date input into the RFC 3339 instant
// that day starts in the browser's time zone.
function dayStart(d: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return undefined;
  const [y, m, day] = d.split("-").map(Number);
  const t = new Date(y, m - 1, day);
  return isNaN(t.getTime()) ? undefined : t.toISOString();
}

function nextDay(d: string): string | undefined {
  const s = dayStart(d);
  if (!s) return undefined;
  const t = new Date(s);
  t.setDate(t.getDate() + 1);
  return t.toISOString();
}

async function list(ctx: PageContext): Promise<void> {
  const p = ctx.query;
  const status = h("select", { name: "status" }, h("option", { value: "" }, "Any status"),
    statuses.map((s) => h("option", { value: s, selected: p.get("status") === s }, statusLabel[s])));
  const ext = h("input", { type: "search", name: "external_id", value: p.get("external_id") || "", maxlength: "128", spellcheck: "false" });
  const from = h("input", { type: "date", name: "from", value: p.get("from") || "" });
  const to = h("input", { type: "date", name: "to", value: p.get("to") || "" });
  const form = h("form", { class: "filters", role: "search", "aria-label": "Filter requests" },
    field("Status", status), field("External ID", ext, "Exact match"), field("Created from", from), field("Created through", to),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Filter"),
      h("a", { class: "button sec", href: "#/requests" }, "Clear")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    ctx.navigate("#/requests" + q({ status: status.value, external_id: ext.value.trim(), from: from.value, to: to.value }));
  });
  const out = h("div", { class: "results" }, busy("Loading requests…"));
  const test = ctx.session.mode === "test";
  ctx.root.append(h("h1", null, test ? "Test requests" : "Requests"),
    test ? h("p", { class: "note" }, "Test verifications only: those made with a test-mode token or the test integration key (idgk_test_…). Switch test mode off for live requests.") : "",
    filterBox(ctx, form, ["status", "external_id", "from", "to"].filter((k) => p.get(k)).length), out);

  const cursors = (p.get("back") || "").split(",").filter(Boolean);
  const cursor = p.get("cursor") || "";
  let data: List;
  try {
    data = await call<List>("GET", "/verifications" + q({
      status: p.get("status") || "", external_id: p.get("external_id") || "",
      created_from: dayStart(p.get("from") || ""), created_before: nextDay(p.get("to") || ""), limit: 25, cursor,
    }), { signal: ctx.signal });
  } catch (e) {
    out.replaceChildren(h("div", { class: "alert", role: "alert" }, "Could not load requests: " + describe(e)));
    return;
  }
  if (!data.items.length) {
    out.replaceChildren(h("p", { role: "status" }, cursor ? "No more requests." : test ? "No test requests match." : "No requests match."));
  } else {
    out.replaceChildren(table((test ? "Test requests" : "Requests") + ", newest first", ["Created", "External ID", "Status", "Type", "Webhook"], data.items.map((v) => [
      h("a", { href: "#/requests/" + encodeURIComponent(v.id), "aria-label": "Request created " + when(v.created_at) + (v.external_id ? ", " + v.external_id : "") }, when(v.created_at)),
      h("span", { class: "mono" }, v.external_id || "—"),
      statusBadge(v.status),
      v.type,
      v.webhook_status || "—",
    ])));
  }
  const base = { status: p.get("status") || "", external_id: p.get("external_id") || "", from: p.get("from") || "", to: p.get("to") || "" };
  const pager = h("nav", { class: "pager", "aria-label": "Pages" });
  if (cursor) {
    const prev = cursors.slice(0, -1);
    pager.append(h("a", { class: "button sec", href: "#/requests" + q({ ...base, cursor: cursors[cursors.length - 1] || "", back: prev.join(",") }) }, "Previous page"));
  }
  if (data.next_cursor) {
    pager.append(h("a", { class: "button sec", href: "#/requests" + q({ ...base, cursor: data.next_cursor, back: [...cursors, cursor].join(",") }) }, "Next page"));
  }
  if (pager.childElementCount) out.append(pager);
}

// filterBox folds the filter form under a "Filters" summary. On a phone
// the form alone filled the first screen, so there it starts folded and
// the requests come first; on a wider screen, or with a filter in force
// (active of them), it starts open. Crossing the width while no filter is
// in force folds or unfolds it to match.
function filterBox(ctx: PageContext, form: HTMLElement, active: number): HTMLElement {
  const narrow = window.matchMedia("(max-width: 48rem)");
  const box = h("details", { class: "filterbox", open: active > 0 || !narrow.matches },
    h("summary", null, "Filters", active ? h("span", { class: "count" }, ` (${active} active)`) : ""), form);
  if (!active) narrow.addEventListener("change", () => (box.open = !narrow.matches), { signal: ctx.signal });
  return box;
}

async function detail(ctx: PageContext, id: string): Promise<void> {
  const heading = h("h1", null, "Request");
  ctx.root.append(h("p", { class: "crumb" }, h("a", { href: "#/requests" }, "← All requests")), heading, busy("Loading…"));
  const v = await call<Verification>("GET", "/verification" + q({ id }), { signal: ctx.signal });
  let log: DeliveryLog | null = null;
  try {
    log = await call<DeliveryLog>("GET", "/verification/webhook/deliveries" + q({ id }), { signal: ctx.signal });
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  const notice = h("div", { class: "notice", role: "status", "aria-live": "polite" });
  const reload = () => {
    ctx.root.replaceChildren();
    void detail(ctx, id).catch((e) => ctx.root.append(h("div", { class: "alert", role: "alert" }, describe(e))));
  };
  // act is an action button; with confirmText it first asks, in the page
  // (no window.confirm), with the choice to go ahead or keep things.
  const act = (label: string, confirmText: string, run: () => Promise<unknown>, after: () => void, cls = "sec") => {
    const go = async (b: HTMLButtonElement) => {
      b.disabled = true;
      try {
        await run();
        after();
      } catch (err) {
        notice.replaceChildren(h("div", { class: "alert", role: "alert" }, label + " failed: " + describe(err)));
        b.disabled = false;
      }
    };
    return h("button", { type: "button", class: cls, onclick: (e: Event) => {
      const b = e.currentTarget as HTMLButtonElement;
      if (!confirmText) return void go(b);
      const yes = h("button", { type: "button", class: cls === "danger" ? "danger" : "" }, "Yes, " + label.toLowerCase());
      const no = h("button", { type: "button", class: "sec" }, "Keep it");
      const ask = h("div", { class: "confirm", role: "group", "aria-label": label }, h("p", null, confirmText), h("div", { class: "actions" }, yes, no));
      yes.addEventListener("click", () => void go(yes));
      no.addEventListener("click", () => { notice.replaceChildren(); b.focus(); });
      notice.replaceChildren(ask);
      yes.focus();
    } }, label);
  };

  heading.textContent = "Request " + (v.external_id || v.id.slice(0, 8));
  const actions = h("div", { class: "actions" });
  if (v.status === "pending" || v.status === "started") {
    actions.append(act("Cancel", "Cancel this request? The link stops working.", () => call("POST", "/verification/cancel" + q({ id })), reload));
  }
  if ((v.status === "completed" || v.status === "manual_review") && !v.pii_purged_at) {
    actions.append(act("Purge personal data", "Remove the license data, photos and review images of this request now? This cannot be undone.",
      () => call("POST", "/verification/purge" + q({ id })), reload));
  }
  if (v.status === "manual_review") actions.append(h("a", { class: "button", href: "#/review/" + encodeURIComponent(id) }, "Review"));
  actions.append(act("Delete", "Delete this request? It disappears from every list and its data is dropped.",
    () => call("DELETE", "/verification" + q({ id })), () => ctx.navigate("#/requests"), "danger"));

  const timeline = h("ol", { class: "timeline" },
    h("li", null, h("span", null, "Created"), h("time", { datetime: v.created_at }, when(v.created_at))),
    v.started_at ? h("li", null, h("span", null, "Started"), h("time", { datetime: v.started_at }, when(v.started_at))) : null,
    v.completed_at ? h("li", null, h("span", null, v.status === "manual_review" ? "Sent to review" : "Completed"), h("time", { datetime: v.completed_at }, when(v.completed_at))) : null,
    v.pii_purged_at ? h("li", null, h("span", null, "Personal data purged"), h("time", { datetime: v.pii_purged_at }, when(v.pii_purged_at))) : null,
    v.status === "pending" || v.status === "started" ? h("li", null, h("span", null, "Link expires"), h("time", { datetime: v.expires_at }, when(v.expires_at))) : null,
    v.status === "expired" ? h("li", null, h("span", null, "Expired"), h("time", { datetime: v.expires_at }, when(v.expires_at))) : null);

  ctx.root.replaceChildren(h("p", { class: "crumb" }, h("a", { href: "#/requests" }, "← All requests")), heading,
    h("dl", { class: "facts" },
      h("dt", null, "Status"), h("dd", null, statusBadge(v.status)),
      h("dt", null, "Type"), h("dd", null, v.type),
      h("dt", null, "Mode"), h("dd", null, v.livemode ? "Live" : h("span", { class: "modetag inline" }, "Test")),
      h("dt", null, "ID"), h("dd", { class: "mono" }, v.id),
      v.external_id ? [h("dt", null, "External ID"), h("dd", { class: "mono" }, v.external_id)] : [],
      v.template_id ? [h("dt", null, "Template"), h("dd", null, h("a", { href: "#/templates/" + encodeURIComponent(v.template_id) }, v.template_id))] : []),
    actions, notice,
    h("h2", null, "Timeline"), timeline,
    h("h2", null, "Result"), v.result ? resultView(v.result) : h("p", { class: "note" }, "No result yet."),
    h("h2", null, "Webhook deliveries"), deliveries(log, id, notice, reload));
}

function deliveries(log: DeliveryLog | null, id: string, notice: HTMLElement, reload: () => void): HTMLElement {
  if (!log || !log.deliveries.length) return h("p", { class: "note" }, "No webhook was sent for this request.");
  // The API lists the newest first; shown oldest first, numbered in the
  // order they were made. The newest decides whether Retry is offered (the
  // API's rule: only after it failed).
  const ds = [...log.deliveries].reverse();
  const latest = ds[ds.length - 1];
  const box = h("div", { class: "deliveries" });
  ds.forEach((d, i) => {
    box.append(h("section", { class: "delivery", "aria-label": "Delivery " + (i + 1) },
      h("h3", null, "Delivery " + (i + 1) + " · ", h("span", { class: "badge wh-" + d.state }, d.state)),
      h("p", { class: "note" }, "To ", h("span", { class: "mono" }, d.url), " · created " + when(d.created_at),
        d.next_attempt_at ? " · next attempt " + when(d.next_attempt_at) : "",
        d.header_names.length ? " · headers: " + d.header_names.join(", ") : ""),
      d.attempts.length ? table("Attempts of delivery " + (i + 1), ["Attempt", "Time", "Status", "Duration", "Error or response"], d.attempts.map((a) => [
        String(a.attempt), when(a.started_at),
        h("span", { class: a.error ? "err" : "ok-text" }, a.status_code ? String(a.status_code) : "no response"),
        Math.round(a.duration_ms) + " ms",
        h("span", { class: "mono wrap" }, a.error || a.response_snippet || "—"),
      ]), "attempts") : h("p", { class: "note" }, "No attempt yet.")));
  });
  if (latest.state === "failed") {
    box.append(h("div", { class: "actions" }, h("button", { type: "button", onclick: async (e: Event) => {
      const b = e.currentTarget as HTMLButtonElement;
      b.disabled = true;
      try {
        await call("POST", "/verification/webhook/retry" + q({ id }));
        reload();
      } catch (err) {
        notice.replaceChildren(h("div", { class: "alert", role: "alert" }, "Retry failed: " + describe(err)));
        b.disabled = false;
      }
    } }, "Retry webhook")));
  }
  return box;
}
