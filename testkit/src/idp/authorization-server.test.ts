import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startIdentityProvider, type IdentityProviderHandle } from './identity-provider.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
const redirectUri = 'https://gw.example/admin/sso/callback';
const verifier = 'a-code-verifier-of-enough-length-0123456789-abcdefgh';
const challenge = createHash('sha256').update(verifier).digest('base64url');

describe('the identity provider’s authorization code flow', () => {
  let idp: IdentityProviderHandle;
  afterEach(async () => {
    await idp.close();
  });

  async function authorize(extra: Record<string, string> = {}) {
    const url = new URL(`${idp.issuer}/authorize`);
    const query = {
      response_type: 'code',
      client_id: 'console',
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    };
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return fetch(url, { redirect: 'manual' });
  }

  const exchange = (code: string, form: Record<string, string> = {}) =>
    fetch(`${idp.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('console:secret-1').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        ...form,
      }),
    });

  it('redirects back with a code and the state, and exchanges the code once for an ID token with the nonce', async () => {
    idp = await startIdentityProvider();
    idp.registerClient({ clientId: 'console', clientSecret: 'secret-1', redirectUris: [redirectUri] });
    idp.signInAs({ sub: 'u-1', email: 'ada@example.com', name: 'Ada' });
    const discovery = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({ code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] });
    const back = new URL((await authorize()).headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('state-1');
    const code = back.searchParams.get('code') as string;
    const answered = await exchange(code);
    expect(answered.status).toBe(200);
    const { id_token: idToken } = (await answered.json()) as { id_token: string };
    expect(decode(idToken.split('.')[1])).toMatchObject({
      iss: idp.issuer,
      aud: 'console',
      sub: 'u-1',
      nonce: 'nonce-1',
      email: 'ada@example.com',
      email_verified: true,
    });
    expect((await exchange(code)).status).toBe(400);
    expect(idp.tokenRequests).toBe(2);
  });

  it('refuses a wrong verifier, a wrong redirect URI, a wrong secret, and never redirects to an unregistered URI', async () => {
    idp = await startIdentityProvider();
    idp.registerClient({ clientId: 'console', clientSecret: 'secret-1', redirectUris: [redirectUri] });
    idp.signInAs({ sub: 'u-1' });
    const codeOf = async () =>
      new URL((await authorize()).headers.get('location') as string).searchParams.get('code') as string;
    expect(
      (await exchange(await codeOf(), { code_verifier: 'another-verifier-0123456789-0123456789-abc' })).status,
    ).toBe(400);
    expect((await exchange(await codeOf(), { redirect_uri: 'https://gw.example/other' })).status).toBe(400);
    const wrongSecret = await fetch(`${idp.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: await codeOf(),
        client_id: 'console',
        client_secret: 'nope',
      }),
    });
    expect(wrongSecret.status).toBe(401);
    const unregistered = await authorize({ redirect_uri: 'https://evil.example/cb' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
    idp.signInAs(null);
    const denied = new URL((await authorize()).headers.get('location') as string);
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });
});
