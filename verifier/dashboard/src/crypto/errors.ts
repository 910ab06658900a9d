// Errors of the browser decryptor, one code per failure of
// docs/encryption.md ("Any failed check is an error, never partial output"),
// the same classes as the Go client's errors, each with a sentence for the
// page that says what to do.

export type ErrorCode =
  | "not_encrypted"
  | "wrong_key"
  | "wrong_passphrase"
  | "authentication"
  | "malformed"
  | "unsupported_version"
  | "unsupported_algorithm"
  | "weak_key"
  | "argon2_unavailable"
  | "bad_key_file";

const messages: Record<ErrorCode, string> = {
  not_encrypted: "This result is not encrypted: there is nothing to decrypt.",
  wrong_key: "This private key is not the one the result was sealed for. Choose the key named above.",
  wrong_passphrase: "Wrong passphrase: it does not derive the key this result was sealed for. Check the passphrase and try again.",
  authentication: "The encrypted data was altered after it was sealed: it cannot be opened.",
  malformed: "The encrypted data does not have the documented format.",
  unsupported_version: "This result uses an encryption version this page does not know. Use the latest idgate decrypt.",
  unsupported_algorithm: "This result was sealed in another mode or with an unknown algorithm.",
  weak_key: "The key or its parameters are outside the accepted range.",
  argon2_unavailable:
    "Passphrase keys need the Argon2 module, which this idgate build lacks (it was built without `make npm`). Use `idgate decrypt` or `idgate keys passphrase create` on your computer instead.",
  bad_key_file: "This file is not an unencrypted PEM RSA private key (PKCS#8 \"PRIVATE KEY\" or PKCS#1 \"RSA PRIVATE KEY\").",
};

export class DecryptError extends Error {
  readonly code: ErrorCode;
  // detail says which check failed, for developers (the page shows message).
  readonly detail: string;
  constructor(code: ErrorCode, detail = "", message = messages[code]) {
    super(message);
    this.name = "DecryptError";
    this.code = code;
    this.detail = detail;
  }
}

// describe turns anything thrown by this module into a sentence for the page.
export function describe(e: unknown): string {
  if (e instanceof DecryptError) return e.message;
  // WebCrypto's DOMExceptions often carry only a name.
  const what = e instanceof Error ? e.message || e.name : String(e);
  return "Decryption failed in this browser: " + what;
}
