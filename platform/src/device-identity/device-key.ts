import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { DevicePublicJwk } from '@gw/contracts';

/**
 * Signatures by a device's bound key, through node:crypto only: Ed25519, or ECDSA P-256 over SHA-256 with the
 * fixed-width `r‖s` encoding (IEEE P1363, as WebCrypto and JOSE use), so both are 64 bytes.
 */
export function deviceSign(privateKey: KeyObject, message: string): string {
  const data = Buffer.from(message);
  if (privateKey.asymmetricKeyType === 'ed25519') return sign(null, data, privateKey).toString('base64url');
  if (privateKey.asymmetricKeyType === 'ec' && privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  }
  throw new Error('a device key is Ed25519 or ECDSA P-256');
}

/** False for any signature that does not verify, including a public key that is not a point on its curve. */
export function deviceVerify(publicJwk: DevicePublicJwk, message: string, signatureBase64url: string): boolean {
  const signature = Buffer.from(signatureBase64url, 'base64url');
  if (signature.length !== 64) return false;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: publicJwk, format: 'jwk' });
  } catch {
    return false;
  }
  const data = Buffer.from(message);
  try {
    return publicJwk.kty === 'OKP'
      ? verify(null, data, key, signature)
      : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/** The public JWK of a device's private key, in the certificate's shape. */
export function devicePublicJwkOf(privateKey: KeyObject): DevicePublicJwk {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) return { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && jwk.x && jwk.y) return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  throw new Error('a device key is Ed25519 or ECDSA P-256');
}
