import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';

/** Random URL-safe token of `bytes` bytes of entropy (256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** One-shot digest (`crypto.hash`): every `/v1/*` request hashes its key, and no Hash object is made for it. */
export function sha256Hex(input: string | Uint8Array): string {
  return hash('sha256', input, 'hex');
}

export function hmacSha256Hex(key: string | Uint8Array, input: string | Uint8Array): string {
  return createHmac('sha256', key).update(input).digest('hex');
}

/** Constant-time string comparison that also hides length differences (both sides hashed first). */
export function timingSafeEqualString(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/**
 * AES-256-GCM envelope with a key id, so keys can rotate: `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts).
 * Decryption picks the key by id; encryption always uses the current key.
 */
export class Keyring {
  private readonly keys: ReadonlyMap<string, Buffer>;
  constructor(
    readonly currentKeyId: string,
    keys: Record<string, string>,
  ) {
    const entries = Object.entries(keys).map(([id, hex]): [string, Buffer] => {
      const key = Buffer.from(hex, 'hex');
      if (key.length !== 32) throw new Error(`key ${id} must be 32 bytes of hex`);
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Error(`key id ${id} must be 1-32 URL-safe characters`);
      return [id, key];
    });
    this.keys = new Map(entries);
    if (!this.keys.has(currentKeyId)) throw new Error(`current key ${currentKeyId} is not in the keyring`);
  }

  /** A keyring with one key whose id is derived from the key itself (stable across restarts). */
  static fromHexKey(hex: string): Keyring {
    const id = sha256Hex(Buffer.from(hex, 'hex')).slice(0, 8);
    return new Keyring(id, { [id]: hex });
  }

  encrypt(plaintext: string | Uint8Array, associatedData?: string): string {
    const key = this.keys.get(this.currentKeyId) as Buffer;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return [
      'v1',
      this.currentKeyId,
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  decrypt(envelope: string, associatedData?: string): Buffer {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') throw new DecryptError('not a v1 envelope');
    const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new DecryptError(`unknown key id ${keyId}`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    } catch {
      throw new DecryptError('authentication failed');
    }
  }

  decryptString(envelope: string, associatedData?: string): string {
    return this.decrypt(envelope, associatedData).toString('utf8');
  }
}

export class DecryptError extends Error {
  constructor(reason: string) {
    super(`cannot decrypt: ${reason}`);
    this.name = 'DecryptError';
  }
}

/** Ed25519 keys as raw 32-byte values in base64url, the form configuration carries. */
export interface Ed25519KeyPair {
  publicKey: string;
  privateKey: string;
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ format: 'jwk' }).x as string,
    privateKey: privateKey.export({ format: 'jwk' }).d as string,
  };
}

// DER prefixes that wrap a raw 32-byte Ed25519 seed (PKCS#8) or public key (SPKI), RFC 8410.
const pkcs8Ed25519Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
const spkiEd25519Prefix = Buffer.from('302a300506032b6570032100', 'hex');

export function ed25519PrivateKey(rawBase64url: string): KeyObject {
  const seed = Buffer.from(rawBase64url, 'base64url');
  if (seed.length !== 32) throw new Error('Ed25519 private key must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([pkcs8Ed25519Prefix, seed]), format: 'der', type: 'pkcs8' });
}

export function ed25519PublicKey(rawBase64url: string): KeyObject {
  const raw = Buffer.from(rawBase64url, 'base64url');
  if (raw.length !== 32) throw new Error('Ed25519 public key must be 32 bytes');
  return createPublicKey({ key: Buffer.concat([spkiEd25519Prefix, raw]), format: 'der', type: 'spki' });
}

/** The raw public key (base64url) belonging to a raw private key. */
export function ed25519PublicKeyOf(rawPrivateBase64url: string): string {
  return createPublicKey(ed25519PrivateKey(rawPrivateBase64url)).export({ format: 'jwk' }).x as string;
}

/** Unpadded base64url Ed25519 signature (86 characters). */
export function ed25519Sign(privateKey: KeyObject, message: string | Uint8Array): string {
  return sign(null, typeof message === 'string' ? Buffer.from(message) : message, privateKey).toString('base64url');
}

export function ed25519Verify(publicKey: KeyObject, message: string | Uint8Array, signatureBase64url: string): boolean {
  const signature = Buffer.from(signatureBase64url, 'base64url');
  if (signature.length !== 64) return false;
  return verify(null, typeof message === 'string' ? Buffer.from(message) : message, publicKey, signature);
}
