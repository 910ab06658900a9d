// Independent implementation of the idgate E2EE format (docs/encryption.md)
// using only node:crypto's WebCrypto, so Go's tests can prove both
// directions interoperate. Reads one JSON job on stdin, writes JSON on stdout.
// Node has no Argon2id: jobs that need the passphrase key get the Argon2id
// seed (hex) and derive the P-256 key from it here.
const { subtle } = globalThis.crypto;
const enc = new TextEncoder();
const MEMBERS = ['license_data', 'phone_verification.lookup', 'license_photo'];
const b64 = (u8) => Buffer.from(u8).toString('base64');
const unb64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));
const cat = (...parts) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));
// PKCS#8 wrapping of a bare P-256 scalar (ECPrivateKey without publicKey).
const P256_PKCS8_PREFIX = Buffer.from('308141020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420', 'hex');
const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

function pemBody(pem) {
  return unb64(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''));
}

async function hkdf(ikm, salt, info, bytes) {
  const k = await subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, k, bytes * 8));
}

// The passphrase-key rule after Argon2id: first HKDF candidate in [1, n-1].
async function scalarFromSeed(seed) {
  for (let i = 0; i < 256; i++) {
    const c = await hkdf(seed, enc.encode('idgate/e2ee/v1/passphrase-key'), cat(enc.encode('P-256 private scalar '), [i]), 32);
    const d = BigInt('0x' + Buffer.from(c).toString('hex'));
    if (d >= 1n && d < N) return c;
  }
  throw new Error('no scalar');
}

async function importScalar(d) {
  const k = await subtle.importKey('pkcs8', cat(P256_PKCS8_PREFIX, d), { name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
  const jwk = await subtle.exportKey('jwk', k);
  const pub = cat([4], Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url'));
  return { key: k, pub };
}

async function contentKeyECDH(priv, peerRaw, ephRaw, recipientRaw) {
  const peer = await subtle.importKey('raw', peerRaw, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const z = new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: peer }, priv, 256));
  return hkdf(z, enc.encode('idgate/e2ee/v1/content-key'), cat(ephRaw, recipientRaw), 32);
}

function aesKey(raw, usage) {
  return subtle.importKey('raw', raw, 'AES-GCM', false, [usage]);
}

// get/set a member by its dotted path in the payload.
function slot(payload, member) {
  const path = member.split('.');
  let parent = payload;
  for (const p of path.slice(0, -1)) parent = parent?.[p];
  const last = path[path.length - 1];
  return parent && last in parent ? { parent, last } : null;
}

async function openMembers(payload, ck) {
  const key = await aesKey(ck, 'decrypt');
  const out = {};
  for (const m of MEMBERS) {
    const s = slot(payload, m);
    if (!s) continue;
    const env = s.parent[s.last];
    if (env.version !== 1 || env.alg !== 'A256GCM') throw new Error('bad envelope ' + m);
    const pt = await subtle.decrypt({ name: 'AES-GCM', iv: unb64(env.iv), additionalData: enc.encode(m) }, key, unb64(env.ciphertext));
    out[m] = JSON.parse(Buffer.from(pt).toString('utf8'));
  }
  return out;
}

async function sealMembers(payload, ck) {
  const key = await aesKey(ck, 'encrypt');
  for (const m of MEMBERS) {
    const s = slot(payload, m);
    if (!s) continue;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: enc.encode(m) }, key, enc.encode(JSON.stringify(s.parent[s.last])));
    s.parent[s.last] = { version: 1, alg: 'A256GCM', iv: b64(iv), ciphertext: b64(new Uint8Array(ct)) };
  }
  return payload;
}

const jobs = {
  async 'open-custom'({ private_key_pem, payload }) {
    const e = payload.encryption;
    if (e.version !== 1 || e.mode !== 'custom' || e.key_alg !== 'RSA-OAEP-256') throw new Error('bad header');
    const priv = await subtle.importKey('pkcs8', pemBody(private_key_pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt']);
    const ck = new Uint8Array(await subtle.decrypt({ name: 'RSA-OAEP' }, priv, unb64(e.wrapped_key)));
    return { members: await openMembers(payload, ck) };
  },
  async 'open-passphrase'({ seed_hex, payload }) {
    const e = payload.encryption;
    const k = payload.encryption_key;
    if (e.version !== 1 || e.mode !== 'passphrase' || e.key_alg !== 'ECDH-P256-HKDF-SHA256') throw new Error('bad header');
    const { key, pub } = await importScalar(await scalarFromSeed(Buffer.from(seed_hex, 'hex')));
    if (b64(pub) !== k.public_key) throw new Error('wrong passphrase');
    const eph = unb64(k.ephemeral_public_key);
    const ck = await contentKeyECDH(key, eph, eph, pub);
    return { public_key: b64(pub), members: await openMembers(payload, ck) };
  },
  async 'seal-custom'({ public_key_pem, name, payload }) {
    const spki = pemBody(public_key_pem);
    const pub = await subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const ck = crypto.getRandomValues(new Uint8Array(32));
    const wrapped = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, pub, ck));
    const fp = Buffer.from(await subtle.digest('SHA-256', spki)).toString('hex');
    await sealMembers(payload, ck);
    payload.encryption = { version: 1, mode: 'custom', key_alg: 'RSA-OAEP-256', content_alg: 'A256GCM', wrapped_key: b64(wrapped) };
    payload.encryption_key = { name, fingerprint_sha256: fp };
    return { payload };
  },
  async 'seal-passphrase'({ key, payload }) {
    const recipient = unb64(key.public_key);
    const eph = await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const ephRaw = new Uint8Array(await subtle.exportKey('raw', eph.publicKey));
    const ck = await contentKeyECDH(eph.privateKey, recipient, ephRaw, recipient);
    await sealMembers(payload, ck);
    payload.encryption = { version: 1, mode: 'passphrase', key_alg: 'ECDH-P256-HKDF-SHA256', content_alg: 'A256GCM' };
    payload.encryption_key = { ...key, ephemeral_public_key: b64(ephRaw) };
    return { payload };
  },
};

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
process.stdout.write(JSON.stringify(await jobs[job.op](job)));
