// Reading the account holder's RSA private key file as `idgate decrypt
// --key` does (verifier/e2ee ParseRSAPrivateKey): the first PEM block,
// PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY", unencrypted. WebCrypto
// imports only PKCS#8, so a PKCS#1 key is wrapped in a PKCS#8 envelope
// (RFC 5208: version 0, rsaEncryption with NULL parameters, the PKCS#1
// bytes as the OCTET STRING).
import { Bytes, concat, unb64 } from "./bytes";
import { DecryptError } from "./errors";

// MaxKeyFile bounds what is read from a chosen file, as idgate decrypt does.
export const MaxKeyFile = 64 << 10;

const RSA_ENCRYPTION_ALG = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];

// derLength is a DER definite length.
function derLength(n: number): number[] {
  if (n < 0x80) return [n];
  const b: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) b.unshift(x & 0xff);
  return [0x80 | b.length, ...b];
}

function tlv(tag: number, body: Uint8Array): Bytes {
  return concat([tag], derLength(body.length), body);
}

export function pkcs1ToPkcs8(pkcs1: Uint8Array): Bytes {
  return tlv(0x30, concat([0x02, 0x01, 0x00], RSA_ENCRYPTION_ALG, tlv(0x04, pkcs1)));
}

// privateKeyPKCS8 returns the PKCS#8 DER of the file's first PEM block.
export function privateKeyPKCS8(text: string): Bytes {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) throw new DecryptError("bad_key_file", "no PEM block");
  const [, type, body] = m;
  if (type === "ENCRYPTED PRIVATE KEY" || /Proc-Type:\s*4,ENCRYPTED/.test(body)) {
    throw new DecryptError(
      "bad_key_file",
      "encrypted PEM",
      "This private key is protected by a password. Decrypt it first on your computer (openssl pkey -in key.pem -out plain.pem) and choose that file.",
    );
  }
  if (type.endsWith("PUBLIC KEY")) {
    throw new DecryptError("bad_key_file", type, "This is a public key. Choose the private key that belongs to it.");
  }
  if (type !== "PRIVATE KEY" && type !== "RSA PRIVATE KEY") {
    throw new DecryptError("bad_key_file", "PEM type " + type);
  }
  const der = unb64(body.replace(/\s+/g, ""));
  if (!der) throw new DecryptError("bad_key_file", "PEM body is not base64");
  return type === "RSA PRIVATE KEY" ? pkcs1ToPkcs8(der) : der;
}
