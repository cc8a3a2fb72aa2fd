import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, ManualClock } from '@gw/platform';
import { answersFor, SimulatedAgentError, startSimulatedHost, createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { buildApp } from '../src/app.js';
import { migrateEvidence } from '../src/migrations.js';
import { OutputVault } from '../src/remediation/output-vault.js';
import { orgWithEnrollSecret } from './agent-wire.js';
import { adminHeaders, adminToken } from './support.js';

const minute = 60_000;

/**
 * The evidence service on a real port, driven by the testkit's fleetd host: orbit and osquery speaking their own wire
 * (orbit sends its JSON with no Content-Type at all).
 */
describe('fleetd hosts against the evidence service', () => {
  let store: TestDb;
  let app: FastifyInstance;
  let baseUrl: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));

  beforeEach(async () => {
    store = await createMemoryPgliteDb();
    await migrateEvidence(store.db);
    app = await buildApp({
      db: store.db,
      logger: createLogger({ name: 'evidence-test', level: 'silent' }),
      adminToken,
      clock,
      outputVault: new OutputVault('3c'.repeat(32)),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await app.close();
    await store.dispose();
  });

  const hostOf = async (orgId: string, hostname: string) => {
    const hosts = (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json()
      .hosts as Array<{ id: string; hostname: string }>;
    return hosts.find((host) => host.hostname === hostname)?.id as string;
  };
  const results = async (orgId: string, hostId: string) =>
    Object.fromEntries(
      (
        (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts/${hostId}`, headers: adminHeaders })).json()
          .results as Array<{ policyName: string; response: string }>
      ).map((result) => [result.policyName, result.response]),
    );

  it('checks a Mac, runs the firewall script an administrator queued, and sees the check pass at the next check-in', async () => {
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
    let firewallOn = false;
    const host = startSimulatedHost({
      baseUrl,
      enrollSecret,
      platform: 'darwin',
      hostname: 'ada-mbp',
      answer: (sql) =>
        answersFor({
          'FROM alf': firewallOn,
          'FROM screenlock': true,
          'FROM sip_config': true,
          'FROM disk_encryption': { error: 'no such table: disk_encryption' },
        })(sql),
      runScript: (contents) => {
        if (!contents.includes('socketfilterfw --setglobalstate on'))
          return { exitCode: 1, output: 'unexpected script' };
        firewallOn = true;
        return { exitCode: 0, output: 'Firewall is enabled. (State = 1)' };
      },
    });
    await host.enroll();
    const first = await host.checkIn();
    expect(first.queries.map((query) => query.name)).toEqual([
      'gw_policy_macos-disk-encryption',
      'gw_policy_macos-firewall',
      'gw_policy_macos-screen-lock',
      'gw_policy_macos-system-integrity-protection',
    ]);
    expect(first.scripts).toEqual([]);
    const hostId = await hostOf(orgId, 'ada-mbp');
    expect(await results(orgId, hostId)).toEqual({
      'macos-disk-encryption': 'unknown',
      'macos-firewall': 'fail',
      'macos-screen-lock': 'pass',
      'macos-system-integrity-protection': 'pass',
    });

    const queued = await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/hosts/${hostId}/remediate`,
      headers: adminHeaders,
    });
    expect(queued.statusCode).toBe(202);
    const second = await host.checkIn();
    // Nothing was due for osquery yet; orbit fetched and ran the queued script.
    expect(second.queries).toEqual([]);
    expect(second.scripts).toEqual([expect.objectContaining({ outcome: 'exited', exitCode: 0 })]);
    const third = await host.checkIn();
    expect(third.queries.map((query) => query.name)).toContain('gw_policy_macos-firewall');
    expect((await results(orgId, hostId))['macos-firewall']).toBe('pass');

    const audit = (
      await app.inject({
        method: 'GET',
        url: `/admin/orgs/${orgId}/remediations?includeOutput=true`,
        headers: adminHeaders,
      })
    ).json().remediations;
    expect(audit).toEqual([
      expect.objectContaining({
        policyName: 'macos-firewall',
        status: 'ran',
        exitCode: 0,
        attempts: 1,
        outputRetained: true,
      }),
    ]);
    const detail = (
      await app.inject({
        method: 'GET',
        url: `/admin/orgs/${orgId}/remediations/${audit[0].executionId}?includeOutput=true`,
        headers: adminHeaders,
      })
    ).json();
    expect(detail.output).toBe('Firewall is enabled. (State = 1)');
    expect(host.requests.every((request) => request.status === 200)).toBe(true);
  });

  it('re-delivers a script whose agent died holding it, and re-enrolls a reinstalled agent', async () => {
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
    const host = startSimulatedHost({
      baseUrl,
      enrollSecret,
      platform: 'linux',
      hostname: 'bob-x1',
      answer: answersFor({ gnome_settings: false }),
      runScript: () => 'crash',
    });
    await host.checkIn();
    const hostId = await hostOf(orgId, 'bob-x1');
    expect((await results(orgId, hostId))['linux-screen-lock']).toBe('fail');
    const queued = (
      await app.inject({
        method: 'POST',
        url: `/admin/orgs/${orgId}/hosts/${hostId}/remediate`,
        headers: adminHeaders,
        payload: { policyName: 'linux-screen-lock' },
      })
    ).json();
    const executionId = queued.remediations[0].executionId as string;

    expect((await host.checkIn()).scripts).toEqual([expect.objectContaining({ executionId, outcome: 'crashed' })]);
    // Inside the lease nothing is offered again; after it, the same execution comes back.
    expect((await host.checkIn()).scripts).toEqual([]);
    clock.advance(11 * minute);
    host.setRunScript(() => ({ exitCode: 0, output: 'lock-enabled true' }));
    host.forgetNodeKeys();
    const retried = await host.checkIn();
    expect(retried.scripts).toEqual([expect.objectContaining({ executionId, outcome: 'exited', exitCode: 0 })]);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toMatchObject({ status: 'ran', attempts: 2 });
    expect(
      (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json().hosts,
    ).toHaveLength(1);
  });

  it('remediates a check set to remediate itself on its own, once an hour at most per host, and never a monitor-only check', async () => {
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
    const automation = (name: string, autoRemediate: boolean) =>
      app.inject({
        method: 'POST',
        url: `/admin/orgs/${orgId}/policies/${name}/automation`,
        headers: adminHeaders,
        payload: { autoRemediate },
      });
    expect((await automation('macos-firewall', true)).json()).toEqual({ name: 'macos-firewall', autoRemediate: true });
    expect((await automation('macos-disk-encryption', true)).json().error.code).toBe('no_remediation');
    const listed = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/policies`, headers: adminHeaders })
    ).json().policies;
    expect(listed.find((policy: { name: string }) => policy.name === 'macos-firewall')).toMatchObject({
      script: 'macos-enable-firewall.sh',
      autoRemediate: true,
    });

    // A script that does not fix the check: it is retried only after the hour's cooldown.
    const host = startSimulatedHost({
      baseUrl,
      enrollSecret,
      platform: 'darwin',
      hostname: 'stubborn-mac',
      answer: answersFor({ 'FROM alf': false, 'FROM disk_encryption': false }),
      runScript: () => ({ exitCode: 1, output: 'not permitted' }),
    });
    const audit = async () =>
      (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/remediations`, headers: adminHeaders })).json()
        .remediations as Array<{ policyName: string; trigger: string; status: string }>;
    // One check-in: osquery reports the failure, which queues the script; orbit then fetches and runs it.
    expect((await host.checkIn()).scripts).toEqual([expect.objectContaining({ outcome: 'exited', exitCode: 1 })]);
    expect(await audit()).toEqual([
      expect.objectContaining({ policyName: 'macos-firewall', trigger: 'policy', status: 'error' }),
    ]);
    // The script's result asked for the checks again; they still fail, but the hour's cooldown holds.
    expect((await host.checkIn()).queries.length).toBeGreaterThan(0);
    expect(await audit()).toHaveLength(1);
    clock.advance(61 * minute);
    await host.checkIn();
    expect((await audit()).map((entry) => [entry.trigger, entry.status])).toEqual([
      ['policy', 'error'],
      ['policy', 'error'],
    ]);

    await automation('macos-firewall', false);
    clock.advance(61 * minute);
    await host.checkIn();
    expect(await audit()).toHaveLength(2);
  });

  it('refuses an agent with a wrong enroll secret, and a device token already held by another host', async () => {
    const { enrollSecret } = await orgWithEnrollSecret(app);
    const stranger = startSimulatedHost({ baseUrl, enrollSecret: 'not-the-enroll-secret' });
    const refused = await stranger.enroll().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SimulatedAgentError);
    expect((refused as SimulatedAgentError).code).toBe('enroll_refused');

    const first = startSimulatedHost({ baseUrl, enrollSecret });
    const second = startSimulatedHost({ baseUrl, enrollSecret });
    await first.enroll();
    await second.enroll();
    expect((await first.setDeviceToken('desktop-token-0001')).ok).toBe(true);
    const taken = await second.setDeviceToken('desktop-token-0001');
    expect(taken).toMatchObject({ ok: false, status: 409 });
  });
});
