import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, startGatewayOnSwitchableStore } from './helpers.js';

describe('seat directives: queued by an administrator, fetched and acked by the seat', () => {
  const gateway = gatewayPerTest();
  const queue = (payload: Record<string, unknown>, headers = adminHeaders) =>
    gateway.app.inject({ method: 'POST', url: '/admin/v1/fleet/directives', headers, payload });
  const fetchNext = (key: string, kinds?: string) =>
    gateway.app.inject({
      method: 'GET',
      url: '/connect/directive',
      headers: { ...bearer(key), ...(kinds === undefined ? {} : { 'x-gw-directive-kinds': kinds }) },
    });
  const ack = (key: string, id: string, result: string) =>
    gateway.app.inject({
      method: 'POST',
      url: '/connect/directive/ack',
      headers: bearer(key),
      payload: { id, result },
    });

  it('delivers the oldest open directive of a kind the client runs, again until it is acked', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'Ada@example.com', team: 'platform' });
    const update = await queue({ user: 'ada@example.com', kind: 'update' });
    expect(update.statusCode).toBe(201);
    expect(update.json()).toMatchObject({
      id: expect.stringMatching(/^dir_/),
      tenant: null,
      user: 'ada@example.com',
      kind: 'update',
      tool: null,
      status: 'queued',
      result: null,
      deliveries: 0,
      createdBy: 'admin-token',
    });
    const reapply = (await queue({ user: 'ADA@example.com', kind: 'reapply_config' })).json();

    // No header: the three original kinds, so the older `update` is skipped and stays queued.
    const first = await fetchNext(key);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ directive: { id: reapply.id, kind: 'reapply_config' } });
    expect((await fetchNext(key)).json()).toEqual({ directive: { id: reapply.id, kind: 'reapply_config' } });

    const acked = await ack(key, reapply.id, 'failed');
    expect(acked.json()).toEqual({ status: 'ok', id: reapply.id, result: 'failed', offboarded: false });
    expect((await fetchNext(key)).json()).toEqual({});
    expect((await fetchNext(key, 'update, revert_tool, teleport')).json()).toEqual({
      directive: { id: update.json().id, kind: 'update' },
    });

    const listed = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/fleet/directives?user=ada@example.com',
        headers: adminHeaders,
      })
    ).json().directives;
    expect(listed).toMatchObject([
      { id: reapply.id, status: 'closed', result: 'failed', deliveries: 2 },
      { id: update.json().id, status: 'delivered', result: null, deliveries: 1 },
    ]);
    const open = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/directives?open=true', headers: adminHeaders })
    ).json().directives;
    expect(open.map((directive: { id: string }) => directive.id)).toEqual([update.json().id]);
  });

  it('a revert acked ok marks the seat offboarded; a repeated ack answers the recorded result', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const revert = (await queue({ user: 'ada@example.com', kind: 'revert' })).json();
    expect((await fetchNext(key)).json()).toEqual({ directive: { id: revert.id, kind: 'revert' } });
    expect((await ack(key, revert.id, 'ok')).json()).toEqual({
      status: 'ok',
      id: revert.id,
      result: 'ok',
      offboarded: true,
    });
    expect((await ack(key, revert.id, 'failed')).json()).toEqual({
      status: 'ok',
      id: revert.id,
      result: 'ok',
      offboarded: true,
    });
    const seats = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/seats', headers: adminHeaders })
    ).json().seats;
    expect(seats).toMatchObject([{ user: 'ada@example.com', offboarded: true }]);
  });

  it('keeps each seat to its own directives', async () => {
    const ada = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const grace = await mintClientKey(gateway.app, { user: 'grace@example.com', team: 'platform' });
    const tool = (await queue({ user: 'ada@example.com', kind: 'revert_tool', tool: 'claude-code' })).json();
    expect((await fetchNext(grace.key, 'revert_tool')).json()).toEqual({});
    const foreign = await ack(grace.key, tool.id, 'ok');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      status: 'failure',
      code: 'directive_not_found',
      message: 'No such directive for this seat.',
    });
    expect((await fetchNext(ada.key, 'revert_tool')).json()).toEqual({
      directive: { id: tool.id, kind: 'revert_tool', tool: 'claude-code' },
    });
  });

  it('refuses a malformed directive or ack, and gates queueing on fleet:direct', async () => {
    const { key } = await mintClientKey(gateway.app);
    for (const body of [
      { user: 'ada@example.com', kind: 'revert_tool' },
      { user: 'ada@example.com', kind: 'revert', tool: 'x' },
      { user: 'ada@example.com', kind: 'reboot' },
      { kind: 'revert' },
    ]) {
      const response = await queue(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
    for (const body of [
      { id: 'dir_x', result: 'maybe' },
      { result: 'ok' },
      { id: 'a\u0000', result: 'ok' },
      { id: '../x', result: 'ok' },
    ]) {
      const response = await gateway.app.inject({
        method: 'POST',
        url: '/connect/directive/ack',
        headers: bearer(key),
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'invalid_request' });
    }
    const minted = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/admin-keys',
      headers: adminHeaders,
      payload: { label: 'fleet', scopes: ['fleet:read', 'fleet:write'] },
    });
    expect(minted.statusCode).toBe(201);
    const denied = await queue({ user: 'ada@example.com', kind: 'revert' }, bearer(minted.json().key));
    expect(denied.statusCode).toBe(403);
    const listed = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/fleet/directives',
      headers: bearer(minted.json().key),
    });
    expect(listed.statusCode).toBe(200);
  });

  it('joins GDPR export and erase', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    await gateway.app.inject({
      method: 'POST',
      url: '/connect/health',
      headers: bearer(key),
      payload: { checks: [{ name: 'gateway.reachable', status: 'pass' }] },
    });
    await queue({ user: 'ada@example.com', kind: 'remint' });
    const exported = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/users/ada@example.com/export', headers: adminHeaders })
    ).json();
    expect(exported.seats).toMatchObject({
      seats: [
        {
          seat: 'ada@example.com',
          checks: [{ name: 'gateway.reachable', status: 'pass' }],
          device_token_registered: false,
        },
      ],
      directives: [{ kind: 'remint' }],
    });
    const erased = await gateway.app.inject({
      method: 'DELETE',
      url: '/admin/v1/users/ada@example.com/data',
      headers: adminHeaders,
    });
    expect(erased.json().erased).toMatchObject({ seats: 2 });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/seats', headers: adminHeaders })).json().seats,
    ).toEqual([]);
  });
});

describe('the device page with its store down', () => {
  let stack: Awaited<ReturnType<typeof startGatewayOnSwitchableStore>>;
  beforeAll(async () => {
    stack = await startGatewayOnSwitchableStore();
  });
  afterAll(async () => stack?.close());

  it('answers a static 503, never a 500', async () => {
    stack.db.down = true;
    const response = await stack.gateway.app.inject({ method: 'GET', url: `/device/health?dt=${'a'.repeat(43)}` });
    stack.db.down = false;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'failure',
      code: 'device_unavailable',
      message: 'The device page is unavailable right now.',
    });
  });
});
