// passphrase mode: a P-256 key derived from a passphrase (Argon2id, then
// HKDF-SHA256 candidates), and the content key agreed by ECDH with the
// sealer's ephemeral key (docs/encryption.md, "Passphrase keys" and
// "passphrase mode: the content key"). Argon2id is slow on purpose, so a
// derived key is remembered per key description for the page's life.
import { b64, Bytes, concat, equal, unb64, utf8 } from "./bytes";
import { DecryptError } from "./errors";
import { ALG_AGREE_ECDH, ALG_PASSPHRASE, checkEncryption, Header, KDFParams, PassphraseKey } from "./envelope";
import { argon2id, p256PublicKey } from "./npm";

// Limits of docs/encryption.md: readers refuse parameters outside them
// before running Argon2id; new keys also meet the floors.
export const SALT_SIZE = 16;
export const MAX_MEMORY_KIB = 1024 * 1024;
export const MAX_ITERATIONS = 16;
export const MAX_PARALLELISM = 16;
export const DEFAULT_MEMORY_KIB = 64 * 1024;
export const DEFAULT_ITERATIONS = 3;
export const DEFAULT_PARALLELISM = 1;
export const MIN_PASSPHRASE_CHARS = 12;
export const MAX_NAME_CHARS = 100;

const SCALAR_SALT = utf8("idgate/e2ee/v1/passphrase-key");
const SCALAR_INFO = utf8("P-256 private scalar ");
const CONTENT_SALT = utf8("idgate/e2ee/v1/content-key");
const N = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
const ECDH_P256 = { name: "ECDH", namedCurve: "P-256" } as const;

function b64url(b: Uint8Array): string {
  return b64(b).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function hkdf(ikm: Bytes, salt: Bytes, info: Bytes, bytes: number): Promise<Bytes> {
  const k = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, k, bytes * 8));
}

function checkKDF(p: KDFParams): Bytes {
  if (p.alg !== ALG_PASSPHRASE) throw new DecryptError("unsupported_algorithm", "kdf alg " + p.alg);
  const salt = unb64(p.salt);
  if (!salt || salt.length !== SALT_SIZE) throw new DecryptError("malformed", "kdf salt is not 16 bytes of base64");
  const { memory_kib: m, iterations: t, parallelism: par } = p;
  if (par < 1 || par > MAX_PARALLELISM || t < 1 || t > MAX_ITERATIONS || m < 8 * par || m > MAX_MEMORY_KIB) {
    throw new DecryptError("malformed", `kdf m=${m} KiB t=${t} p=${par} outside m 8p..${MAX_MEMORY_KIB}, t 1..${MAX_ITERATIONS}, p 1..${MAX_PARALLELISM}`);
  }
  return salt;
}

interface DerivedKey {
  priv: CryptoKey;
  pub: Bytes; // 65-byte uncompressed point
}

// derive runs the key rule: Argon2id seed, first HKDF candidate d with
// 1 <= d <= n-1; its public point d·G; the key imported as a JWK (not
// extractable) for ECDH.
export async function derive(passphrase: string, p: KDFParams): Promise<DerivedKey> {
  const salt = checkKDF(p);
  if (passphrase === "") throw new DecryptError("wrong_passphrase", "empty passphrase", "Type the passphrase.");
  const seed = await argon2id(utf8(passphrase), salt, p.memory_kib, p.iterations, p.parallelism);
  for (let i = 0; i < 256; i++) {
    const c = await hkdf(seed, SCALAR_SALT, concat(SCALAR_INFO, [i]), 32);
    const d = BigInt("0x" + Array.from(c, (x) => x.toString(16).padStart(2, "0")).join(""));
    if (d < 1n || d >= N) continue;
    const pub = await p256PublicKey(c);
    const jwk: JsonWebKey = { kty: "EC", crv: "P-256", d: b64url(c), x: b64url(pub.subarray(1, 33)), y: b64url(pub.subarray(33)) };
    const priv = await crypto.subtle.importKey("jwk", jwk, ECDH_P256, false, ["deriveBits"]);
    return { priv, pub };
  }
  throw new DecryptError("malformed", "no scalar candidate in range");
}

export interface PassphraseOpener {
  contentKey(h: Header): Promise<CryptoKey>;
}

export function passphraseOpener(passphrase: string): PassphraseOpener {
  const derived = new Map<string, Promise<DerivedKey>>();
  return {
    async contentKey(h: Header): Promise<CryptoKey> {
      const info = h.passphrase;
      if (!info) {
        throw new DecryptError(
          "unsupported_algorithm",
          "payload is " + h.encryption.mode,
          "This data was sealed for your own RSA key: choose its private key file instead of typing a passphrase.",
        );
      }
      checkEncryption(h.encryption, "passphrase", ALG_AGREE_ECDH);
      const k = info.kdf;
      const cacheKey = [info.public_key, k.alg, k.salt, k.memory_kib, k.iterations, k.parallelism].join("|");
      let pending = derived.get(cacheKey);
      if (!pending) {
        pending = derive(passphrase, k);
        derived.set(cacheKey, pending);
        pending.catch(() => derived.delete(cacheKey));
      }
      const key = await pending;
      const recipient = unb64(info.public_key);
      if (!recipient || !equal(key.pub, recipient)) {
        throw new DecryptError(
          "wrong_passphrase",
          "derived another public key",
          `Wrong passphrase: it does not derive the key "${info.name}" this data was sealed for. Check the passphrase and try again.`,
        );
      }
      const ephRaw = unb64(info.ephemeral_public_key);
      let eph: CryptoKey;
      try {
        if (!ephRaw || ephRaw.length !== 65) throw new Error("length");
        eph = await crypto.subtle.importKey("raw", ephRaw, ECDH_P256, false, []);
      } catch {
        throw new DecryptError("malformed", "ephemeral_public_key is not an uncompressed P-256 point");
      }
      const z = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: eph }, key.priv, 256));
      const ck = await hkdf(z, CONTENT_SALT, concat(ephRaw, key.pub), 32);
      return crypto.subtle.importKey("raw", ck, "AES-GCM", false, ["decrypt"]);
    },
  };
}

// checkName is e2ee.ValidateName: 1 to 100 characters, no control
// characters (C0, DEL, C1).
export function checkName(name: string): string | null {
  const n = [...name].length;
  if (n < 1 || n > MAX_NAME_CHARS) return `The name needs 1 to ${MAX_NAME_CHARS} characters.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return "The name may not contain control characters.";
  return null;
}

export interface Cost {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

export const DEFAULT_COST: Cost = { memoryKiB: DEFAULT_MEMORY_KIB, iterations: DEFAULT_ITERATIONS, parallelism: DEFAULT_PARALLELISM };

// newPassphraseKey derives a new key in this page and returns the public
// part POST /passphrase-keys takes; the passphrase and the private key stay
// here. It applies the floors for new keys (passphrase length, costs).
export async function newPassphraseKey(name: string, passphrase: string, cost: Cost = DEFAULT_COST): Promise<PassphraseKey> {
  const bad = checkName(name);
  if (bad) throw new DecryptError("weak_key", "name", bad);
  const chars = [...passphrase].length;
  if (chars < MIN_PASSPHRASE_CHARS) {
    throw new DecryptError("weak_key", "passphrase", `The passphrase has ${chars} characters; it needs at least ${MIN_PASSPHRASE_CHARS}.`);
  }
  if (cost.memoryKiB < DEFAULT_MEMORY_KIB || cost.iterations < DEFAULT_ITERATIONS) {
    throw new DecryptError("weak_key", "cost", `New keys need at least ${DEFAULT_MEMORY_KIB} KiB and ${DEFAULT_ITERATIONS} iterations.`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_SIZE));
  const kdf: KDFParams = { alg: ALG_PASSPHRASE, salt: b64(salt), memory_kib: cost.memoryKiB, iterations: cost.iterations, parallelism: cost.parallelism };
  const { pub } = await derive(passphrase, kdf);
  return { name, public_key: b64(pub), kdf };
}
