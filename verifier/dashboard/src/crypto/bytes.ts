// Byte helpers of the encryption format (docs/encryption.md, Conventions):
// standard base64 with padding, never URL-safe; hex; UTF-8.

export type Bytes = Uint8Array<ArrayBuffer>;

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

export function utf8(s: string): Bytes {
  return enc.encode(s) as Bytes;
}

// fromUTF8 refuses invalid UTF-8 (a plaintext must be JSON text).
export function fromUTF8(b: Uint8Array): string {
  return dec.decode(b);
}

export function concat(...parts: ArrayLike<number>[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// unb64 decodes strict standard base64 (padding required); null when the
// text is anything else, so callers report which member is malformed.
export function unb64(s: unknown): Bytes | null {
  if (typeof s !== "string" || !B64.test(s)) return null;
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function b64(b: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export function fromB64url(s: string): Bytes {
  const t = s.replace(/-/g, "+").replace(/_/g, "/");
  const out = unb64(t + "===".slice((t.length + 3) % 4));
  if (!out) throw new Error("bad base64url");
  return out;
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}
