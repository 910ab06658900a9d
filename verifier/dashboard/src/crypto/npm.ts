// What passphrase keys need beyond WebCrypto: Argon2id (hash-wasm's
// WebAssembly build) and the P-256 public point of a scalar (@noble/curves;
// Chromium will not import a P-256 private key without its public point).
// Both are npm packages (pinned in package-lock.json) bundled at build time
// into one script of their own (verifier/dashboard/npmbundle), loaded on
// first use only, so pages that never touch a passphrase never pay for its
// ~70 KB. The server passes the script's content-hashed path to this bundle
// as the build-time constant IDGATE_PASSPHRASE_URL; an idgate built without
// `make npm` has none, and the page then says so. WebAssembly needs
// 'wasm-unsafe-eval' in the page's script-src (no other eval is allowed).
import { Bytes } from "./bytes";
import { DecryptError } from "./errors";

declare const IDGATE_PASSPHRASE_URL: string;

interface Argon2Options {
  password: Uint8Array;
  salt: Uint8Array;
  iterations: number;
  parallelism: number;
  memorySize: number; // KiB
  hashLength: number;
  outputType: "binary";
}

interface PassphraseModule {
  argon2id(o: Argon2Options): Promise<Uint8Array>;
  p256PublicKey(d: Uint8Array): Uint8Array;
}

declare global {
  interface Window {
    idgatePassphrase?: PassphraseModule;
  }
}

let loading: Promise<PassphraseModule> | null = null;

export function moduleURL(): string {
  return typeof IDGATE_PASSPHRASE_URL === "string" ? IDGATE_PASSPHRASE_URL : "";
}

function load(): Promise<PassphraseModule> {
  if (window.idgatePassphrase) return Promise.resolve(window.idgatePassphrase);
  const url = moduleURL();
  if (!url) return Promise.reject(new DecryptError("argon2_unavailable", "IDGATE_PASSPHRASE_URL is empty"));
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = url;
    s.onload = () => (window.idgatePassphrase ? resolve(window.idgatePassphrase) : reject(new DecryptError("argon2_unavailable", "script defined no module")));
    s.onerror = () =>
      reject(new DecryptError("argon2_unavailable", "script did not load", "The Argon2 module did not load. Check the connection and try again."));
    document.head.append(s);
  });
}

function passphraseModule(): Promise<PassphraseModule> {
  if (!loading) {
    loading = load();
    loading.catch(() => (loading = null)); // a failed load may be retried
  }
  return loading;
}

// argon2id is RFC 9106 Argon2id version 0x13 with a 32-byte output, no
// secret and no associated data (docs/encryption.md, step 1).
export async function argon2id(password: Bytes, salt: Bytes, memoryKiB: number, iterations: number, parallelism: number): Promise<Bytes> {
  const m = await passphraseModule();
  try {
    const out = await m.argon2id({ password, salt, iterations, parallelism, memorySize: memoryKiB, hashLength: 32, outputType: "binary" });
    return new Uint8Array(out);
  } catch (e) {
    // Typically the browser refused the memory (up to 1 GiB is allowed).
    throw new DecryptError("weak_key", String(e), `Argon2id with ${memoryKiB} KiB failed in this browser: ${e instanceof Error ? e.message : String(e)}`);
  }
}

// p256PublicKey is d·G as an uncompressed point (65 bytes).
export async function p256PublicKey(d: Bytes): Promise<Bytes> {
  const m = await passphraseModule();
  return new Uint8Array(m.p256PublicKey(d));
}
