import { describe, expect, it } from 'vitest';
import { ed25519PrivateKey, ed25519Sign } from '@gw/platform';
import { signRequest, signaturePayload } from '@gw/platform';
import { auth, chatRequest, signingKeys, testApp } from './support/test-app.js';

const body = JSON.stringify({
  endpoint: '/v1/chat/completions',
  request: chatRequest('short output'),
  metadata: { user: 'ada' },
});

async function signedApp() {
  const keys = signingKeys();
  const harness = await testApp({ config: { GW_OPTIMIZER_VERIFY_KEY: keys.verifyKey } });
  const send = (signature: string | undefined, payload = body, url = '/v1/optimize') =>
    harness.app.inject({
      method: 'POST',
      url,
      headers: {
        ...auth,
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-gw-signature': signature }),
      },
      payload,
    });
  return { ...harness, keys, send };
}

describe('Ed25519 request signing', () => {
  it('accepts a valid signature over the raw body and reports enforcement on /health', async () => {
    const { app, clock, keys, send } = await signedApp();
    const response = await send(signRequest(keys.privateKey, 'POST', '/v1/optimize', body, clock.now()));
    expect(response.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).json().requestSignatures).toBe('enforced');
  });

  it('refuses a missing signature with 401 on every signed hook', async () => {
    const { send } = await signedApp();
    for (const url of ['/v1/optimize', '/v1/optimize-response', '/v1/cache', '/v1/recall']) {
      const response = await send(undefined, body, url);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('signature_missing');
    }
  });

  it('refuses a stale signature, in the past or the future', async () => {
    const { clock, keys, send } = await signedApp();
    const old = await send(signRequest(keys.privateKey, 'POST', '/v1/optimize', body, clock.now() - 60_001));
    expect(old.json().error.code).toBe('signature_stale');
    const ahead = await send(signRequest(keys.privateKey, 'POST', '/v1/optimize', body, clock.now() + 60_001));
    expect(ahead.statusCode).toBe(401);
    expect(
      (await send(signRequest(keys.privateKey, 'POST', '/v1/optimize', body, clock.now() - 59_000))).statusCode,
    ).toBe(200);
  });

  it('refuses a replay inside the window', async () => {
    const { clock, keys, send } = await signedApp();
    const signature = signRequest(keys.privateKey, 'POST', '/v1/optimize', body, clock.now());
    expect((await send(signature)).statusCode).toBe(200);
    clock.advance(30_000);
    const replay = await send(signature);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('signature_replayed');
  });

  it('refuses non-canonical timestamps and signatures', async () => {
    const { clock, keys, send } = await signedApp();
    const now = clock.now();
    const key = ed25519PrivateKey(keys.privateKey);
    const signFor = (timestamp: string) => ed25519Sign(key, signaturePayload(timestamp, 'POST', '/v1/optimize', body));
    // Leading zero and a plus sign name the same instant but are not the canonical spelling.
    for (const timestamp of [`0${now}`, `+${now}`, `${now}.0`, ` ${now}`]) {
      const response = await send(`${timestamp}.${signFor(timestamp)}`);
      expect(response.statusCode).toBe(401);
    }
    const valid = signFor(String(now));
    // Padded, standard-alphabet, and a last character with stray low bits all decode to the same bytes.
    const lastIndex = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(
      valid.at(-1) as string,
    );
    const sibling = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[lastIndex ^ 1];
    for (const signature of [
      `${valid}==`,
      Buffer.from(valid, 'base64url').toString('base64').replace(/=+$/, ''),
      `${valid.slice(0, -1)}${sibling}`,
    ]) {
      if (signature === valid) continue;
      const response = await send(`${now}.${signature}`);
      expect(response.statusCode).toBe(401);
      expect(['signature_non_canonical', 'signature_invalid']).toContain(response.json().error.code);
    }
    expect((await send(`${now}.${valid}`)).statusCode).toBe(200);
  });

  it('refuses a signature made for another body, path or method', async () => {
    const { clock, keys, send } = await signedApp();
    const other = signRequest(keys.privateKey, 'POST', '/v1/optimize', `${body} `, clock.now());
    expect((await send(other)).json().error.code).toBe('signature_invalid');
    const otherPath = signRequest(keys.privateKey, 'POST', '/v1/cache', body, clock.now());
    expect((await send(otherPath)).json().error.code).toBe('signature_invalid');
    const otherKey = signRequest(signingKeys().privateKey, 'POST', '/v1/optimize', body, clock.now());
    expect((await send(otherKey)).json().error.code).toBe('signature_invalid');
    expect((await send('not-a-signature')).json().error.code).toBe('signature_malformed');
  });

  it('never gates /v1/retrieve or /v1/record', async () => {
    const { app } = await signedApp();
    const retrieve = await app.inject({
      method: 'POST',
      url: '/v1/retrieve',
      headers: auth,
      payload: { handle: 'ctx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(retrieve.statusCode).toBe(404);
    const record = await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { id: 'r1' } });
    expect(record.json().error.code).toBe('recording_disabled');
  });

  it('does not require signatures when no verify key is configured', async () => {
    const { app } = await testApp();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/optimize',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).json().requestSignatures).toBe('off');
  });
});

describe('bearer tokens and body limit', () => {
  it('refuses hooks without the optimizer token and admin routes with it', async () => {
    const { app } = await testApp();
    expect((await app.inject({ method: 'POST', url: '/v1/optimize', payload: JSON.parse(body) })).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/v1/optimize',
          headers: { authorization: 'Bearer wrong-token-0123456789' },
          payload: JSON.parse(body),
        })
      ).statusCode,
    ).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: auth })).statusCode).toBe(401);
  });

  it('answers 413 above GW_OPTIMIZER_MAX_BODY_BYTES on every endpoint, with the coded body', async () => {
    const { app } = await testApp({ config: { GW_OPTIMIZER_MAX_BODY_BYTES: 4096 } });
    const big = JSON.stringify({ endpoint: '/v1/chat/completions', request: chatRequest('x'.repeat(5000)) });
    for (const url of [
      '/v1/optimize',
      '/v1/optimize-response',
      '/v1/cache',
      '/v1/retrieve',
      '/v1/recall',
      '/v1/record',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: big,
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('body_too_large');
    }
    const admin = await app.inject({
      method: 'PUT',
      url: '/admin/optimizer/settings',
      headers: { authorization: 'Bearer admin-token-0123456789abcdef', 'content-type': 'application/json' },
      payload: big,
    });
    expect(admin.statusCode).toBe(413);
  });
});
