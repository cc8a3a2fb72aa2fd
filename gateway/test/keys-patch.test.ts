import { describe, expect, it } from 'vitest';
import { adminHeaders, gatewayPerTest, mintClientKey, mintServiceKey, revokeKey, testStores } from './helpers.js';

interface StoredKey {
  label: string | null;
  name: string | null;
  team: string;
  monthly_budget_usd: string | number | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
}

describe.each(testStores)('PATCH /admin/v1/keys/{id} on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });

  const patch = (id: string, payload: Record<string, unknown>) =>
    gateway.app.inject({ method: 'PATCH', url: `/admin/v1/keys/${id}`, headers: adminHeaders, payload });
  const stored = async (id: string) =>
    (
      await gateway.deps.db.query<StoredKey>(
        'SELECT label, name, team, monthly_budget_usd, expires_at, revoked_at FROM gw_keys WHERE id = $1',
        [id],
      )
    ).rows[0];
  const instant = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  const auditOf = async (id: string) => {
    const feed = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=keys', headers: adminHeaders })
    ).json<{ data: Array<{ action: string; target: string | null; outcome: string; status: number | null }> }>();
    return feed.data
      .filter((event) => event.action === 'keys.update' && event.target === id)
      .map((event) => [event.outcome, event.status]);
  };

  it('refuses a service key’s name or budget on a client key with 400 naming the field, and stores nothing', async () => {
    const client = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers', label: 'laptop' });
    for (const [field, value] of [
      ['monthlyBudgetUsd', 25],
      ['monthlyBudgetUsd', null],
      ['name', 'renamed'],
    ] as const) {
      const response = await patch(client.record.id, { label: 'changed', [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: `body.${field}: only a service key has ${field}; key ${client.record.id} is a client key`,
          request_id: response.headers['x-request-id'],
        },
      });
    }
    expect(await stored(client.record.id)).toMatchObject({ label: 'laptop', name: null, monthly_budget_usd: null });
    const read = (
      await gateway.app.inject({ method: 'GET', url: `/admin/v1/keys/${client.record.id}`, headers: adminHeaders })
    ).json();
    expect(read).toMatchObject({ type: 'client', label: 'laptop', name: null, monthlyBudgetUsd: null });
    expect(await auditOf(client.record.id)).toEqual([
      ['failure', 400],
      ['failure', 400],
      ['failure', 400],
    ]);
  });

  it('still changes a service key’s name and budget', async () => {
    const service = await mintServiceKey(gateway.app, { name: 'etl', team: 'data', monthlyBudgetUsd: 10 });
    const response = await patch(service.record.id, { name: 'etl-nightly', monthlyBudgetUsd: 40 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ type: 'service', name: 'etl-nightly', monthlyBudgetUsd: 40 });
    expect(await stored(service.record.id)).toMatchObject({ name: 'etl-nightly' });
    expect(Number((await stored(service.record.id)).monthly_budget_usd)).toBe(40);
  });

  it('stores an expiry given with any offset as its UTC instant', async () => {
    const client = await mintClientKey(gateway.app);
    for (const [expiresAt, utc] of [
      ['2030-01-01T00:00:00+16:00', '2029-12-31T08:00:00.000Z'],
      ['2030-01-01T00:00:00-23:59', '2030-01-01T23:59:00.000Z'],
      ['2030-06-15T12:30:45.5+02:00', '2030-06-15T10:30:45.500Z'],
      ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
    ]) {
      const response = await patch(client.record.id, { expiresAt });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json(), expiresAt).toMatchObject({ expiresAt: utc, status: 'active' });
      expect(instant((await stored(client.record.id)).expires_at), expiresAt).toBe(utc);
      expect(
        (
          await gateway.app.inject({ method: 'GET', url: `/admin/v1/keys/${client.record.id}`, headers: adminHeaders })
        ).json().expiresAt,
        expiresAt,
      ).toBe(utc);
    }
  });

  it('refuses an expiry outside 1970–9999 or on a day that does not exist with 400 naming expiresAt, and keeps the stored one', async () => {
    const client = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers', expiresInDays: 30 });
    const before = instant((await stored(client.record.id)).expires_at);
    // Year 0; year 10000 once the offset is applied; before 1970; February 30th.
    for (const expiresAt of [
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59-23:59',
      '1969-12-31T23:59:59Z',
      '2030-02-30T00:00:00Z',
    ]) {
      const response = await patch(client.record.id, { expiresAt });
      expect(response.statusCode, expiresAt).toBe(400);
      expect(response.json().error, expiresAt).toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('body.expiresAt'),
        request_id: expect.any(String),
      });
    }
    expect(instant((await stored(client.record.id)).expires_at)).toBe(before);
  });

  it('answers 409 conflict to any change of a revoked key, keeps the row and audits a failure', async () => {
    const client = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers', label: 'laptop' });
    await revokeKey(gateway.app, client.record.id);
    const before = await stored(client.record.id);
    for (const payload of [{ label: 'renamed', team: 'runtime' }, { expiresAt: '2031-01-01T00:00:00Z' }, {}]) {
      const response = await patch(client.record.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(409);
      expect(response.json()).toEqual({
        error: {
          code: 'conflict',
          message: `the key ${client.record.id} is revoked; a revoked key cannot be changed`,
          request_id: response.headers['x-request-id'],
        },
      });
    }
    expect(await stored(client.record.id)).toEqual(before);
    expect(
      (
        await gateway.app.inject({ method: 'GET', url: `/admin/v1/keys/${client.record.id}`, headers: adminHeaders })
      ).json(),
    ).toMatchObject({ status: 'revoked', label: 'laptop', team: 'compilers' });
    expect(await auditOf(client.record.id)).toEqual([
      ['failure', 409],
      ['failure', 409],
      ['failure', 409],
    ]);
  });
});
