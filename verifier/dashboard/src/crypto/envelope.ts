// The scheme objects of docs/encryption.md, version 1: the `encryption`
// and `encryption_key` header of a sealed document, and the sealed member
// envelope. Unknown members are refused, as the document requires ("a field
// this version does not know may change the meaning of the rest").
import { Bytes, fromUTF8, unb64, utf8 } from "./bytes";
import { DecryptError } from "./errors";

export const VERSION = 1;
export const ALG_CONTENT = "A256GCM";
export const ALG_WRAP_RSA = "RSA-OAEP-256";
export const ALG_AGREE_ECDH = "ECDH-P256-HKDF-SHA256";
export const ALG_PASSPHRASE = "argon2id-hkdf-p256-v1";

// MEMBERS are the protected members of a result, by their path; the path
// is the AES-GCM associated data.
export const MEMBERS = ["license_data", "phone_verification.lookup", "license_photo"] as const;

export type Mode = "custom" | "passphrase";

export interface Encryption {
  version: number;
  mode: Mode;
  key_alg: string;
  content_alg: string;
  wrapped_key?: string;
}

export interface CustomKeyInfo {
  name: string;
  fingerprint_ssh: string;
  fingerprint_sha256: string;
}

export interface KDFParams {
  alg: string;
  salt: string;
  memory_kib: number;
  iterations: number;
  parallelism: number;
}

// PassphraseKey is a passphrase key's public part, as POST /passphrase-keys
// takes it (without id) and as results repeat it.
export interface PassphraseKey {
  id?: string;
  name: string;
  public_key: string;
  kdf: KDFParams;
}

export interface PassphraseKeyInfo extends PassphraseKey {
  ephemeral_public_key: string;
}

export interface Header {
  encryption: Encryption;
  custom?: CustomKeyInfo;
  passphrase?: PassphraseKeyInfo;
}

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// B64 is strict standard base64 (what Go's []byte members take).
const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const zero: Record<string, () => unknown> = { string: () => "", base64: () => "", integer: () => 0, object: () => ({}) };

function typed(type: string, v: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(v);
    case "object":
      return isObject(v);
    case "base64":
      return typeof v === "string" && B64.test(v);
  }
  return typeof v === type;
}

// shape decodes a scheme object as the Go reader does (strict decoding
// into a struct): an unknown member or a member of the wrong type is
// malformed, and an absent or null member takes its zero value ("", 0, an
// empty object), so the checks after it decide as idgate decrypt does
// (a missing fingerprint is a wrong key, not a format error). null
// itself reads as an empty object. Types: string, base64 (bytes), integer,
// object.
function shape(where: string, v: unknown, members: Record<string, string>): Obj {
  if (v === null) v = {};
  if (!isObject(v)) throw new DecryptError("malformed", where + " is not an object");
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    const type = members[k];
    if (!type) throw new DecryptError("malformed", `${where}: unknown member ${k}`);
    if (x !== null && !typed(type, x)) throw new DecryptError("malformed", `${where}: ${k} is not ${type}`);
    out[k] = x;
  }
  for (const [k, type] of Object.entries(members)) if (out[k] === undefined || out[k] === null) out[k] = zero[type]();
  return out;
}

// version reads a scheme object's version the way the Go reader does:
// absent or null is 0, anything but an integer is malformed.
function version(where: string, v: Obj): number {
  const x = v.version;
  if (x === undefined || x === null) return 0;
  if (!Number.isInteger(x)) throw new DecryptError("malformed", where + ": version is not an integer");
  return x as number;
}

// readHeader decodes and checks a sealed document's header: the version
// first (it decides the shape), then the mode's key description.
export function readHeader(doc: unknown): Header {
  if (!isObject(doc)) throw new DecryptError("malformed", "not a JSON object");
  if (!("encryption" in doc)) throw new DecryptError("not_encrypted");
  const enc = doc.encryption === null ? {} : doc.encryption;
  if (!isObject(enc)) throw new DecryptError("malformed", "encryption is not an object");
  const v = version("encryption", enc);
  if (v !== VERSION) throw new DecryptError("unsupported_version", "encryption version " + v);
  const e = shape("encryption", enc, {
    version: "integer",
    mode: "string",
    key_alg: "string",
    content_alg: "string",
    wrapped_key: "base64",
  }) as unknown as Encryption;
  if (!("encryption_key" in doc)) throw new DecryptError("malformed", "encryption_key missing");
  const key = doc.encryption_key;
  switch (e.mode) {
    case "custom":
      return { encryption: e, custom: shape("encryption_key", key, { name: "string", fingerprint_ssh: "string", fingerprint_sha256: "string" }) as unknown as CustomKeyInfo };
    case "passphrase": {
      const info = shape("encryption_key", key, { id: "string", name: "string", public_key: "base64", kdf: "object", ephemeral_public_key: "base64" });
      info.kdf = shape("encryption_key.kdf", info.kdf, { alg: "string", salt: "base64", memory_kib: "integer", iterations: "integer", parallelism: "integer" });
      return { encryption: e, passphrase: info as unknown as PassphraseKeyInfo };
    }
  }
  throw new DecryptError("unsupported_algorithm", "mode " + String(e.mode));
}

// checkEncryption is the header check of one mode.
export function checkEncryption(e: Encryption, mode: Mode, keyAlg: string): void {
  if (e.mode !== mode || e.key_alg !== keyAlg || e.content_alg !== ALG_CONTENT) {
    throw new DecryptError("unsupported_algorithm", `mode ${e.mode} key_alg ${e.key_alg} content_alg ${e.content_alg}`);
  }
}

interface Sealed {
  iv: Bytes;
  ciphertext: Bytes;
}

// parseSealed checks one envelope as the Go reader does: a wrong type is
// malformed; an unknown member is malformed in a version 1 envelope and a
// version problem in another; then the version, the algorithm and the
// lengths.
function parseSealed(member: string, v: unknown): Sealed {
  if (v === null) v = {};
  if (!isObject(v)) throw new DecryptError("malformed", member + " is not a sealed envelope");
  const members: Record<string, string> = { version: "integer", alg: "string", iv: "base64", ciphertext: "base64" };
  let unknown = false;
  for (const [k, x] of Object.entries(v)) {
    if (!members[k]) unknown = true;
    else if (x !== null && !typed(members[k], x)) throw new DecryptError("malformed", `${member}: ${k} is not ${members[k]}`);
  }
  const ver = version(member, v);
  const alg = typeof v.alg === "string" ? v.alg : "";
  if (unknown && ver === VERSION) throw new DecryptError("malformed", member + ": unknown member");
  if (ver === 0 && alg === "") throw new DecryptError("malformed", member + " is not a sealed envelope");
  if (ver !== VERSION) throw new DecryptError("unsupported_version", `${member}: version ${ver}`);
  if (alg !== ALG_CONTENT) throw new DecryptError("unsupported_algorithm", `${member}: alg ${alg}`);
  const iv = unb64(v.iv ?? "");
  const ciphertext = unb64(v.ciphertext ?? "");
  if (!iv || !ciphertext || iv.length !== 12 || ciphertext.length < 16) {
    throw new DecryptError("malformed", member + ": iv or ciphertext has the wrong length");
  }
  return { iv, ciphertext };
}

// openMember authenticates and decrypts one member's bytes under the
// content key, with the member path as associated data.
export async function openMember(ck: CryptoKey, member: string, envelope: unknown): Promise<Bytes> {
  const s = parseSealed(member, envelope);
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv: s.iv, additionalData: utf8(member), tagLength: 128 }, ck, s.ciphertext),
    );
  } catch {
    throw new DecryptError("authentication", "AES-GCM refused " + member);
  }
}

// openPayload returns a copy of a result payload with every protected
// member present replaced by its plaintext JSON value and `encryption`
// dropped; `encryption_key` stays (what client.Decrypt and idgate decrypt
// do). Every member opens or nothing is returned.
export async function openPayload(payload: Obj, ck: CryptoKey): Promise<Obj> {
  const out = structuredClone(payload);
  for (const member of MEMBERS) {
    const path = member.split(".");
    let parent: unknown = out;
    for (const p of path.slice(0, -1)) parent = isObject(parent) ? parent[p] : undefined;
    const last = path[path.length - 1];
    if (parent === undefined) continue;
    if (!isObject(parent)) throw new DecryptError("malformed", path[0] + " is not an object");
    if (!(last in parent)) continue;
    const text = await openMember(ck, member, parent[last]);
    try {
      parent[last] = JSON.parse(fromUTF8(text));
    } catch {
      throw new DecryptError("malformed", member + ": plaintext is not JSON");
    }
  }
  delete out.encryption;
  return out;
}
