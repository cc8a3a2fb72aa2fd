import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServerHandle } from './authorization-server.js';

describe('the OAuth authorization-server simulator', () => {
  let server: AuthorizationServerHandle | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function codeFor(as: AuthorizationServerHandle, verifier: string) {
    const registered = (await (
      await fetch(`${as.issuer}/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['http://client.example/cb'] }),
      })
    ).json()) as { client_id: string };
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const consent = await fetch(
      `${as.issuer}/authorize?response_type=code&client_id=${registered.client_id}&redirect_uri=http://client.example/cb&state=s1&code_challenge=${challenge}&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    const location = new URL(consent.headers.get('location') as string);
    return {
      clientId: registered.client_id,
      code: location.searchParams.get('code') as string,
      state: location.searchParams.get('state'),
    };
  }
  const exchange = (as: AuthorizationServerHandle, fields: Record<string, string>) =>
    fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('issues a token for the signed-in user only against the PKCE verifier, once', async () => {
    server = await startAuthorizationServer();
    server.signInAs('ada');
    const { clientId, code, state } = await codeFor(server, 'v'.repeat(43));
    expect(state).toBe('s1');
    const wrong = await exchange(server, {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: 'http://client.example/cb',
      code_verifier: 'w'.repeat(43),
    });
    expect(wrong.status).toBe(400);
    const again = await codeFor(server, 'v'.repeat(43));
    const issued = (await (
      await exchange(server, {
        grant_type: 'authorization_code',
        code: again.code,
        client_id: again.clientId,
        redirect_uri: 'http://client.example/cb',
        code_verifier: 'v'.repeat(43),
      })
    ).json()) as { access_token: string };
    expect(server.subjectOf(issued.access_token)).toBe('ada');
    expect(
      (
        await exchange(server, {
          grant_type: 'authorization_code',
          code: again.code,
          client_id: again.clientId,
          redirect_uri: 'http://client.example/cb',
          code_verifier: 'v'.repeat(43),
        })
      ).status,
    ).toBe(400);
  });

  it('never redirects to an unregistered redirect URI, and answers access_denied when the user declines', async () => {
    server = await startAuthorizationServer();
    expect(
      (
        await fetch(`${server.issuer}/authorize?client_id=nobody&redirect_uri=http://evil.example/cb`, {
          redirect: 'manual',
        })
      ).status,
    ).toBe(400);
    server.signInAs(null);
    const registered = (await (
      await fetch(`${server.issuer}/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: ['http://client.example/cb'] }),
      })
    ).json()) as { client_id: string };
    const consent = await fetch(
      `${server.issuer}/authorize?response_type=code&client_id=${registered.client_id}&redirect_uri=http://client.example/cb&code_challenge=x&code_challenge_method=S256`,
      { redirect: 'manual' },
    );
    expect(new URL(consent.headers.get('location') as string).searchParams.get('error')).toBe('access_denied');
  });
});
