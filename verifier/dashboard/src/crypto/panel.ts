// unlockPanel: what the pages show in place of data sealed to the
// account's own key (a result's license data and photo, a review image).
// It names the key the document was sealed for, takes the private key file
// or the passphrase, opens the document in this page and hands the clear
// content to onOpen. The key is read here and never sent: no request
// leaves this panel. A key that opened something is remembered in memory
// for the page's life (crypto/index.ts keyring), so other panels sealed
// for the same key (the review queue's two images) open without asking.
import { h } from "../dom";
import {
  describe,
  keyFromFile,
  keyFromPassphrase,
  openResult,
  openReviewImage,
  recall,
  remember,
  sameKey,
  sealedFor,
  whenRemembered,
  type Key,
  type ReviewImageKind,
  type SealedFor,
} from "./index";

export type Opened =
  | { kind: "result"; payload: Record<string, unknown> } // the result with its sealed members opened
  | { kind: "image"; blob: Blob }; // an image kept for review

let seq = 0;

function imageKind(doc: Record<string, unknown>): ReviewImageKind | null {
  if ("license_front" in doc) return "license_front";
  if ("passport_page" in doc) return "passport_page";
  if ("id_card_front" in doc) return "id_card_front";
  if ("selfie" in doc) return "selfie";
  return null;
}

export function unlockPanel(doc: Record<string, unknown>, what: string, onOpen: (o: Opened) => void): HTMLElement {
  const box = h("div", { class: "sealed" });
  let sealed: SealedFor | null;
  try {
    sealed = sealedFor(doc);
  } catch (e) {
    box.append(h("p", { class: "err", role: "alert" }, describe(e)));
    return box;
  }
  if (!sealed) {
    box.append(h("p", null, "This data is not encrypted."));
    return box;
  }
  const s = sealed;
  const kind = imageKind(doc);
  const What = what[0].toUpperCase() + what.slice(1);
  const n = ++seq;
  const status = h("div", { role: "status", "aria-live": "polite" });
  const keyName = `“${s.name}”`;
  const intro = h("p", null, h("strong", null, "Encrypted to your key. "),
    s.mode === "passphrase"
      ? `${What} is sealed to your passphrase key ${keyName}; idgate cannot read it. Type its passphrase to open it here.`
      : `${What} is sealed to your RSA key ${keyName}; idgate cannot read it. Choose its private key file to open it here.`);
  const input = s.mode === "passphrase"
    ? h("input", { type: "password", id: "unlock-" + n, autocomplete: "off", spellcheck: "false", required: true })
    : h("input", { type: "file", id: "unlock-" + n, accept: ".pem,.key,.txt,application/x-pem-file,text/plain", required: true });
  const hint = h("p", { class: "hint", id: "unlock-" + n + "-hint" },
    s.mode === "passphrase"
      ? "Derived in this browser with Argon2id (about a second); the passphrase is never sent."
      : `PEM, unencrypted (PKCS#8 or PKCS#1), SHA-256 fingerprint ${s.fingerprint.slice(0, 16)}…; read in this browser, never sent.`);
  input.setAttribute("aria-describedby", hint.id);
  const submit = h("button", { type: "submit" }, s.mode === "passphrase" ? "Open with passphrase" : "Open with key file");
  const form = h("form", { class: "unlock" },
    h("div", { class: "field" }, h("label", { for: input.id }, s.mode === "passphrase" ? `Passphrase of ${keyName}` : `Private key file of ${keyName}`), hint, input),
    h("div", { class: "actions" }, submit));
  box.append(intro, form, status);

  let done = false;
  let stop = () => {};
  async function open(key: Key, fromRing: boolean): Promise<void> {
    submit.disabled = true;
    status.replaceChildren(h("p", { class: "busy" }, h("span", { class: "spin", "aria-hidden": "true" }),
      fromRing ? "Opening with the key you gave earlier…" : s.mode === "passphrase" ? "Deriving the key and opening…" : "Opening…"));
    // Let the status paint before Argon2id holds the thread.
    await new Promise((r) => setTimeout(r, 30));
    try {
      const o: Opened = kind
        ? { kind: "image", blob: await openReviewImage(doc, kind, key) }
        : { kind: "result", payload: (await openResult(doc, key)).body };
      if (done) return;
      done = true;
      stop();
      form.remove();
      intro.replaceChildren(h("strong", null, "Opened in this page. "), "Your key stays in this tab's memory until you sign out or close it; nothing was sent.");
      status.replaceChildren();
      if (!fromRing) remember(s, key);
      onOpen(o);
    } catch (e) {
      status.replaceChildren(h("p", { class: "err", role: "alert" }, describe(e)));
      submit.disabled = false;
    }
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.type === "password") {
      if (!input.value) return void status.replaceChildren(h("p", { class: "err", role: "alert" }, "Type the passphrase."));
      void open(keyFromPassphrase(input.value), false);
      input.value = "";
    } else {
      const f = input.files && input.files[0];
      if (!f) return void status.replaceChildren(h("p", { class: "err", role: "alert" }, "Choose the private key file."));
      keyFromFile(f).then((k) => open(k, false), (e) => status.replaceChildren(h("p", { class: "err", role: "alert" }, describe(e))));
      input.value = "";
    }
  });
  const known = recall(s);
  if (known) void open(known, true);
  else {
    stop = whenRemembered((other) => {
      if (!box.isConnected) return stop(); // the page moved on
      const k = recall(other);
      if (!done && k && sameKey(other, s)) void open(k, true);
    });
  }
  return box;
}
