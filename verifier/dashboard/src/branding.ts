// Profile's "Your name on the pages": the display name, accent
// colour, support contact and privacy policy the end user's pages show
// (PATCH /me), and the logo (PUT/GET/DELETE /me/logo, a PNG, JPEG or WebP
// we re-encode). An account made before display names has none: the
// section then says its links' pages show no name and asks for one.
import { ApiError, call, describe, fetchRaw } from "./api";
import { busy, field, h } from "./dom";

interface Branding {
  display_name: string | null;
  accent_color: string | null;
  support_contact: string | null;
  privacy_policy_url: string | null;
  logo: { url: string; width: number; height: number; sha256: string } | null;
}

interface Me {
  branding: Branding;
}

export function brandingSection(signal: AbortSignal): { el: HTMLElement; load(): Promise<void> } {
  const body = h("div", null, busy("Loading…"));
  const el = h("section", { "aria-labelledby": "brand-h" }, h("h2", { id: "brand-h" }, "Your name on the pages"),
    h("p", null, "People who open your links see who is asking: your name and logo at the top of every page, and your privacy policy and contact at the bottom. ",
      "Templates and verifications can change the message, never these."),
    body);
  let logoURL = "";

  async function load(): Promise<void> {
    try {
      render((await call<Me>("GET", "/me", { signal })).branding);
    } catch (e) {
      body.replaceChildren(h("div", { class: "alert", role: "alert" }, "Could not load your branding: " + describe(e)));
    }
  }

  function render(b: Branding): void {
    const name = h("input", { type: "text", name: "display_name", maxlength: "80", autocomplete: "organization", value: b.display_name || "" });
    const accent = h("input", { type: "text", name: "accent_color", placeholder: "#1947c2", spellcheck: "false", value: b.accent_color || "" });
    const contact = h("input", { type: "text", name: "support_contact", placeholder: "help@example.com or https://example.com/help", spellcheck: "false", value: b.support_contact || "" });
    const privacy = h("input", { type: "url", name: "privacy_policy_url", placeholder: "https://example.com/privacy", spellcheck: "false", value: b.privacy_policy_url || "" });
    const msg = h("div", { role: "status", "aria-live": "polite" });
    const ask = b.display_name ? null : h("div", { class: "alert", role: "alert", id: "brand-missing" },
      "Your links' pages name no one: people see a neutral \"Verify your identity\". Give the name your customers know you by.");
    const form = h("form", { "aria-labelledby": "brand-h", id: "branding-form" },
      field("Display name", name, "Shown as \"<name> asks you to verify your identity\". 1 to 80 characters."),
      field("Accent colour", accent, "\"#rrggbb\" for the buttons and links; it must reach 4.5:1 against white (WCAG AA). Empty: ours."),
      field("Support contact", contact, "An e-mail address or an https address where people can reach you. Optional."),
      field("Privacy policy", privacy, "Your privacy policy's https address. Optional."),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Save the name and links")), msg);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!name.value.trim() && b.display_name === null) {
        msg.replaceChildren(h("div", { class: "alert", role: "alert" }, "Give a display name."));
        name.focus();
        return;
      }
      msg.replaceChildren(busy("Saving…"));
      try {
        const me = await call<Me>("PATCH", "/me", { body: { branding: {
          display_name: name.value.trim() || null, accent_color: accent.value.trim(),
          support_contact: contact.value.trim(), privacy_policy_url: privacy.value.trim() } } });
        render(me.branding);
        body.append(h("p", { class: "done", role: "status" }, "Saved."));
      } catch (err) {
        const details = err instanceof ApiError ? err.details : [];
        const first = details[0] && form.querySelector<HTMLInputElement>(`[name="${details[0].field.replace("branding.", "")}"]`);
        msg.replaceChildren(h("div", { class: "alert", role: "alert" }, "Not saved: " + describe(err)));
        first?.focus();
      }
    });
    body.replaceChildren(...[ask, form, logoPart(b)].filter((n): n is HTMLElement => !!n));
  }

  function logoPart(b: Branding): HTMLElement {
    const file = h("input", { type: "file", name: "logo", accept: "image/png,image/jpeg,image/webp" });
    const msg = h("div", { role: "status", "aria-live": "polite" });
    const preview = h("div", { class: "logo-preview" });
    const remove = h("button", { type: "button", class: "sec", hidden: !b.logo }, "Remove the logo");
    if (logoURL) URL.revokeObjectURL(logoURL);
    logoURL = "";
    if (b.logo) {
      void fetchRaw("/me/logo", signal).then(async (r) => {
        logoURL = URL.createObjectURL(await r.blob());
        preview.replaceChildren(h("img", { src: logoURL, alt: "Your logo as the pages show it", height: "40" }));
      }, () => preview.replaceChildren(""));
    }
    file.addEventListener("change", async () => {
      const f = file.files?.[0];
      if (!f) return;
      msg.replaceChildren(busy("Uploading…"));
      try {
        render((await call<Me>("PUT", "/me/logo", { blob: f })).branding);
      } catch (err) {
        msg.replaceChildren(h("div", { class: "alert", role: "alert" }, "Logo refused: " + describe(err)));
      }
    });
    remove.addEventListener("click", async () => {
      try {
        render((await call<Me>("DELETE", "/me/logo")).branding);
      } catch (err) {
        msg.replaceChildren(h("div", { class: "alert", role: "alert" }, "Could not remove the logo: " + describe(err)));
      }
    });
    return h("div", { class: "logo-part" }, h("h3", null, "Logo"), preview,
      field(b.logo ? "Replace the logo" : "Upload a logo", file, "PNG, JPEG or WebP, at most 512 KB, 16 to 2048 pixels a side. We re-encode it; SVG is refused."),
      h("div", { class: "actions" }, remove), msg);
  }

  return { el, load };
}
