import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { evidenceEnv, startEvidence, type TestEvidence } from './evidence-fixture.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';

// POST /connect/fleet-policy-webhook: a Fleet server's failing-policies webhook, received by a gateway whose
// remediation runs on the real evidence service, with hosts enrolled through its agent lane.

const secret = 'fleet-webhook-secret-0123456789abcdef';
const hour = 3600 * 1000;
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Fleet's payload shape: the policy and a batch of its failing hosts. */
function delivery(policy: { id: number; name: string }, hostnames: string[]) {
  return {
    timestamp: '2026-11-23T12:00:00Z',
    policy: {
      ...policy,
      query: 'SELECT 1 FROM alf WHERE global_state >= 1;',
      description: 'Firewall on',
      author_id: 1,
      author_name: 'admin',
      author_email: 'it@example.com',
      resolution: 'Turn it on',
      passing_host_count: 10,
      failing_host_count: hostnames.length,
    },
    hosts: hostnames.map((hostname, index) => ({
      id: index + 1,
      hostname,
      display_name: hostname,
      url: `https://fleet.example.com/hosts/${index + 1}`,
    })),
  };
}

describe('the failing-policies webhook', () => {
  let directory: string;
  let configPath: string;
  let evidence: TestEvidence;
  let gateway: TestGateway;
  const webhook = (
    payload: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${secret}` },
    query = '',
  ) =>
    gateway.app.inject({
      method: 'POST',
      url: `/connect/fleet-policy-webhook${query}`,
      headers,
      payload: payload as Record<string, unknown>,
    });
  const remediations = async () =>
    (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/remediations', headers: adminHeaders })).json()
      .remediations as Array<{ hostId: string; trigger: string }>;
  const writeConfig = (config: unknown) =>
    writeFile(configPath, typeof config === 'string' ? config : JSON.stringify(config));
  const firewall = { id: 7, name: 'Firewall enabled' };

  async function enrollFailingHost(enrollSecret: string, hostname: string): Promise<void> {
    await post(`${evidence.url}/api/fleet/orbit/enroll`, {
      enroll_secret: enrollSecret,
      hardware_uuid: `${hostname}-uuid`,
      platform: 'darwin',
      hostname,
    });
    const enrolled = (await (
      await post(`${evidence.url}/api/v1/osquery/enroll`, {
        enroll_secret: enrollSecret,
        host_identifier: `${hostname}-uuid`,
        host_details: { os_version: { platform: 'darwin' } },
      })
    ).json()) as { node_key: string };
    await post(`${evidence.url}/api/v1/osquery/distributed/write`, {
      node_key: enrolled.node_key,
      queries: { 'gw_policy_macos-firewall': [] },
    });
  }

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gw-fleet-webhook-'));
    configPath = join(directory, 'webhook.json');
    evidence = await startEvidence();
    gateway = await startTestGateway({
      env: {
        ...evidenceEnv(evidence),
        GW_FLEET_WEBHOOK_CONFIG: configPath,
      },
    });
    const { enrollSecret } = (
      await gateway.app.inject({ method: 'POST', url: '/admin/v1/fleet/enroll-secret/rotate', headers: adminHeaders })
    ).json();
    await enrollFailingHost(enrollSecret, 'ada-mbp');
    await enrollFailingHost(enrollSecret, 'bob-mbp');
  });
  afterAll(async () => {
    await gateway?.close();
    await evidence?.close();
    await rm(directory, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await writeConfig({
      secret,
      cooldownSeconds: 3600,
      policies: { 'Firewall enabled': 'macos-firewall', '99': 'macos-disk-encryption' },
    });
  });

  it('answers 503 and remediates nothing while its configuration is absent or unreadable', async () => {
    const cases: Array<[string, () => Promise<void>]> = [
      ['no file', () => rm(configPath, { force: true })],
      ['not JSON', () => writeConfig('{"secret": ')],
      ['a short secret', () => writeConfig({ secret: 'short', policies: {} })],
      ['an unknown field', () => writeConfig({ secret, policies: {}, apiToken: 'fleet-api-token' })],
      ['a bad check name', () => writeConfig({ secret, policies: { 'Firewall enabled': '../etc' } })],
    ];
    for (const [label, breakIt] of cases) {
      await breakIt();
      const answer = await webhook(delivery(firewall, ['ada-mbp']));
      expect(answer.statusCode, label).toBe(503);
      expect(answer.json(), label).toEqual({
        status: 'failure',
        code: 'fleet_webhook_unavailable',
        message: expect.stringContaining('nothing was remediated'),
      });
    }
    expect(await remediations()).toEqual([]);
    expect(gateway.logs.join('')).not.toContain(secret);
  });

  it('refuses a missing or wrong secret in constant time, before reading the body', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${secret.slice(0, -1)}x` },
      { authorization: 'Bearer ' },
      { authorization: secret },
    ];
    for (const headers of attempts) {
      const answer = await webhook(delivery(firewall, ['ada-mbp']), headers);
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ status: 'failure', code: 'fleet_webhook_unauthorized' });
    }
    expect((await webhook('{"not json', {}, '?token=wrong')).statusCode).toBe(401);
    expect((await webhook(delivery(firewall, ['ada-mbp']), {}, `?token=${secret}x`)).statusCode).toBe(401);
    expect(await remediations()).toEqual([]);
  });

  it('queues the mapped remediation per failing host, holds each host for the cooldown, and answers counts only', async () => {
    const first = await webhook(delivery(firewall, ['ada-mbp', 'BOB-MBP', 'unknown-laptop']));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      status: 'ok',
      received: 3,
      mapped: true,
      remediated: 2,
      coolingDown: 0,
      unmatched: 1,
      refused: 0,
      failed: 0,
    });
    expect(first.body).not.toMatch(/mbp|laptop|firewall/i);
    const queued = await remediations();
    expect(queued).toHaveLength(2);
    expect(new Set(queued.map((row) => row.hostId)).size).toBe(2);

    // The token may come as ?token= too; within the cooldown nothing new is queued.
    const again = await webhook(delivery(firewall, ['ada-mbp', 'bob-mbp']), {}, `?token=${encodeURIComponent(secret)}`);
    expect(again.json()).toEqual({
      status: 'ok',
      received: 2,
      mapped: true,
      remediated: 0,
      coolingDown: 2,
      unmatched: 0,
      refused: 0,
      failed: 0,
    });
    expect(await remediations()).toHaveLength(2);

    gateway.clock.advance(hour + 1);
    const later = await webhook(delivery(firewall, ['ada-mbp']));
    expect(later.json()).toMatchObject({ remediated: 1, coolingDown: 0 });
  });

  it('matches a policy by id, counts refusals, and queues nothing for an unmapped policy', async () => {
    const before = (await remediations()).length;
    const byId = await webhook(delivery({ id: 99, name: 'Disk encrypted' }, ['ada-mbp']));
    expect(byId.json()).toEqual({
      status: 'ok',
      received: 1,
      mapped: true,
      remediated: 0,
      coolingDown: 0,
      unmatched: 0,
      refused: 1,
      failed: 0,
    });
    const unmapped = await webhook(delivery({ id: 3, name: 'Screen lock' }, ['ada-mbp', 'bob-mbp']));
    expect(unmapped.json()).toEqual({
      status: 'ok',
      received: 2,
      mapped: false,
      remediated: 0,
      coolingDown: 0,
      unmatched: 0,
      refused: 0,
      failed: 0,
    });
    expect(await remediations()).toHaveLength(before);
  });

  it('refuses a flood of hosts or a malformed delivery whole, queuing nothing', async () => {
    const before = (await remediations()).length;
    gateway.clock.advance(2 * hour);
    const flood = await webhook(
      delivery(firewall, [...Array.from({ length: 1000 }, (_, index) => `host-${index}`), 'ada-mbp']),
    );
    expect(flood.statusCode).toBe(400);
    expect(flood.json()).toMatchObject({
      status: 'failure',
      code: 'invalid_request',
      message: expect.stringContaining('at most 1000 hosts'),
    });
    const huge = await webhook({ ...delivery(firewall, ['ada-mbp']), padding: 'x'.repeat(1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    const malformed = await webhook({ policy: { name: 'Firewall enabled' }, hosts: [{ hostname: 'ada-mbp' }] });
    expect(malformed.statusCode).toBe(400);
    expect(await remediations()).toHaveLength(before);
  });

  it('applies a rotated secret from the file at once', async () => {
    await writeConfig({ secret: `${secret}-rotated`, policies: {} });
    expect((await webhook(delivery(firewall, []))).statusCode).toBe(401);
    expect((await webhook(delivery(firewall, []), { authorization: `Bearer ${secret}-rotated` })).json()).toMatchObject(
      { status: 'ok', received: 0, mapped: false },
    );
  });

  it('throttles an address that keeps sending wrong secrets; the right secret still gets through', async () => {
    gateway.clock.advance(60_000); // a fresh failure window: earlier tests sent wrong secrets too
    const statuses = [];
    for (let attempt = 0; attempt < 32; attempt += 1)
      statuses.push((await webhook(delivery(firewall, []), { authorization: `Bearer wrong-${attempt}` })).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await webhook(delivery(firewall, []))).statusCode).toBe(200);
    gateway.clock.advance(60_000);
  });

  it('answers 503 on a gateway without the evidence service, and documents the route', async () => {
    const bare = await startTestGateway({ env: { GW_FLEET_WEBHOOK_CONFIG: configPath } });
    try {
      const answer = await bare.app.inject({
        method: 'POST',
        url: '/connect/fleet-policy-webhook',
        headers: { authorization: `Bearer ${secret}` },
        payload: delivery(firewall, ['ada-mbp']),
      });
      expect(answer.statusCode).toBe(503);
      const operation = (await bare.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths[
        '/connect/fleet-policy-webhook'
      ].post;
      expect(operation.security).toEqual([{ webhookSecret: [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '503']));
    } finally {
      await bare.close();
    }
  });
});
