// Browser cryptography of the account dashboard (docs/encryption.md): results and
// review images sealed to the account's own key are opened in this page;
// keys and passphrases never leave it (no request carries them; a Chromium
// test watches every request). The format is docs/encryption.md; the page
// opens to the same bytes as `idgate decrypt` and client.Decrypt.
//
// API (everything else in crypto/ is internal):
//
//   sealedFor(doc) → SealedFor | null
//       What a result payload, a GET /verification body or a review-image
//       document was sealed for ({mode:"custom", name, fingerprint} or
//       {mode:"passphrase", name, keyId}), null when it is not sealed; the
//       page uses it to ask for the right thing.
//   await keyFromPEM(text) / await keyFromFile(file) → Key
//       The account holder's RSA private key (PEM, PKCS#8 or PKCS#1,
//       unencrypted; a file is read up to 64 KiB). Imported non-extractable.
//   keyFromPassphrase(passphrase) → Key
//       A passphrase key's passphrase; Argon2id runs on first use (about a
//       second at the default 64 MiB, t=3) and its result is remembered by
//       the Key for every later document sealed for the same key.
//   await openResult(body, key) → Opened
//       A result payload (webhook body, GET's `result`) or a whole GET
//       /verification body: {body} is a copy with license_data,
//       phone_verification.lookup and license_photo in plaintext and
//       `encryption` dropped (encryption_key stays), like idgate decrypt;
//       {licenseData, phoneLookup, licensePhoto (JPEG bytes)} for display.
//   await openReviewImage(doc, kind, key) → Blob
//       A review image document ({encryption, encryption_key, <kind>: sealed
//       envelope}; kind "license_front" or "selfie") → the image, typed by
//       its magic bytes (JPEG, PNG, WebP).
//   await newPassphraseKey(name, passphrase) → PassphraseKey
//       Creates a passphrase key here: the public part POST /passphrase-keys
//       takes (name, public_key, kdf); nothing secret is in it.
//   remember(sealed, key) / recall(sealed) → Key | undefined / forget()
//       An in-memory keyring for the page's life (never storage), so the
//       review queue asks once per key rather than once per image;
//       whenRemembered(fn) tells open panels that a key arrived.
//   unlockPanel(doc, what, onOpen) (crypto/panel.ts) is the form the pages
//       show in place of sealed data: it asks for the key file or the
//       passphrase the document names, opens it here and hands the clear
//       result or image to onOpen.
//   DecryptError {code, message, detail}, describe(e) → a sentence to show.
//       Codes: not_encrypted, wrong_key, wrong_passphrase, authentication,
//       malformed, unsupported_version, unsupported_algorithm, weak_key,
//       argon2_unavailable, bad_key_file.
import { Bytes, unb64 } from "./bytes";
import { importRSAKey } from "./custom";
import { DecryptError, describe } from "./errors";
import { Header, isObject, openMember, openPayload, readHeader } from "./envelope";
import { MaxKeyFile } from "./pem";
import { newPassphraseKey, passphraseOpener } from "./passphrase";

export { DecryptError, describe, newPassphraseKey };
export type { ErrorCode } from "./errors";
export type { PassphraseKey } from "./envelope";

export type SealedFor = { mode: "custom"; name: string; fingerprint: string } | { mode: "passphrase"; name: string; keyId: string; publicKey: string };

export interface Key {
  readonly kind: "custom" | "passphrase";
  contentKey(h: Header): Promise<CryptoKey>;
}

export interface Opened {
  body: Record<string, unknown>;
  licenseData: Record<string, unknown> | null;
  phoneLookup: Record<string, unknown> | null;
  licensePhoto: Bytes | null;
}

export type ReviewImageKind = "license_front" | "passport_page" | "id_card_front" | "selfie";

// payloadOf finds the result payload in a webhook body or a GET body.
function payloadOf(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new DecryptError("malformed", "not a JSON object");
  if ("encryption" in body) return body;
  if (isObject(body.result)) return body.result;
  throw new DecryptError("not_encrypted");
}

export function sealedFor(doc: unknown): SealedFor | null {
  let h: Header;
  try {
    h = readHeader(payloadOf(doc));
  } catch (e) {
    if (e instanceof DecryptError && e.code === "not_encrypted") return null;
    throw e;
  }
  if (h.custom) return { mode: "custom", name: h.custom.name, fingerprint: h.custom.fingerprint_sha256 };
  const p = h.passphrase!;
  return { mode: "passphrase", name: p.name, keyId: p.id || "", publicKey: p.public_key };
}

export async function keyFromPEM(text: string): Promise<Key> {
  const k = await importRSAKey(text);
  return { kind: "custom", contentKey: (h) => k.contentKey(h) };
}

export async function keyFromFile(file: Blob): Promise<Key> {
  if (file.size > MaxKeyFile) throw new DecryptError("bad_key_file", "file over 64 KiB");
  return keyFromPEM(await file.text());
}

export function keyFromPassphrase(passphrase: string): Key {
  const o = passphraseOpener(passphrase);
  return { kind: "passphrase", contentKey: (h) => o.contentKey(h) };
}

export async function openResult(body: unknown, key: Key): Promise<Opened> {
  const payload = payloadOf(body);
  const ck = await key.contentKey(readHeader(payload));
  const opened = await openPayload(payload, ck);
  const out = isObject(body) && !("encryption" in body) ? { ...body, result: opened } : opened;
  const photo = opened.license_photo;
  let licensePhoto: Bytes | null = null;
  if (typeof photo === "string" && photo !== "") {
    licensePhoto = unb64(photo);
    if (!licensePhoto) throw new DecryptError("malformed", "license_photo is not base64");
  }
  const phone = opened.phone_verification;
  return {
    body: out,
    licenseData: isObject(opened.license_data) ? opened.license_data : null,
    phoneLookup: isObject(phone) && isObject(phone.lookup) ? phone.lookup : null,
    licensePhoto,
  };
}

// imageType sniffs the formats the flow accepts.
export function imageType(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
  if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return "image/webp";
  return "application/octet-stream";
}

export async function openReviewImage(doc: unknown, kind: ReviewImageKind, key: Key): Promise<Blob> {
  if (!isObject(doc)) throw new DecryptError("malformed", "not a JSON object");
  if (!(kind in doc)) throw new DecryptError("malformed", "no " + kind + " member");
  const ck = await key.contentKey(readHeader(doc));
  const img = await openMember(ck, kind, doc[kind]);
  return new Blob([img], { type: imageType(img) });
}

// The keyring: Keys by what they open, in memory only.
const ring = new Map<string, Key>();

function ringKey(s: SealedFor): string {
  return s.mode === "custom" ? "custom:" + s.fingerprint : "passphrase:" + s.publicKey;
}

const listeners = new Set<(s: SealedFor) => void>();

export function remember(s: SealedFor, key: Key): void {
  ring.set(ringKey(s), key);
  for (const fn of listeners) fn(s);
}

// whenRemembered calls fn each time a key is remembered; the returned
// function stops it.
export function whenRemembered(fn: (s: SealedFor) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function sameKey(a: SealedFor, b: SealedFor): boolean {
  return ringKey(a) === ringKey(b);
}

export function recall(s: SealedFor): Key | undefined {
  return ring.get(ringKey(s));
}

// forget drops every remembered key (sign-out).
export function forget(): void {
  ring.clear();
}
