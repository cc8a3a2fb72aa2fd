import { createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startIdentityProvider, type IdentityProviderHandle } from './identity-provider.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('the identity-provider simulator', () => {
  let idp: IdentityProviderHandle | undefined;
  afterEach(async () => {
    await idp?.close();
    idp = undefined;
  });

  it('publishes discovery and a JWKS whose RS256 key verifies the tokens it mints', async () => {
    idp = await startIdentityProvider({ organizationClaim: 'org' });
    const configuration = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(configuration).toMatchObject({ issuer: idp.issuer, jwks_uri: idp.jwksUrl });
    const { keys } = (await (await fetch(idp.jwksUrl)).json()) as { keys: Array<{ kid: string; alg: string }> };
    expect(keys.map((key) => key.alg)).toEqual(['RS256', 'ES256']);

    const token = idp.mint({
      sub: 'okta|ada',
      aud: 'https://gw.example/mcp/org',
      organizationId: 'org_1',
      issuedAt: 1_800_000_000,
      expiresIn: 60,
    });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(decode(header)).toMatchObject({ alg: 'RS256', kid: keys[0]?.kid });
    expect(decode(payload)).toEqual({
      iss: idp.issuer,
      sub: 'okta|ada',
      aud: 'https://gw.example/mcp/org',
      iat: 1_800_000_000,
      exp: 1_800_000_060,
      org: 'org_1',
    });
    const publicKey = createPublicKey({ key: keys[0], format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
      true,
    );
    const forged = idp.mint({ sub: 'okta|ada' }, { untrustedKey: true }).split('.') as [string, string, string];
    expect(
      verify('sha256', Buffer.from(`${forged[0]}.${forged[1]}`), publicKey, Buffer.from(forged[2], 'base64url')),
    ).toBe(false);
    expect(idp.jwksFetches).toBe(1);
  });

  it('answers 503 while key discovery is failed, and publishes a rotated key beside the old one', async () => {
    idp = await startIdentityProvider();
    idp.failKeyDiscovery(true);
    expect((await fetch(idp.jwksUrl)).status).toBe(503);
    idp.failKeyDiscovery(false);
    idp.rotateKey();
    const { keys } = (await (await fetch(idp.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    expect(keys).toHaveLength(3);
    expect(decode(idp.mint({}).split('.')[0]).kid).toBe(keys[2]?.kid);
    expect(idp.mint({}, { algorithm: 'none' }).endsWith('.')).toBe(true);
  });
});
