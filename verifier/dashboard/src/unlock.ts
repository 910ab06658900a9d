// The seam between the pages and the browser decryption (src/crypto/, by
// the crypto work): a panel that opens a document sealed to the account's
// own key (a custom RSA key or a passphrase key) in the page, so the key
// never leaves it. Requests uses it for sealed results, the review queue
// for review images sealed to the account's key.
//
// Until the decryption lands, the panel says what is sealed and that it
// opens with the account's key; the crypto work replaces unlockPanel's
// body (same signature) and nothing else changes.
import { h } from "./dom";

export type Opened =
  | { kind: "result"; payload: Record<string, unknown> } // the result with its sealed members opened
  | { kind: "image"; blob: Blob }; // an image (JPEG) kept for review

// unlockPanel shows what is sealed in doc (a sealed result, or a sealed
// review image document) and, once opened with the holder's key, calls
// onOpen with the clear content. what names it for people ("license data",
// "the selfie").
export function unlockPanel(doc: Record<string, unknown>, what: string, onOpen: (o: Opened) => void): HTMLElement {
  void onOpen;
  const enc = (doc.encryption || {}) as Record<string, unknown>;
  const mode = typeof enc.mode === "string" ? enc.mode : "";
  return h("div", { class: "sealed" },
    h("p", null, h("strong", null, "Unlock with your key. "),
      `${what[0].toUpperCase() + what.slice(1)} is encrypted to your ${mode === "passphrase" ? "passphrase key" : mode === "custom" ? "own RSA key" : "key"}; idgate cannot read it.`),
    h("p", { class: "note" }, "Opening it in this page needs browser decryption, which this version of the dashboard does not have yet. Until then, use `idgate decrypt` on your computer."));
}
