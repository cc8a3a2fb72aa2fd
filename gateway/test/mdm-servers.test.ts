import { describe, expect, it } from 'vitest';
import { adminHeaders, gatewayPerTest } from './helpers.js';

describe('the MDM server list', () => {
  const gateway = gatewayPerTest();
  const put = (payload: unknown, url = '/admin/v1/fleet/mdm-servers') =>
    gateway.app.inject({ method: 'PUT', url, headers: adminHeaders, payload: payload as Record<string, unknown> });

  it('starts empty, replaces the list, and audits only its size', async () => {
    expect(
      (
        await gateway.app.inject({ method: 'GET', url: '/admin/endpoint-fleet/mdm-servers', headers: adminHeaders })
      ).json(),
    ).toEqual({ serverUrls: [], updatedAt: null });
    const urls = ['https://mdm.example.com/mdm', 'https://jamf.example.com:8443/'];
    const saved = await put({ serverUrls: urls });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ serverUrls: urls });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/mdm-servers', headers: adminHeaders })).json(),
    ).toEqual({ serverUrls: urls, updatedAt: new Date(gateway.clock.now()).toISOString() });
    const audit = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=fleet', headers: adminHeaders })
    ).json().data;
    expect(audit[0]).toMatchObject({ action: 'endpoint.mdmServers.put', target: 'count:2' });
    expect(JSON.stringify(audit)).not.toContain('mdm.example.com');
    expect((await put({ serverUrls: [] }, '/admin/endpoint-fleet/mdm-servers')).json()).toEqual({ serverUrls: [] });
  });

  it('names an invalid entry by its index without echoing it, and changes nothing', async () => {
    await put({ serverUrls: ['https://kept.example.com'] });
    const cases: Array<[unknown, string]> = [
      ['http://plain.example.com', 'body.serverUrls[1] must be https'],
      ['https://user:hunter2@creds.example.com', 'body.serverUrls[1] must not carry credentials'],
      ['https://q.example.com/?token=hunter2', 'body.serverUrls[1] must not carry a query'],
      [`https://long.example.com/${'a'.repeat(600)}`, 'body.serverUrls[1] must be at most 512 characters'],
      ['not a url hunter2', 'body.serverUrls[1] must be a URI'],
      [42, 'body.serverUrls[1] must be a string'],
    ];
    for (const [bad, message] of cases) {
      const response = await put({ serverUrls: ['https://ok.example.com', bad] });
      expect(response.statusCode, String(bad)).toBe(400);
      expect(response.json().error.message).toContain(message);
      expect(response.body).not.toContain('hunter2');
    }
    expect(
      (await put({ serverUrls: Array.from({ length: 21 }, (_, index) => `https://m${index}.example.com`) })).statusCode,
    ).toBe(400);
    expect((await put({ serverUrls: [], extra: true })).statusCode).toBe(400);
    expect((await put({})).statusCode).toBe(400);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/mdm-servers', headers: adminHeaders })).json()
        .serverUrls,
    ).toEqual(['https://kept.example.com']);
  });
});
