import { describe, expect, it } from 'vitest';
import {
  DecryptError,
  Keyring,
  ed25519PrivateKey,
  ed25519PublicKey,
  ed25519PublicKeyOf,
  ed25519Sign,
  ed25519Verify,
  generateEd25519KeyPair,
  hmacSha256Hex,
  randomToken,
  sha256Hex,
  timingSafeEqualString,
} from './crypto.js';

const keyHex = 'a'.repeat(64);

describe('crypto helpers', () => {
  it('makes 256-bit base64url tokens', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
  });

  it('hashes and compares', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    expect(timingSafeEqualString('same', 'same')).toBe(true);
    expect(timingSafeEqualString('same', 'samf')).toBe(false);
    expect(timingSafeEqualString('short', 'longer value')).toBe(false);
  });

  it('round-trips an AES-256-GCM envelope and rejects tampering and wrong associated data', () => {
    const keyring = Keyring.fromHexKey(keyHex);
    const envelope = keyring.encrypt('sk-secret', 'provider:openai');
    expect(envelope).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(envelope).not.toContain('sk-secret');
    expect(keyring.decryptString(envelope, 'provider:openai')).toBe('sk-secret');
    expect(() => keyring.decrypt(envelope, 'provider:other')).toThrow(DecryptError);
    const parts = envelope.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => keyring.decrypt(parts.join('.'), 'provider:openai')).toThrow(DecryptError);
  });

  it('decrypts with an older key after rotation', () => {
    const old = new Keyring('old', { old: keyHex });
    const envelope = old.encrypt('value');
    const rotated = new Keyring('new', { old: keyHex, new: 'b'.repeat(64) });
    expect(rotated.decryptString(envelope)).toBe('value');
    expect(rotated.encrypt('x').split('.')[1]).toBe('new');
  });

  it('signs and verifies with raw Ed25519 keys', () => {
    const pair = generateEd25519KeyPair();
    expect(ed25519PublicKeyOf(pair.privateKey)).toBe(pair.publicKey);
    const signature = ed25519Sign(ed25519PrivateKey(pair.privateKey), 'payload');
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(ed25519Verify(ed25519PublicKey(pair.publicKey), 'payload', signature)).toBe(true);
    expect(ed25519Verify(ed25519PublicKey(pair.publicKey), 'payload!', signature)).toBe(false);
    expect(ed25519Verify(ed25519PublicKey(pair.publicKey), 'payload', 'short')).toBe(false);
  });
});
