// custom mode: the content key wrapped with RSA-OAEP-256 for the account
// holder's own RSA key (docs/encryption.md, "custom mode: RSA keys").
import { Bytes, fromB64url, hex, unb64 } from "./bytes";
import { DecryptError } from "./errors";
import { ALG_WRAP_RSA, checkEncryption, Header } from "./envelope";
import { privateKeyPKCS8 } from "./pem";

const MIN_RSA_BITS = 2048;
const MAX_RSA_BITS = 8192;
const OAEP = { name: "RSA-OAEP", hash: "SHA-256" } as const;

export interface RSAKey {
  // fingerprint is the lower-case hex SHA-256 of the key's DER
  // SubjectPublicKeyInfo: what results name in fingerprint_sha256.
  fingerprint: string;
  bits: number;
  contentKey(h: Header): Promise<CryptoKey>;
}

function bitLength(n: Uint8Array): number {
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  return i === n.length ? 0 : (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]));
}

// importRSAKey reads a PEM private key. The key is imported once
// extractable only to compute its public fingerprint; the key kept for
// unwrapping is not extractable.
export async function importRSAKey(pemText: string): Promise<RSAKey> {
  const pkcs8 = privateKeyPKCS8(pemText);
  let jwk: JsonWebKey;
  try {
    const k = await crypto.subtle.importKey("pkcs8", pkcs8, OAEP, true, ["decrypt"]);
    jwk = await crypto.subtle.exportKey("jwk", k);
  } catch {
    throw new DecryptError("bad_key_file", "not an RSA private key WebCrypto accepts");
  }
  if (!jwk.n || !jwk.e) throw new DecryptError("bad_key_file", "no modulus");
  const bits = bitLength(fromB64url(jwk.n));
  if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
    throw new DecryptError("weak_key", `${bits}-bit key`, `This is a ${bits}-bit RSA key; idgate seals only for keys of ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits.`);
  }
  const pub = await crypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e, ext: true }, OAEP, true, ["encrypt"]);
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", pub));
  const fingerprint = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", spki)));
  const priv = await crypto.subtle.importKey("pkcs8", pkcs8, OAEP, false, ["decrypt"]);
  const size = Math.ceil(bits / 8);
  return {
    fingerprint,
    bits,
    async contentKey(h: Header): Promise<CryptoKey> {
      if (!h.custom) {
        throw new DecryptError(
          "unsupported_algorithm",
          "payload is " + h.encryption.mode,
          "This data was sealed for a passphrase key: type its passphrase instead of choosing a key file.",
        );
      }
      checkEncryption(h.encryption, "custom", ALG_WRAP_RSA);
      if (h.custom.fingerprint_sha256 !== fingerprint) {
        throw new DecryptError(
          "wrong_key",
          `sealed for ${h.custom.fingerprint_sha256}, have ${fingerprint}`,
          `This private key is not the one the data was sealed for ("${h.custom.name}", SHA-256 ${h.custom.fingerprint_sha256.slice(0, 16)}…). Choose that key's file.`,
        );
      }
      const wrapped = unb64(h.encryption.wrapped_key);
      if (!wrapped || wrapped.length !== size) throw new DecryptError("malformed", "wrapped_key is not " + size + " bytes of base64");
      let ck: Bytes;
      try {
        ck = new Uint8Array(await crypto.subtle.decrypt(OAEP, priv, wrapped));
      } catch {
        // The fingerprint matched, so the wrapped key itself was altered.
        throw new DecryptError("authentication", "RSA-OAEP refused wrapped_key");
      }
      if (ck.length !== 32) throw new DecryptError("malformed", "content key is " + ck.length + " bytes");
      return crypto.subtle.importKey("raw", ck, "AES-GCM", false, ["decrypt"]);
    },
  };
}
