import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { remediationScripts } from '@gw/contracts';
import { OutputVault } from '../src/remediation/output-vault.js';
import { agentPost, orgWithEnrollSecret } from './agent-wire.js';
import { adminHeaders, evidencePerTest, evidenceStores, provisionOrg } from './support.js';

const minute = 60_000;
const hour = 60 * minute;
const firewallScript = remediationScripts.find((script) => script.name === 'macos-enable-firewall.sh');

/** A darwin agent host that just reported the firewall check failing and the screen lock passing. */
async function failingMac(app: FastifyInstance, hardwareUuid = 'mac-uuid-1') {
  const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
  const orbitKey = (
    await agentPost(app, '/api/fleet/orbit/enroll', {
      enroll_secret: enrollSecret,
      hardware_uuid: hardwareUuid,
      platform: 'darwin',
      hostname: 'mac',
    })
  ).json().orbit_node_key as string;
  const nodeKey = (
    await agentPost(app, '/api/v1/osquery/enroll', {
      enroll_secret: enrollSecret,
      host_identifier: hardwareUuid,
      host_details: { os_version: { platform: 'darwin' } },
    })
  ).json().node_key as string;
  await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey });
  await agentPost(app, '/api/v1/osquery/distributed/write', {
    node_key: nodeKey,
    queries: {
      'gw_policy_macos-firewall': [],
      'gw_policy_macos-screen-lock': [{ '1': '1' }],
      'gw_policy_macos-disk-encryption': [],
    },
  });
  const hostId = (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json()
    .hosts[0].id as string;
  return { orgId, enrollSecret, orbitKey, nodeKey, hostId };
}

const remediate = (app: FastifyInstance, orgId: string, hostId: string, payload?: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: `/admin/orgs/${orgId}/hosts/${hostId}/remediate`,
    headers: adminHeaders,
    ...(payload ? { payload } : {}),
  });
const pendingIds = async (app: FastifyInstance, orbitKey: string) =>
  ((await agentPost(app, '/api/fleet/orbit/config', { orbit_node_key: orbitKey })).json().notifications
    .pending_script_execution_ids ?? []) as string[];

describe.each(evidenceStores)('remediation on built-in agent hosts on %s', (_name, open) => {
  const service = evidencePerTest(open);

  it('queues every failing check’s script once, delivers it under a lease, records the exit code and asks for the checks again', async () => {
    const { app } = service();
    const { orgId, hostId, orbitKey, nodeKey } = await failingMac(app);

    const queued = await remediate(app, orgId, hostId);
    expect(queued.statusCode).toBe(202);
    // Disk encryption fails too, but it has no script: only the firewall is remediated.
    expect(queued.json().remediations).toEqual([
      expect.objectContaining({
        policyName: 'macos-firewall',
        scriptName: 'macos-enable-firewall.sh',
        trigger: 'admin',
        status: 'pending',
        attempts: 0,
        exitCode: null,
      }),
    ]);
    const executionId = queued.json().remediations[0].executionId as string;
    const again = await remediate(app, orgId, hostId, { policyName: 'macos-firewall' });
    expect(again.statusCode).toBe(200);
    expect(again.json().remediations[0].executionId).toBe(executionId);

    expect(await pendingIds(app, orbitKey)).toEqual([executionId]);
    const fetched = await agentPost(app, '/api/fleet/orbit/scripts/request', {
      orbit_node_key: orbitKey,
      execution_id: executionId,
    });
    expect(fetched.json()).toEqual({
      execution_id: executionId,
      script_contents: firewallScript?.contents,
      output: '',
      runtime: 0,
      exit_code: null,
    });
    expect(await pendingIds(app, orbitKey)).toEqual([]);

    const result = await agentPost(app, '/api/fleet/orbit/scripts/result', {
      orbit_node_key: orbitKey,
      execution_id: executionId,
      output: 'Firewall is enabled. (State = 1)',
      runtime: 1,
      exit_code: 0,
    });
    expect(result.statusCode).toBe(200);
    const audit = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/remediations`, headers: adminHeaders })
    ).json().remediations;
    expect(audit).toEqual([
      expect.objectContaining({
        executionId,
        status: 'ran',
        exitCode: 0,
        attempts: 1,
        completedAt: expect.any(String),
        leaseExpiresAt: null,
        outputRetained: false,
      }),
    ]);
    // A repeated result (at-least-once delivery) changes nothing.
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/result', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
          output: '',
          runtime: 0,
          exit_code: 3,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toMatchObject({ status: 'ran', exitCode: 0 });
    // The script may have fixed the check, so the next distributed read asks again at once.
    expect(
      Object.keys((await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey })).json().queries),
    ).toContain('gw_policy_macos-firewall');
    // After it finished, the execution cannot be fetched again.
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/request', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('re-delivers after a lost lease at most three times, then marks the execution exhausted', async () => {
    const { app, clock } = service();
    const { orgId, hostId, orbitKey } = await failingMac(app);
    const executionId = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;

    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await pendingIds(app, orbitKey)).toEqual([executionId]);
      expect(
        (
          await agentPost(app, '/api/fleet/orbit/scripts/request', {
            orbit_node_key: orbitKey,
            execution_id: executionId,
          })
        ).statusCode,
      ).toBe(200);
      // Fetching again inside the lease (an agent restart) spends no attempt.
      clock.advance(5 * minute);
      expect(
        (
          await agentPost(app, '/api/fleet/orbit/scripts/request', {
            orbit_node_key: orbitKey,
            execution_id: executionId,
          })
        ).statusCode,
      ).toBe(200);
      expect(await pendingIds(app, orbitKey)).toEqual([]);
      const entry = (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json();
      expect(entry).toMatchObject({ status: 'delivered', attempts: attempt, leaseExpiresAt: expect.any(String) });
      clock.advance(5 * minute + 1);
    }
    expect(await pendingIds(app, orbitKey)).toEqual([]);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toMatchObject({ status: 'exhausted', attempts: 3, exitCode: null });
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/request', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
        })
      ).statusCode,
    ).toBe(404);
    // With the last one closed, the check may be queued afresh.
    expect((await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).statusCode).toBe(202);
  });

  it('expires an execution no agent fetched within 24 hours, and takes a late result only while the execution is open', async () => {
    const { app, clock } = service();
    const { orgId, hostId, orbitKey } = await failingMac(app);
    const stale = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;
    clock.advance(24 * hour);
    expect(await pendingIds(app, orbitKey)).toEqual([]);
    expect(
      (
        await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/remediations/${stale}`, headers: adminHeaders })
      ).json(),
    ).toMatchObject({ status: 'expired', attempts: 0 });
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/result', {
          orbit_node_key: orbitKey,
          execution_id: stale,
          output: '',
          runtime: 0,
          exit_code: 0,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/remediations/${stale}`, headers: adminHeaders })
      ).json(),
    ).toMatchObject({ status: 'expired', exitCode: null });

    const late = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;
    await agentPost(app, '/api/fleet/orbit/scripts/request', { orbit_node_key: orbitKey, execution_id: late });
    clock.advance(11 * minute);
    await agentPost(app, '/api/fleet/orbit/scripts/result', {
      orbit_node_key: orbitKey,
      execution_id: late,
      output: '',
      runtime: 700,
      exit_code: -1,
      timeout: 300,
    });
    expect(
      (
        await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/remediations/${late}`, headers: adminHeaders })
      ).json(),
    ).toMatchObject({ status: 'timed_out', exitCode: -1 });
  });

  it('takes no result once the lifetime or the last lease ran out, whether or not anything read the audit in between', async () => {
    const { app, clock } = service();
    const { orgId, hostId, orbitKey } = await failingMac(app);
    const post = (executionId: string) =>
      agentPost(app, '/api/fleet/orbit/scripts/result', {
        orbit_node_key: orbitKey,
        execution_id: executionId,
        output: '',
        runtime: 1,
        exit_code: 0,
      });
    const statusOf = async (executionId: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json().status as string;

    const late = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;
    await agentPost(app, '/api/fleet/orbit/scripts/request', { orbit_node_key: orbitKey, execution_id: late });
    clock.advance(25 * hour);
    expect((await post(late)).statusCode).toBe(200);
    expect(await statusOf(late)).toBe('expired');

    const exhausted = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await agentPost(app, '/api/fleet/orbit/scripts/request', { orbit_node_key: orbitKey, execution_id: exhausted });
      clock.advance(11 * minute);
    }
    await post(exhausted);
    expect(await statusOf(exhausted)).toBe('exhausted');
  });

  it('cancels the open executions of a check an administrator disables, so no agent runs them', async () => {
    const { app } = service();
    const { orgId, hostId, orbitKey } = await failingMac(app);
    const executionId = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
      .executionId as string;
    await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/policies/macos-firewall`,
      headers: adminHeaders,
      payload: { enabled: false },
    });
    expect(await pendingIds(app, orbitKey)).toEqual([]);
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/request', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toMatchObject({ status: 'cancelled', completedAt: expect.any(String) });
  });

  it('runs nothing on customer-managed hosts, checks without a script, disabled checks or another platform’s checks', async () => {
    const { app } = service();
    const { orgId, hostId, orbitKey } = await failingMac(app);
    const refused = async (payload: Record<string, unknown> | undefined, code: string) => {
      const answer = await remediate(app, orgId, hostId, payload);
      expect(answer.statusCode, code).toBe(409);
      expect(answer.json().error.code).toBe(code);
    };
    await refused({ policyName: 'macos-disk-encryption' }, 'no_remediation');
    await refused({ policyName: 'linux-screen-lock' }, 'platform_mismatch');
    await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/policies/macos-firewall`,
      headers: adminHeaders,
      payload: { enabled: false },
    });
    await refused({ policyName: 'macos-firewall' }, 'policy_disabled');
    await refused(undefined, 'nothing_to_remediate');
    expect((await remediate(app, orgId, hostId, { policyName: 'nope' })).statusCode).toBe(404);
    expect((await remediate(app, orgId, hostId, { policyName: 'macos-firewall', extra: true })).statusCode).toBe(400);

    const { orgId: managedOrg, token } = await provisionOrg(app, 'jamf');
    await app.inject({
      method: 'POST',
      url: '/api/v1/evidence/report',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        device: { id: 'jamf-1', platform: 'darwin' },
        results: [{ policyName: 'macos-firewall', response: 'fail' }],
      },
    });
    const managedHost = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${managedOrg}/hosts`, headers: adminHeaders })
    ).json().hosts[0].id as string;
    const monitorOnly = await remediate(app, managedOrg, managedHost, { policyName: 'macos-firewall' });
    expect(monitorOnly.statusCode).toBe(409);
    expect(monitorOnly.json().error.code).toBe('monitor_only');

    // Another host's agent cannot fetch or settle this host's execution.
    const other = await failingMac(app, 'mac-uuid-2');
    const executionId = (await remediate(app, other.orgId, other.hostId, { policyName: 'macos-firewall' })).json()
      .remediations[0].executionId as string;
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/request', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/scripts/result', {
          orbit_node_key: orbitKey,
          execution_id: executionId,
          output: '',
          runtime: 0,
          exit_code: 0,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lists every script with its whole contents and the checks that dispatch it; the PowerShell one has none', async () => {
    const { app } = service();
    const scripts = (await app.inject({ method: 'GET', url: '/admin/scripts', headers: adminHeaders })).json()
      .scripts as Array<{ name: string; contents: string; dispatchedBy: string[] }>;
    expect(scripts.map((script) => [script.name, script.dispatchedBy])).toEqual([
      ['macos-enable-firewall.sh', ['macos-firewall']],
      ['macos-require-password-after-screensaver.sh', ['macos-screen-lock']],
      ['linux-enable-gnome-screen-lock.sh', ['linux-screen-lock']],
      ['windows-enable-firewall.ps1', []],
    ]);
    expect(scripts[0]?.contents).toContain('socketfilterfw --setglobalstate on');
    expect((await app.inject({ method: 'GET', url: '/admin/scripts' })).statusCode).toBe(401);
  });
});

describe('remediation output retention', () => {
  describe('with GW_CONTENT_KEY', () => {
    const service = evidencePerTest(evidenceStores[0][1], { outputVault: new OutputVault('5e'.repeat(32)) });

    it('keeps output encrypted, truncated to 8 KiB, readable on request for 30 days, then drops it and keeps the audit row', async () => {
      const { app, clock, store } = service();
      const { orgId, hostId, orbitKey } = await failingMac(app);
      const executionId = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
        .executionId as string;
      await agentPost(app, '/api/fleet/orbit/scripts/request', { orbit_node_key: orbitKey, execution_id: executionId });
      const output = `Firewall is enabled. ${'.'.repeat(20_000)} exit ok`;
      await agentPost(app, '/api/fleet/orbit/scripts/result', {
        orbit_node_key: orbitKey,
        execution_id: executionId,
        output,
        runtime: 2,
        exit_code: 0,
      });

      const stored = (await store.db.query<{ output_sealed: string }>('SELECT output_sealed FROM ev_remediations'))
        .rows[0]?.output_sealed;
      expect(stored).toMatch(/^v1\./);
      expect(stored).not.toContain('Firewall');
      const plain = (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}`,
          headers: adminHeaders,
        })
      ).json();
      expect(plain).toMatchObject({ outputRetained: true });
      expect(plain).not.toHaveProperty('output');
      const withOutput = (
        await app.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/remediations/${executionId}?includeOutput=true`,
          headers: adminHeaders,
        })
      ).json();
      expect(withOutput.outputState).toBe('retained');
      expect(withOutput.output.startsWith('Firewall is enabled.')).toBe(true);
      expect(withOutput.output.endsWith('exit ok')).toBe(true);
      expect(Buffer.byteLength(withOutput.output)).toBeLessThanOrEqual(8192);

      clock.advance(30 * 24 * hour);
      expect(
        (
          await app.inject({
            method: 'GET',
            url: `/admin/orgs/${orgId}/remediations/${executionId}?includeOutput=true`,
            headers: adminHeaders,
          })
        ).json(),
      ).toMatchObject({ status: 'ran', outputRetained: false, output: null, outputState: 'expired' });
      expect(
        (await store.db.query('SELECT output_sealed FROM ev_remediations WHERE output_sealed IS NOT NULL')).rows,
      ).toHaveLength(0);
    });
  });

  describe('without GW_CONTENT_KEY', () => {
    const service = evidencePerTest();

    it('discards output unread', async () => {
      const { app, store } = service();
      const { orgId, hostId, orbitKey } = await failingMac(app);
      const executionId = (await remediate(app, orgId, hostId, { policyName: 'macos-firewall' })).json().remediations[0]
        .executionId as string;
      await agentPost(app, '/api/fleet/orbit/scripts/request', { orbit_node_key: orbitKey, execution_id: executionId });
      await agentPost(app, '/api/fleet/orbit/scripts/result', {
        orbit_node_key: orbitKey,
        execution_id: executionId,
        output: 'Firewall is enabled.',
        runtime: 1,
        exit_code: 0,
      });
      expect(
        (
          await app.inject({
            method: 'GET',
            url: `/admin/orgs/${orgId}/remediations/${executionId}?includeOutput=true`,
            headers: adminHeaders,
          })
        ).json(),
      ).toMatchObject({ output: null, outputState: 'not-retained' });
      expect((await store.db.query('SELECT 1 FROM ev_remediations WHERE output_sealed IS NOT NULL')).rows).toHaveLength(
        0,
      );
    });
  });
});
