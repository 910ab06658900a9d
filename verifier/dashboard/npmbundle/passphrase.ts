// What a passphrase key needs beyond WebCrypto (docs/encryption.md, "In a
// browser"): Argon2id, and the P-256 public point d·G of the derived scalar
// (Chromium refuses to import a PKCS#8 P-256 key without its public point,
// so the page computes it and imports the key as a JWK).
import { p256 } from "@noble/curves/nist.js";

export { argon2id } from "hash-wasm";

// p256PublicKey is the uncompressed point (0x04 || X || Y) of the scalar d
// (32 bytes, big-endian, 1 <= d <= n-1).
export function p256PublicKey(d: Uint8Array): Uint8Array {
  return p256.getPublicKey(d, false);
}
