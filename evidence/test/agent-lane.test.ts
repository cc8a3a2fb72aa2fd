import { describe, expect, it } from 'vitest';
import { agentPost, orgWithEnrollSecret } from './agent-wire.js';
import { adminHeaders, evidencePerTest, evidenceStores } from './support.js';

const hardwareUuid = 'A1B2C3D4-0000-4000-8000-00000000CAFE';
const serial = 'C02XYZ123456';
const minute = 60_000;

const osqueryEnrollBody = (enrollSecret: string, platform = 'darwin') => ({
  enroll_secret: enrollSecret,
  host_identifier: hardwareUuid,
  platform_type: '21',
  host_details: {
    system_info: { uuid: hardwareUuid, hostname: 'alice-mbp.local', hardware_serial: serial },
    os_version: { platform, name: 'macOS', version: '15.1' },
    osquery_info: { uuid: 'osq-uuid-1', version: '5.14.1' },
  },
});

describe.each(evidenceStores)('the built-in agent lane: enrollment and policy checks on %s', (_name, open) => {
  const service = evidencePerTest(open);

  it('enrolls orbit and osquery of one machine as one host, keeping only hashes, and refuses a wrong secret in each protocol’s own words', async () => {
    const { app, store } = service();
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);

    const refusedOsquery = await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody('not-the-secret'));
    expect(refusedOsquery.statusCode).toBe(401);
    expect(refusedOsquery.json()).toEqual({ node_invalid: true, error: expect.any(String) });
    const refusedOrbit = await agentPost(app, '/api/fleet/orbit/enroll', {
      enroll_secret: 'not-the-secret',
      hardware_uuid: hardwareUuid,
    });
    expect(refusedOrbit.statusCode).toBe(401);
    expect(refusedOrbit.json()).toEqual({
      message: expect.any(String),
      errors: [{ name: 'base', reason: expect.any(String) }],
    });

    const orbit = await agentPost(app, '/api/fleet/orbit/enroll', {
      enroll_secret: enrollSecret,
      hardware_uuid: hardwareUuid,
      hardware_serial: serial,
      hostname: 'alice-mbp.local',
      platform: 'darwin',
      computer_name: 'Alice’s MacBook Pro',
    });
    expect(orbit.statusCode).toBe(200);
    const osquery = await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody(enrollSecret));
    expect(osquery.json()).toEqual({ node_key: expect.any(String), node_invalid: false });

    const hosts = (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json()
      .hosts;
    expect(hosts).toEqual([
      expect.objectContaining({ hostname: 'alice-mbp.local', platform: 'darwin', source: 'agent' }),
    ]);
    const stored = JSON.stringify([
      (await store.db.query('SELECT * FROM ev_hosts')).rows,
      (await store.db.query('SELECT * FROM ev_node_keys')).rows,
      (await store.db.query('SELECT * FROM ev_credentials')).rows,
    ]);
    for (const raw of [
      hardwareUuid,
      serial,
      'osq-uuid-1',
      enrollSecret,
      orbit.json().orbit_node_key,
      osquery.json().node_key,
    ])
      expect(stored).not.toContain(raw);
  });

  it('asks for the enabled checks of the host’s platform, records pass, fail and unknown, and asks again only when due', async () => {
    const { app, clock } = service();
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
    await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/policies/macos-system-integrity-protection`,
      headers: adminHeaders,
      payload: { enabled: false },
    });
    const nodeKey = (await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody(enrollSecret))).json()
      .node_key as string;

    const config = await agentPost(app, '/api/v1/osquery/config', { node_key: nodeKey });
    expect(config.json()).toMatchObject({ options: { distributed_interval: 60 }, schedule: {} });
    const read = (await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey })).json();
    expect(Object.keys(read.queries).sort()).toEqual([
      'gw_policy_macos-disk-encryption',
      'gw_policy_macos-firewall',
      'gw_policy_macos-screen-lock',
    ]);
    expect(read.queries['gw_policy_macos-screen-lock']).toContain('grace_period <= 15 * 60');

    const write = await agentPost(app, '/api/v1/osquery/distributed/write', {
      node_key: nodeKey,
      queries: {
        'gw_policy_macos-firewall': [],
        'gw_policy_macos-screen-lock': [{ '1': '1' }],
        'gw_policy_macos-disk-encryption': [],
        'gw_policy_macos-system-integrity-protection': [{ '1': '1' }],
      },
      statuses: {
        'gw_policy_macos-firewall': 0,
        'gw_policy_macos-screen-lock': 0,
        'gw_policy_macos-disk-encryption': 1,
      },
      messages: { 'gw_policy_macos-disk-encryption': 'no such table' },
    });
    expect(write.statusCode).toBe(200);
    expect(write.json()).toEqual({});
    const hostId = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })
    ).json().hosts[0].id as string;
    const detail = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts/${hostId}`, headers: adminHeaders })
    ).json();
    expect(
      detail.results.map((result: { policyName: string; response: string }) => [result.policyName, result.response]),
    ).toEqual([
      ['macos-disk-encryption', 'unknown'],
      ['macos-firewall', 'fail'],
      ['macos-screen-lock', 'pass'],
    ]);

    expect((await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey })).json()).toEqual({
      queries: {},
    });
    clock.advance(61 * minute);
    expect(
      Object.keys((await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey })).json().queries),
    ).toHaveLength(3);
    expect(
      (
        await agentPost(app, '/api/v1/osquery/log', {
          node_key: nodeKey,
          log_type: 'status',
          data: [{ message: 'secret-looking text' }],
        })
      ).json(),
    ).toEqual({});
  });

  it('sends a replaced, unknown or deleted host’s node key back to enroll; a rotated secret keeps enrolled hosts', async () => {
    const { app } = service();
    const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
    const first = (await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody(enrollSecret))).json()
      .node_key as string;
    const orbitKey = (
      await agentPost(app, '/api/fleet/orbit/enroll', { enroll_secret: enrollSecret, hardware_uuid: hardwareUuid })
    ).json().orbit_node_key as string;

    const rotated = await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/enroll-secret/rotate`,
      headers: adminHeaders,
    });
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect((await agentPost(app, '/api/v1/osquery/config', { node_key: first })).statusCode).toBe(200);
    expect((await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody(enrollSecret))).statusCode).toBe(401);
    const second = (
      await agentPost(app, '/api/v1/osquery/enroll', osqueryEnrollBody(rotated.json().enrollSecret))
    ).json().node_key as string;
    expect((await agentPost(app, '/api/v1/osquery/config', { node_key: first })).json()).toEqual({
      node_invalid: true,
      error: expect.any(String),
    });
    expect((await agentPost(app, '/api/v1/osquery/config', { node_key: second })).statusCode).toBe(200);
    expect((await agentPost(app, '/api/fleet/orbit/config', { orbit_node_key: orbitKey })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/enroll-secret`, headers: adminHeaders })).json(),
    ).toEqual({ hasSecret: true, createdAt: expect.any(String) });

    const hostId = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })
    ).json().hosts[0].id as string;
    expect(
      (await app.inject({ method: 'DELETE', url: `/admin/orgs/${orgId}/hosts/${hostId}`, headers: adminHeaders }))
        .statusCode,
    ).toBe(204);
    expect((await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: second })).statusCode).toBe(401);
    expect((await agentPost(app, '/api/fleet/orbit/config', { orbit_node_key: orbitKey })).json()).toEqual({
      message: expect.any(String),
      errors: [expect.objectContaining({ name: 'base' })],
    });

    expect(
      (await app.inject({ method: 'DELETE', url: `/admin/orgs/${orgId}/enroll-secret`, headers: adminHeaders }))
        .statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/enroll-secret`, headers: adminHeaders })).json(),
    ).toEqual({ hasSecret: false, createdAt: null });
  });

  it('refuses malformed agent bodies with 400 in the agent’s format, and a device token another host holds with 409', async () => {
    const { app } = service();
    const { enrollSecret } = await orgWithEnrollSecret(app);
    const missing = await agentPost(app, '/api/fleet/orbit/enroll', { enroll_secret: enrollSecret });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: expect.stringContaining('hardware_uuid') });
    expect(
      (await agentPost(app, '/api/fleet/orbit/enroll', { enroll_secret: enrollSecret, hardware_uuid: '   ' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await agentPost(app, '/api/v1/osquery/distributed/write', { node_key: 'x', queries: 'nope' })).json(),
    ).toMatchObject({ node_invalid: false });

    const first = (
      await agentPost(app, '/api/fleet/orbit/enroll', { enroll_secret: enrollSecret, hardware_uuid: 'uuid-one' })
    ).json().orbit_node_key as string;
    const second = (
      await agentPost(app, '/api/fleet/orbit/enroll', { enroll_secret: enrollSecret, hardware_uuid: 'uuid-two' })
    ).json().orbit_node_key as string;
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/device_token', {
          orbit_node_key: first,
          device_auth_token: 'token-of-the-first-host',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/device_token', {
          orbit_node_key: first,
          device_auth_token: 'token-of-the-first-host-2',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/device_token', {
          orbit_node_key: second,
          device_auth_token: 'token-of-the-first-host-2',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await agentPost(app, '/api/fleet/orbit/device_token', {
          orbit_node_key: second,
          device_auth_token: 'has space',
        })
      ).statusCode,
    ).toBe(400);
  });
});
