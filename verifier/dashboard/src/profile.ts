// Profile: the account's name on its links' pages (branding.ts), keys and
// plan, through the existing endpoints.
//  - Integration key (POST/GET/PATCH/DELETE /integration-key): generate
//    (the value is shown once, with a copy button and a warning), the
//    Origin allowlist with the wildcard rule explained, the rate limit,
//    revoke.
//  - Passphrase keys (/passphrase-keys): created in this browser
//    (passphrase → Argon2id → P-256, crypto/), only the public part is
//    uploaded; list; delete.
//  - Webhook signing secret (POST /webhook-secret): rotate, shown once.
//  - This month's usage per type against the plan (GET /quota).
// In test mode (docs/test-mode.md) the integration key is the test key (idgk_test_…,
// its own allowlist and rate limit: the API answers the session's mode) and
// there is no usage (test verifications use no allowance); passphrase keys
// and the webhook secret are the account's, shared by both modes.
// Secrets shown once live only in this page's DOM until the user leaves it.
import { ApiError, call, describe } from "./api";
import { newPassphraseKey, describe as describeCrypto, type PassphraseKey } from "./crypto/index";
import { brandingSection } from "./branding";
import { busy, field, h, when } from "./dom";
import type { Page, PageContext } from "./router";

interface IntegrationKey {
  id: string;
  prefix: string;
  allowed_domains: string[];
  rate_limit_per_hour: number;
  created_at: string;
  updated_at: string;
  key?: string;
}

interface StoredPassphraseKey extends PassphraseKey {
  id: string;
  created_at: string;
}

interface QuotaLine {
  limit: number | null;
  used: number;
  remaining: number | null;
}

interface Quota {
  period_start: string;
  period_end: string;
  allowances: Record<string, QuotaLine>;
}

export const page: Page = {
  path: "profile",
  title: "Profile",
  nav: true,
  async render(ctx) {
    const test = ctx.session.mode === "test";
    ctx.root.append(
      h("h1", null, "Profile"),
      h("p", { class: "note" }, "Signed in as ", h("strong", null, ctx.session.email), "."),
      test ? h("p", { class: "note" }, "Test mode: the integration key here is the test key. Passphrase keys and the webhook signing secret are the account's and serve both modes.") : "",
    );
    const sections = [brandingSection(ctx.signal), integrationKey(ctx), passphraseKeys(ctx), webhookSecret(test), test ? testUsage() : usage(ctx)];
    ctx.root.append(...sections.map((s) => s.el));
    await Promise.all(sections.map((s) => s.load()));
  },
};

interface Section {
  el: HTMLElement;
  load(): Promise<void>;
}

function section(title: string, id: string, ...intro: (Node | string)[]): { el: HTMLElement; body: HTMLElement } {
  const body = h("div", null, busy("Loading…"));
  const el = h("section", { "aria-labelledby": id }, h("h2", { id }, title), ...intro, body);
  return { el, body };
}

function alert(text: string): HTMLElement {
  return h("div", { class: "alert", role: "alert" }, text);
}

// secretOnce shows a value the server returns once: a read-only field, a
// copy button and the warning.
function secretOnce(label: string, value: string, warning: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, class: "mono", value, spellcheck: "false", autocomplete: "off", id: "once-" + label.replace(/\W+/g, "-").toLowerCase() });
  const copied = h("span", { role: "status", "aria-live": "polite", class: "note" });
  const copy = h("button", { type: "button", class: "small" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(value);
      copied.textContent = "Copied to the clipboard.";
    } catch {
      input.focus();
      input.select();
      copied.textContent = "Copying was refused: the value is selected, press Ctrl+C (⌘C).";
    }
  });
  return h("div", { class: "confirm secret-once" },
    h("p", null, h("strong", null, "Copy it now: "), warning),
    h("div", { class: "field" }, h("label", { for: input.id }, label), input),
    h("div", { class: "actions" }, copy, copied));
}

// confirmBox asks before an action that cannot be undone.
function confirmBox(text: string, yes: string, onYes: () => void, onNo: () => void): HTMLElement {
  const box = h("div", { class: "confirm", role: "alertdialog", "aria-label": yes },
    h("p", null, text),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", onclick: () => onYes() }, yes),
      h("button", { type: "button", class: "sec", onclick: () => onNo() }, "Cancel")));
  queueMicrotask(() => box.querySelector("button")?.focus());
  return box;
}

// ---- Integration key ------------------------------------------------------

const WILDCARD_RULE =
  "One host name per line, with an optional port: shop.example.com or shop.example.com:8443 (no https://, no path). " +
  "*.example.com allows example.com and every subdomain at any depth, and nothing else (not evil-example.com); " +
  "the * must be the whole first label. The page's origin must be https; an entry without a port matches port 443 only. At most 50.";

function integrationKey(ctx: PageContext): Section {
  const test = ctx.session.mode === "test";
  const name = test ? "Test integration key" : "Integration key";
  const { el, body } = section(name, "ik-h",
    h("p", null, "A publishable key (X-API-Key) that can only create verifications, from browser pages on the domains you allow. ",
      "Generating a new key revokes the previous one at once."),
    test ? h("p", { class: "note" }, "The test key (idgk_test_…) creates test verifications only, which use no allowance. ",
      "It has its own allowlist and rate limit, beside the live key, which it never changes.") : "");
  let shown: HTMLElement | null = null; // the value, once

  async function load(): Promise<void> {
    let k: IntegrationKey | null = null;
    try {
      k = await call<IntegrationKey>("GET", "/integration-key", { signal: ctx.signal });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) {
        body.replaceChildren(alert("Could not load the integration key: " + describe(e)));
        return;
      }
    }
    render(k);
  }

  function render(k: IntegrationKey | null): void {
    const out = h("div", { role: "status", "aria-live": "polite" });
    const gen = h("button", { type: "button" }, k ? "Generate a new key" : "Generate a key");
    const actions = h("div", { class: "actions" }, gen);
    gen.addEventListener("click", () => {
      if (!k) return void generate(out, gen);
      actions.replaceChildren(confirmBox(
        `Generate a new key? The current key (${k.prefix}…) stops working at once, on every page that uses it.`,
        "Generate and revoke the old key",
        () => void generate(out, gen),
        () => render(k)));
    });
    if (!k) {
      body.replaceChildren(shown || "", h("p", null, test ? "This account has no test integration key." : "This account has no integration key."), actions, out);
      return;
    }
    const revoke = h("button", { type: "button", class: "sec" }, "Revoke");
    revoke.addEventListener("click", () => {
      actions.replaceChildren(confirmBox(`Revoke ${k.prefix}…? Pages that use it can no longer create verifications.`, "Revoke the key",
        async () => {
          try {
            await call("DELETE", "/integration-key");
            shown = null;
            render(null);
            body.append(h("p", { class: "done", role: "status" }, "The key is revoked."));
          } catch (e) {
            out.replaceChildren(alert("Could not revoke: " + describe(e)));
          }
        },
        () => render(k)));
    });
    actions.append(revoke);
    body.replaceChildren(
      shown || "",
      h("dl", { class: "facts" },
        h("dt", null, "Key"), h("dd", { class: "mono" }, k.prefix + "…"),
        h("dt", null, "Created"), h("dd", null, when(k.created_at)),
        h("dt", null, "Changed"), h("dd", null, when(k.updated_at))),
      actions, out, settingsForm(k));
  }

  async function generate(out: HTMLElement, gen: HTMLButtonElement): Promise<void> {
    gen.disabled = true;
    out.replaceChildren(busy("Generating…"));
    try {
      const k = await call<IntegrationKey>("POST", "/integration-key");
      const value = k.key || "";
      delete k.key;
      shown = secretOnce(name, value,
        `this is the only time the key is shown. idgate keeps only its hash and first ${k.prefix.length} characters; if you lose it, generate a new one.`);
      render(k);
      shown.querySelector("input")?.focus();
    } catch (e) {
      gen.disabled = false;
      out.replaceChildren(alert("Could not generate a key: " + describe(e)));
    }
  }

  function settingsForm(k: IntegrationKey): HTMLElement {
    const domains = h("textarea", { name: "allowed_domains", rows: "5", spellcheck: "false", autocapitalize: "none" });
    domains.value = k.allowed_domains.join("\n");
    const rate = h("input", { type: "number", name: "rate_limit_per_hour", min: "1", max: "100000", step: "1", required: true, value: String(k.rate_limit_per_hour) });
    const msg = h("div", { role: "status", "aria-live": "polite" });
    const form = h("form", { "aria-labelledby": "ik-settings-h" },
      h("h3", { id: "ik-settings-h" }, "Allowed domains and rate limit"),
      field("Allowed domains", domains, WILDCARD_RULE),
      field("Rate limit (verifications created per hour with this key)", rate, "1 to 100000; the default is 30. Over it, the key's requests get 429 with Retry-After."),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Save")), msg);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const list = domains.value.split(/[\n,]/).map((d) => d.trim()).filter((d) => d !== "");
      const n = Number(rate.value);
      if (!Number.isInteger(n) || n < 1 || n > 100000) {
        msg.replaceChildren(alert("The rate limit must be a whole number from 1 to 100000."));
        rate.focus();
        return;
      }
      msg.replaceChildren(busy("Saving…"));
      try {
        const saved = await call<IntegrationKey>("PATCH", "/integration-key", { body: { allowed_domains: list, rate_limit_per_hour: n } });
        domains.value = saved.allowed_domains.join("\n");
        rate.value = String(saved.rate_limit_per_hour);
        msg.replaceChildren(h("p", { class: "done" }, `Saved: ${saved.allowed_domains.length} allowed domain${saved.allowed_domains.length === 1 ? "" : "s"}, ${saved.rate_limit_per_hour} per hour.`));
      } catch (err) {
        msg.replaceChildren(alert("Not saved: " + describe(err)));
      }
    });
    return form;
  }

  return { el, load };
}

// ---- Passphrase keys ------------------------------------------------------

function passphraseKeys(ctx: PageContext): Section {
  const { el, body } = section("Passphrase keys", "pk-h",
    h("p", null, "Verifications with encryption_key_mode passphrase are sealed to one of these keys: only its passphrase opens their license data and photos, ",
      "in this dashboard or with idgate decrypt. The key is derived from the passphrase in this browser (Argon2id, 64 MiB); ",
      "only its public part is sent to idgate, which cannot recover a forgotten passphrase."));
  const listBox = h("div");
  const msg = h("div", { role: "status", "aria-live": "polite" });

  async function load(): Promise<void> {
    body.replaceChildren(listBox, msg, createForm());
    await refresh();
  }

  async function refresh(): Promise<void> {
    listBox.replaceChildren(busy("Loading keys…"));
    try {
      const { items } = await call<{ items: StoredPassphraseKey[] }>("GET", "/passphrase-keys", { signal: ctx.signal });
      listBox.replaceChildren(items.length ? table(items) : h("p", null, "No passphrase keys yet."));
    } catch (e) {
      listBox.replaceChildren(alert("Could not load the passphrase keys: " + describe(e)));
    }
  }

  function table(items: StoredPassphraseKey[]): HTMLElement {
    return h("table", { class: "list" },
      h("caption", { class: "vh" }, "Passphrase keys"),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "ID (encryption_key)"),
        h("th", { scope: "col" }, "Argon2id cost"), h("th", { scope: "col" }, "Created"), h("th", { scope: "col" }, h("span", { class: "vh" }, "Actions")))),
      h("tbody", null, items.map((k) => {
        const cell = h("td");
        const del = h("button", { type: "button", class: "sec small", "aria-label": `Delete ${k.name}` }, "Delete");
        del.addEventListener("click", () => {
          cell.replaceChildren(confirmBox(`Delete “${k.name}”? New verifications can no longer name it; those already sealed to it still open with its passphrase.`,
            "Delete the key",
            async () => {
              try {
                await call("DELETE", "/passphrase-keys/" + encodeURIComponent(k.id));
                msg.replaceChildren(h("p", { class: "done" }, `Deleted “${k.name}”.`));
                await refresh();
              } catch (e) {
                msg.replaceChildren(alert("Could not delete: " + describe(e)));
              }
            },
            () => cell.replaceChildren(del)));
        });
        cell.append(del);
        return h("tr", null, h("td", null, k.name), h("td", { class: "mono" }, k.id),
          h("td", null, `${Math.round(k.kdf.memory_kib / 1024)} MiB, ${k.kdf.iterations} passes`), h("td", null, when(k.created_at)), cell);
      })));
  }

  function createForm(): HTMLElement {
    const name = h("input", { type: "text", name: "name", maxlength: "100", required: true, autocomplete: "off" });
    const pass = h("input", { type: "password", name: "passphrase", minlength: "12", required: true, autocomplete: "new-password", spellcheck: "false" });
    const again = h("input", { type: "password", name: "passphrase_again", minlength: "12", required: true, autocomplete: "new-password", spellcheck: "false" });
    const out = h("div", { role: "status", "aria-live": "polite" });
    const submit = h("button", { type: "submit" }, "Create key");
    const form = h("form", { "aria-labelledby": "pk-new-h", novalidate: true },
      h("h3", { id: "pk-new-h" }, "New passphrase key"),
      field("Name", name, "How you will recognise it, e.g. “compliance laptop” (1 to 100 characters)."),
      field("Passphrase", pass, "At least 12 characters; several unrelated words are easy to type and hard to guess. Write it down somewhere safe: nobody can recover it."),
      field("Passphrase again", again),
      h("div", { class: "actions" }, submit), out);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (pass.value !== again.value) {
        out.replaceChildren(alert("The two passphrases differ."));
        again.focus();
        return;
      }
      submit.disabled = true;
      out.replaceChildren(busy("Deriving the key in this browser (Argon2id, 64 MiB; about a second)…"));
      await new Promise((r) => setTimeout(r, 30)); // let the status paint first
      let pub: PassphraseKey;
      try {
        pub = await newPassphraseKey(name.value, pass.value);
      } catch (err) {
        submit.disabled = false;
        out.replaceChildren(alert(describeCrypto(err)));
        return;
      }
      try {
        const k = await call<StoredPassphraseKey>("POST", "/passphrase-keys", { body: { name: pub.name, public_key: pub.public_key, kdf: pub.kdf } });
        pass.value = again.value = name.value = "";
        out.replaceChildren(h("p", { class: "done" }, `Created “${k.name}”. Seal verifications to it with encryption_key_mode passphrase and encryption_key `,
          h("span", { class: "mono" }, k.id), "."));
        await refresh();
      } catch (err) {
        out.replaceChildren(alert("Not created: " + describe(err)));
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  return { el, load };
}

// ---- Webhook signing secret ----------------------------------------------

function webhookSecret(test: boolean): Section {
  const { el, body } = section("Webhook signing secret", "ws-h",
    h("p", null, "Every webhook carries Idgate-Signature, an HMAC-SHA256 of its body with this secret. ",
      "Rotating makes a new secret, shown once; the previous one keeps signing beside it for 24 hours so your receiver can switch without rejecting deliveries."),
    test ? h("p", { class: "note shared" }, "One secret signs live and test webhooks alike (a test body says \"livemode\": false): rotating it here rotates it for live too.") : "");
  async function load(): Promise<void> {
    render(null);
  }
  function render(shown: HTMLElement | null): void {
    const out = h("div", { role: "status", "aria-live": "polite" });
    const rotate = h("button", { type: "button" }, "Rotate the secret");
    const actions = h("div", { class: "actions" }, rotate);
    rotate.addEventListener("click", () => {
      actions.replaceChildren(confirmBox("Rotate the signing secret? Deliveries from now on are signed with the new secret (and the current one, for 24 hours).",
        "Rotate", async () => {
          actions.replaceChildren(busy("Rotating…"));
          try {
            const r = await call<{ secret: string; previous_secret_valid_until?: string }>("POST", "/webhook-secret");
            const note = r.previous_secret_valid_until ? ` The previous secret also signs until ${when(r.previous_secret_valid_until)}.` : "";
            const box = secretOnce("Webhook signing secret", r.secret, "this is the only time the secret is shown; put it in your receiver's configuration." + note);
            render(box);
            box.querySelector("input")?.focus();
          } catch (e) {
            render(null);
            body.append(alert("Could not rotate: " + describe(e)));
          }
        }, () => render(shown)));
    });
    body.replaceChildren(shown || "", actions, out);
  }
  return { el, load };
}

// ---- Usage ----------------------------------------------------------------

// testUsage stands in for the usage in test mode: test verifications hold
// no slot, so there is nothing to count (and the live count is not shown).
function testUsage(): Section {
  const { el, body } = section("Usage this month", "use-h");
  return { el, load: async () => {
    body.replaceChildren(h("p", null, "Test verifications use no allowance: they are never counted against your plan. ",
      "This month's usage of the plan is shown in live mode."));
  } };
}

const typeLabel: Record<string, string> = { core: "Core", basic: "Basic", full: "Full" };

function usage(ctx: PageContext): Section {
  const { el, body } = section("Usage this month", "use-h",
    h("p", null, "Verifications hold a slot of their type from creation while pending, started, completed or in manual review; expired and canceled ones give it back."));
  async function load(): Promise<void> {
    try {
      const q = await call<Quota>("GET", "/quota", { signal: ctx.signal });
      const types = ["core", "basic", "full", ...Object.keys(q.allowances).filter((t) => !(t in typeLabel))].filter((t) => t in q.allowances);
      const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
      const last = new Date(new Date(q.period_end).getTime() - 1).toISOString();
      body.replaceChildren(
        h("p", null, `${day(q.period_start)} to ${day(last)} (the calendar month in UTC).`),
        h("div", { class: "cols" }, types.map((t) => {
          const l = q.allowances[t];
          const label = typeLabel[t] || t;
          const line = l.limit === null
            ? `${l.used} used; unlimited.`
            : `${l.used} of ${l.limit} used; ${l.remaining} left.`;
          return h("div", { class: "card usage-line", "data-type": t },
            h("h3", null, label),
            h("p", { class: l.remaining === 0 ? "err" : undefined }, line),
            l.limit === null ? null : h("progress", { max: String(Math.max(l.limit, 1)), value: String(Math.min(l.used, l.limit)), "aria-label": `${label}: ${l.used} of ${l.limit} used` }));
        })));
    } catch (e) {
      body.replaceChildren(alert("Could not load the usage: " + describe(e)));
    }
  }
  return { el, load };
}
