import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey } from './helpers.js';

// What many HTTP clients and scripts send on every request, bodiless ones included.
const declaredJson = { ...adminHeaders, 'content-type': 'application/json' };

describe('bodiless requests declared as JSON', () => {
  const gateway = gatewayPerTest();

  it('reads an empty JSON body as no body on admin POST and DELETE routes that take none', async () => {
    const { id } = (await mintClientKey(gateway.app)).record;
    const rotated = await gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/keys/${id}/rotate`,
      headers: declaredJson,
      payload: '',
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().key).toMatch(/^ark_/);
    const revoked = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/v1/keys/${id}`,
      headers: declaredJson,
      payload: '',
    });
    expect([revoked.statusCode, revoked.json()]).toEqual([200, { ok: true }]);
  });

  it('still refuses an empty body where the route takes one, in the surface envelope', async () => {
    const minted = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: declaredJson,
      payload: '',
    });
    expect(minted.statusCode).toBe(400);
    expect(minted.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('reads an empty JSON body as no body on a client-key connect POST', async () => {
    const { key } = await mintClientKey(gateway.app);
    const offboarded = await gateway.app.inject({
      method: 'POST',
      url: '/connect/offboard',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '',
    });
    expect([offboarded.statusCode, offboarded.json()]).toEqual([200, { status: 'ok', recorded: true }]);
  });
});
