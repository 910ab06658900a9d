// Templates: list, create, edit (PUT replaces the whole template), delete,
// with every field the API takes and the Request Rules as guidance.
import { call, describe, q, type Detail, ApiError } from "./api";
import { busy, field, h, id as uid, table, when } from "./dom";
import type { Page, PageContext } from "./router";

interface Rules { require_external_id?: boolean; require_message_change?: boolean }
export interface Template {
  id: string;
  name: string;
  requested_fields?: string[];
  phone_verification?: boolean;
  address_verification?: boolean;
  location_consistency?: boolean;
  include_license_photo?: boolean;
  front_barcode_match?: boolean;
  accepted_documents?: string[];
  encryption_key_mode?: string;
  encryption_key?: string;
  encryption_key_name?: string;
  webhook_url?: string;
  webhook_headers?: Record<string, string>;
  message?: string;
  lifetime_days?: number;
  rules: Rules;
  created_at: string;
  updated_at: string;
}
interface PassphraseKey { id: string; name: string; created_at: string }

// The requested-field catalog (verifier/license), in two groups: name and
// address make a request at least Basic, anything else Full.
const nameAddress = ["first_names", "middle_names", "last_name", "name_suffix", "address_line1", "address_line2", "address_city", "address_state", "address_postal_code"];
const beyond = ["dob", "sex", "document_type", "document_number", "document_discriminator", "issue_date", "expiry_date", "issuing_jurisdiction",
  "country", "nationality", "vehicle_class", "restrictions", "endorsements", "height_cm", "weight_kg", "eye_color", "hair_color", "real_id",
  "under_18_until", "under_19_until", "under_21_until"];
const label = (f: string) => f.replace(/_/g, " ");

// The kinds of document a verification may accept, as the server was
// built (verifier.AvailableDocuments, written in at build time by
// dashboard.go), and the default: the driver's license alone, which a
// template leaves out (docs/documents.md).
declare const IDGATE_DOCUMENTS: string[];
const availableDocuments: string[] = typeof IDGATE_DOCUMENTS !== "undefined" && Array.isArray(IDGATE_DOCUMENTS) ? IDGATE_DOCUMENTS : ["drivers_license"];
const defaultDocuments = ["drivers_license"];
const documentNames: Record<string, string> = {
  drivers_license: "Driver's license or state ID",
  passport: "Passport",
  id_card: "ID card with a machine-readable zone",
};

export const page: Page = {
  path: "templates",
  title: "Templates",
  nav: true,
  render(ctx) {
    const p = ctx.params[0];
    if (!p) return list(ctx);
    return edit(ctx, p === "new" ? null : p);
  },
};

async function list(ctx: PageContext): Promise<void> {
  const out = h("div", null, busy("Loading templates…"));
  ctx.root.append(h("h1", null, "Templates"),
    h("p", null, "A template holds the settings of a kind of request; give its id as template_id when you create a verification."),
    h("p", { class: "note shared" }, "Templates are the account's and serve both modes: the same template makes a live verification with a live credential and a test verification with a test one. ",
      "Changing one here changes it for both."),
    h("div", { class: "actions" }, h("a", { class: "button", href: "#/templates/new" }, "New template")), out);
  const data = await call<{ items: Template[] }>("GET", "/templates", { signal: ctx.signal });
  if (!data.items.length) {
    out.replaceChildren(h("p", { role: "status" }, "No templates yet."));
    return;
  }
  out.replaceChildren(table("Templates, oldest first", ["Name", "Collects", "Encryption", "Webhook", "Updated"], data.items.map((t) => [
    h("a", { href: "#/templates/" + encodeURIComponent(t.id) }, t.name),
    (t.requested_fields || []).map(label).join(", ") || "no license fields",
    t.encryption_key_mode || "—",
    h("span", { class: "mono" }, t.webhook_url || "—"),
    when(t.updated_at),
  ])));
}

function checkbox(name: string, text: string, checked: boolean, hint?: string): { row: HTMLElement; input: HTMLInputElement } {
  const input = h("input", { type: "checkbox", name, id: uid("c"), checked });
  const hintEl = hint ? h("span", { class: "hint", id: input.id + "-hint" }, " — " + hint) : null;
  if (hintEl) input.setAttribute("aria-describedby", hintEl.id);
  return { row: h("div", { class: "check-row" }, input, h("label", { for: input.id }, text, hintEl)), input };
}

async function edit(ctx: PageContext, id: string | null): Promise<void> {
  const heading = h("h1", null, id ? "Edit template" : "New template");
  ctx.root.append(h("p", { class: "crumb" }, h("a", { href: "#/templates" }, "← All templates")), heading, busy("Loading…"));
  const [t, keys] = await Promise.all([
    id ? call<Template>("GET", "/templates/" + encodeURIComponent(id), { signal: ctx.signal }) : Promise.resolve(null),
    call<{ items: PassphraseKey[] }>("GET", "/passphrase-keys", { signal: ctx.signal }),
  ]);
  if (t) heading.textContent = "Edit template “" + t.name + "”";

  const name = h("input", { type: "text", name: "name", required: true, maxlength: "100", value: t?.name || "" });
  const message = h("textarea", { name: "message", maxlength: "1000" }, t?.message || "");
  const lifetime = h("input", { type: "number", name: "lifetime_days", min: "1", max: "90", value: String(t?.lifetime_days || 14) });
  const fields = new Map<string, HTMLInputElement>();
  const fieldBox = (legend: string, names: string[], hint: string) => h("fieldset", null, h("legend", null, legend), h("p", { class: "hint" }, hint),
    h("div", { class: "cols" }, names.map((f) => {
      const c = checkbox("requested_fields", label(f), !!t?.requested_fields?.includes(f));
      fields.set(f, c.input);
      return c.row;
    })));
  const phone = checkbox("phone_verification", "Phone verification", !!t?.phone_verification, "makes the request Full");
  const address = checkbox("address_verification", "Address verification", !!t?.address_verification, "makes the request Full");
  const location = checkbox("location_consistency", "Location consistency", !!t?.location_consistency, "makes it at least Basic");
  const photo = checkbox("include_license_photo", "Include the license headshot in the result", !!t?.include_license_photo, "makes the request Full");
  const barcode = checkbox("front_barcode_match", "Front must match the barcode", !!t?.front_barcode_match, "makes the request Full; the printed front is read and compared with the barcode, field by field (front_barcode_match in the result; informational)");
  // accepted_documents: a choice only where the server can capture more
  // than one kind; the template's own order is kept (the end user's pick
  // lists the kinds in it), kinds ticked anew follow it.
  const accepted = t?.accepted_documents?.length ? t.accepted_documents : defaultDocuments;
  const docs = new Map(availableDocuments.map((k) => [k, checkbox("accepted_documents", (documentNames[k] || label(k)) + " (" + k + ")", accepted.includes(k))]));
  const docBox = availableDocuments.length > 1 ? h("fieldset", null, h("legend", null, "Documents accepted"),
    h("p", { class: "hint" }, "The end user chooses one on the page when several are ticked. The driver's license alone is the default."),
    [...docs.values()].map((c) => c.row)) : null;
  const pickedDocuments = () => [...accepted.filter((k) => docs.get(k)?.input.checked), ...availableDocuments.filter((k) => !accepted.includes(k) && docs.get(k)!.input.checked)];

  const mode = h("select", { name: "encryption_key_mode" },
    h("option", { value: "" }, "Not set (each request says)"),
    h("option", { value: "none", selected: t?.encryption_key_mode === "none" }, "None: idgate can read the license data"),
    h("option", { value: "passphrase", selected: t?.encryption_key_mode === "passphrase" }, "Passphrase key"),
    h("option", { value: "custom", selected: t?.encryption_key_mode === "custom" }, "My own RSA public key"));
  const passKey = h("select", { name: "passphrase_key" }, h("option", { value: "" }, keys.items.length ? "Choose a passphrase key" : "No passphrase keys (create one on Profile)"),
    keys.items.map((k) => h("option", { value: k.id, selected: t?.encryption_key_mode === "passphrase" && t?.encryption_key === k.id }, k.name)));
  const pem = h("textarea", { name: "encryption_key", class: "mono", rows: "6", spellcheck: "false" }, t?.encryption_key_mode === "custom" ? t.encryption_key || "" : "");
  const keyName = h("input", { type: "text", name: "encryption_key_name", maxlength: "100", value: t?.encryption_key_name || "" });
  const passBox = h("div", null, field("Passphrase key", passKey));
  const customBox = h("div", null, field("RSA public key (PEM)", pem, "2048 to 8192 bits, -----BEGIN PUBLIC KEY-----"), field("Key label", keyName, "Shown as encryption_key.name in results"));
  const showKey = () => {
    passBox.hidden = mode.value !== "passphrase";
    customBox.hidden = mode.value !== "custom";
  };
  mode.addEventListener("change", showKey);
  showKey();

  const hook = h("input", { type: "url", name: "webhook_url", maxlength: "2048", value: t?.webhook_url || "", placeholder: "https://shop.example.com/hooks/idgate", spellcheck: "false" });
  const headers = h("textarea", { name: "webhook_headers", class: "mono", rows: "3", spellcheck: "false" },
    Object.entries(t?.webhook_headers || {}).map(([k, v]) => k + ": " + v).join("\n"));
  const ruleExt = checkbox("require_external_id", "Require a Reference ID (external_id)", !!t?.rules?.require_external_id);
  const ruleMsg = checkbox("require_message_change", "Require the message to be changed for each request", !!t?.rules?.require_message_change);

  const errors = h("div", { role: "alert", class: "errors" });
  const notice = h("div", { role: "status" });
  const save = h("button", { type: "submit" }, id ? "Save changes" : "Create template");
  const form = h("form", { class: "template", novalidate: true },
    field("Name", name),
    field("Message to the end user", message, "Shown on the first screen of the link; up to 1000 characters"),
    field("Link lifetime (days)", lifetime, "1 to 90"),
    docBox,
    fieldBox("Name and address", nameAddress, "Any of these makes the request at least Basic."),
    fieldBox("Other license fields", beyond, "Any of these makes the request Full."),
    h("fieldset", null, h("legend", null, "Further checks"), phone.row, address.row, location.row, photo.row, barcode.row),
    h("fieldset", null, h("legend", null, "Encryption of personal data"),
      h("p", { class: "hint" }, "Needed whenever license fields, the phone check or the headshot are collected."),
      field("Encryption", mode), passBox, customBox),
    h("fieldset", null, h("legend", null, "Webhook"), field("Webhook URL", hook, "https only; empty sends no webhook"),
      field("Webhook headers", headers, "One per line, Name: value; at most 20")),
    h("fieldset", null, h("legend", null, "Request Rules"),
      h("p", { class: "guidance" }, "Request Rules are guidance for whoever creates requests from this template: the API stores them and shows them here but does not enforce them. A request may still omit external_id or keep the message unchanged."),
      ruleExt.row, ruleMsg.row),
    errors, notice, h("div", { class: "actions" }, save));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    errors.replaceChildren();
    const hdrs: Record<string, string> = {};
    const bad: string[] = [];
    headers.value.split("\n").map((l) => l.trim()).filter(Boolean).forEach((l) => {
      const i = l.indexOf(":");
      if (i <= 0) bad.push("“" + l + "” is not Name: value");
      else hdrs[l.slice(0, i).trim()] = l.slice(i + 1).trim();
    });
    if (!name.value.trim()) bad.push("Give the template a name.");
    const documents = pickedDocuments();
    if (docBox && !documents.length) bad.push("Tick at least one document.");
    if (bad.length) {
      showErrors(errors, bad);
      return;
    }
    const body: Record<string, unknown> = {
      name: name.value.trim(),
      requested_fields: [...fields].filter(([, c]) => c.checked).map(([f]) => f),
      phone_verification: phone.input.checked, address_verification: address.input.checked,
      location_consistency: location.input.checked, include_license_photo: photo.input.checked,
      front_barcode_match: barcode.input.checked,
      rules: { require_external_id: ruleExt.input.checked, require_message_change: ruleMsg.input.checked },
    };
    // The default is left out, as a template saved before the choice has it.
    if (documents.join() !== defaultDocuments.join()) body.accepted_documents = documents;
    if (message.value) body.message = message.value;
    if (lifetime.value) body.lifetime_days = Number(lifetime.value);
    if (mode.value) body.encryption_key_mode = mode.value;
    if (mode.value === "passphrase" && passKey.value) body.encryption_key = passKey.value;
    if (mode.value === "custom" && pem.value.trim()) body.encryption_key = pem.value.trim();
    if (mode.value === "custom" && keyName.value.trim()) body.encryption_key_name = keyName.value.trim();
    if (hook.value.trim()) body.webhook_url = hook.value.trim();
    if (Object.keys(hdrs).length) body.webhook_headers = hdrs;
    save.disabled = true;
    try {
      const saved = id ? await call<Template>("PUT", "/templates/" + encodeURIComponent(id), { body })
        : await call<Template>("POST", "/templates", { body });
      if (!id) {
        ctx.navigate("#/templates/" + encodeURIComponent(saved.id) + q({ created: "1" }));
        return;
      }
      notice.replaceChildren(h("p", { class: "done" }, "Saved."));
    } catch (err) {
      showErrors(errors, err instanceof ApiError && err.details.length ? err.details.map((d: Detail) => (d.field ? label(d.field) + ": " : "") + d.message) : [describe(err)]);
    } finally {
      save.disabled = false;
    }
  });

  const del = id ? h("section", { class: "card" }, h("h2", null, "Delete this template"),
    h("p", null, "Verifications made from it keep their settings."),
    h("button", { type: "button", class: "danger", onclick: async (e: Event) => {
      const b = e.currentTarget as HTMLButtonElement;
      if (b.dataset.sure !== "1") {
        b.dataset.sure = "1";
        b.textContent = "Yes, delete “" + (t?.name || "") + "”";
        return;
      }
      b.disabled = true;
      try {
        await call("DELETE", "/templates/" + encodeURIComponent(id));
        ctx.navigate("#/templates");
      } catch (err) {
        showErrors(errors, [describe(err)]);
        b.disabled = false;
      }
    } }, "Delete template")) : null;
  ctx.root.replaceChildren();
  ctx.root.append(h("div", null, h("p", { class: "crumb" }, h("a", { href: "#/templates" }, "← All templates")), heading,
    ctx.query.get("created") ? h("p", { class: "done", role: "status" }, "Template created. Its id: ", h("span", { class: "mono" }, id || "")) : null,
    t ? h("p", { class: "note" }, "Id ", h("span", { class: "mono" }, t.id), " · created " + when(t.created_at) + " · updated " + when(t.updated_at)) : null,
    ctx.session.mode === "test" ? h("p", { class: "note shared" }, "Templates serve both modes: what you save here applies to live verifications too.") : null,
    form, del));
}

function showErrors(box: HTMLElement, msgs: string[]): void {
  box.replaceChildren(h("div", { class: "alert" }, h("p", null, "The template was not saved:"), h("ul", null, msgs.map((m) => h("li", null, m)))));
}
