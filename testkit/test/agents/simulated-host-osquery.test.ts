// The fleetd host simulator against a recording Fleet-shaped server: enrollment, osquery check-ins, re-enrollment.
import { describe, expect, it } from 'vitest';

import { answersFor } from '../../src/agents/answers-for.js';
import { startSimulatedHost } from '../../src/agents/simulated-host.js';
import {
  NOW,
  ORBIT,
  OSQUERY,
  SECRET,
  SERIAL,
  UUID,
  calls,
  enrolledHost,
  fleet,
  fleetError,
  fleetOnly,
  hostOnFleet,
  rejection,
} from './fake-fleet.js';

describe('enrollment', () => {
  it('enrolls orbit, then osquery, with the bodies fleetd sends', async () => {
    const host = await hostOnFleet();
    await host.enroll();

    expect(fleet.received.map((entry) => entry.path)).toEqual([`${ORBIT}/enroll`, `${OSQUERY}/enroll`]);
    expect(fleet.bodiesTo(`${ORBIT}/enroll`)).toEqual([
      {
        enroll_secret: SECRET,
        hardware_uuid: UUID,
        hardware_serial: SERIAL,
        hostname: 'ada-mbp',
        platform: 'darwin',
        osquery_identifier: '',
        computer_name: 'ada-mbp',
        hardware_model: 'MacBookPro18,3',
      },
    ]);
    expect(fleet.bodiesTo(`${OSQUERY}/enroll`)).toEqual([
      {
        enroll_secret: SECRET,
        host_identifier: UUID,
        platform_type: '21',
        host_details: {
          os_version: {
            name: 'macOS',
            version: '14.5',
            major: '14',
            minor: '5',
            patch: '0',
            build: '23F79',
            platform: 'darwin',
            platform_like: 'darwin',
            codename: '',
            arch: 'arm64',
          },
          osquery_info: {
            pid: '4242',
            uuid: UUID,
            instance_id: host.identity.osqueryInstanceId,
            version: '5.13.1',
            build_platform: 'darwin',
            build_distro: '10.14',
            start_time: String(NOW / 1000),
            watcher: '4241',
            platform_mask: '21',
          },
          system_info: {
            hostname: 'ada-mbp',
            uuid: UUID,
            cpu_brand: 'Apple M1 Pro',
            physical_memory: '17179869184',
            hardware_vendor: 'Apple Inc.',
            hardware_model: 'MacBookPro18,3',
            hardware_serial: SERIAL,
            computer_name: 'ada-mbp',
            local_hostname: 'ada-mbp',
          },
        },
      },
    ]);
    expect(host.nodeKey).toBe('osquery-key-2');
    expect(host.orbitNodeKey).toBe('orbit-key-1');
    expect(host.identity.osqueryInstanceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends JSON as osquery does, and orbit’s bodies without a content-type as its Go client does', async () => {
    const host = await hostOnFleet();
    await host.enroll();

    const [orbitEnroll, osqueryEnroll] = fleet.received;
    expect(orbitEnroll?.headers['content-type']).toBeUndefined();
    expect(osqueryEnroll?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'osquery/5.13.1',
    });
  });

  it('reports a Linux host with its distribution as the platform and osquery’s Linux platform mask', async () => {
    const host = await hostOnFleet({ platform: 'linux' });
    await host.enroll();

    expect(fleet.bodiesTo(`${ORBIT}/enroll`)[0]).toMatchObject({ platform: 'ubuntu', hardware_model: '20XW0055US' });
    expect(fleet.bodiesTo(`${OSQUERY}/enroll`)[0]).toMatchObject({
      platform_type: '9',
      host_details: { os_version: { platform: 'ubuntu', name: 'Ubuntu' } },
    });
  });

  it('generates a distinct upper-case hardware UUID and serial per host, and reports the UUID as osquery_info.uuid', async () => {
    await fleetOnly();
    const first = startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET });
    const second = startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET });

    expect(first.identity.hardwareUuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(first.identity.hardwareUuid).not.toBe(second.identity.hardwareUuid);
    expect(first.identity.hardwareSerial).toMatch(/^[A-Z0-9]{12}$/);
    expect(first.identity.osqueryUuid).toBe(first.identity.hardwareUuid);
    expect(
      startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET, osqueryUuid: 'other' }).identity.osqueryUuid,
    ).toBe('other');
  });

  it('throws enroll_refused with orbit’s error message when the secret is refused, and never sends osquery’s enroll', async () => {
    const host = await hostOnFleet({ enrollSecret: 'wrong-secret' });
    const error = await rejection(host.enroll());

    expect(error).toMatchObject({ code: 'enroll_refused', path: `${ORBIT}/enroll`, status: 401 });
    expect(error.message).toBe(`POST ${ORBIT}/enroll: enrollment refused: invalid enroll secret`);
    expect(calls(host)).toEqual([`${ORBIT}/enroll 401`]);
  });

  it('throws enroll_refused when osquery reads node_invalid on its enroll', async () => {
    const host = await hostOnFleet();
    fleet.answerNext(`${OSQUERY}/enroll`, 401, { node_invalid: true, error: 'invalid enroll secret' });
    const error = await rejection(host.enroll());

    expect(error).toMatchObject({ code: 'enroll_refused', path: `${OSQUERY}/enroll`, status: 401 });
    expect(error.message).toContain('invalid enroll secret');
    expect(host.nodeKey).toBeNull();
  });

  it('records paths and statuses only, never the secret or a node key', async () => {
    const host = await hostOnFleet();
    await host.enroll();
    await host.checkIn();

    expect(host.requests.every((request) => Object.keys(request).sort().join() === 'path,status')).toBe(true);
    const recorded = JSON.stringify(host.requests);
    expect(recorded).not.toContain(SECRET);
    expect(recorded).not.toContain('-key-');
  });
});

describe('osquery check-in', () => {
  it('evaluates each distributed query through the resolver and writes rows, statuses, messages and stats', async () => {
    const host = await enrolledHost({
      answer: (sql) => {
        if (sql.includes('FROM alf')) return [{ '1': '1' }];
        if (sql.includes('FROM screenlock')) return [];
        return { error: 'no such table: disk_encryption' };
      },
    });
    fleet.queries = {
      gw_policy_screen_lock: 'SELECT 1 FROM screenlock WHERE enabled = 1;',
      gw_policy_firewall: 'SELECT 1 FROM alf WHERE global_state >= 1;',
      gw_policy_disk: 'SELECT 1 FROM disk_encryption WHERE encrypted = 1;',
    };
    const summary = await host.checkIn();

    expect(calls(host)).toEqual([
      `${OSQUERY}/config 200`,
      `${OSQUERY}/distributed/read 200`,
      `${OSQUERY}/distributed/write 200`,
      `${OSQUERY}/log 200`,
      `${ORBIT}/config 200`,
    ]);
    const stats = { wall_time_ms: 0, user_time: 0, system_time: 0, memory: 0 };
    expect(fleet.bodiesTo(`${OSQUERY}/distributed/write`)).toEqual([
      {
        node_key: 'osquery-key-2',
        queries: { gw_policy_disk: [], gw_policy_firewall: [{ '1': '1' }], gw_policy_screen_lock: [] },
        statuses: { gw_policy_disk: 1, gw_policy_firewall: 0, gw_policy_screen_lock: 0 },
        messages: {
          gw_policy_disk: 'no such table: disk_encryption',
          gw_policy_firewall: '',
          gw_policy_screen_lock: '',
        },
        stats: { gw_policy_disk: stats, gw_policy_firewall: stats, gw_policy_screen_lock: stats },
      },
    ]);
    expect(summary.queries.map((run) => [run.name, run.status, run.rows.length, run.message])).toEqual([
      ['gw_policy_disk', 1, 0, 'no such table: disk_encryption'],
      ['gw_policy_firewall', 0, 1, ''],
      ['gw_policy_screen_lock', 0, 0, ''],
    ]);
    expect(summary.scripts).toEqual([]);
  });

  it('sends config and distributed/read with only the node key', async () => {
    const host = await enrolledHost();
    await host.checkIn();

    expect(fleet.bodiesTo(`${OSQUERY}/config`)).toEqual([{ node_key: 'osquery-key-2' }]);
    expect(fleet.bodiesTo(`${OSQUERY}/distributed/read`)).toEqual([{ node_key: 'osquery-key-2' }]);
    expect(fleet.bodiesTo(`${ORBIT}/config`)).toEqual([{ orbit_node_key: 'orbit-key-1' }]);
  });

  it('sends a status log of osquery’s lines for the run, timed by the host clock', async () => {
    const host = await enrolledHost({
      answer: answersFor({ 'FROM alf': true, 'FROM disk': { error: 'no such table: disk' } }),
    });
    fleet.queries = { gw_policy_firewall: 'SELECT 1 FROM alf;', gw_policy_disk: 'SELECT 1 FROM disk;' };
    await host.checkIn();

    const line = {
      hostIdentifier: UUID,
      calendarTime: 'Mon Mar  2 09:05:00 2026 UTC',
      unixTime: NOW / 1000,
      filename: 'distributed.cpp',
      version: '5.13.1',
    };
    expect(fleet.bodiesTo(`${OSQUERY}/log`)).toEqual([
      {
        node_key: 'osquery-key-2',
        log_type: 'status',
        data: [
          {
            ...line,
            severity: 0,
            line: 112,
            message: 'Executing distributed query: gw_policy_disk: SELECT 1 FROM disk;',
          },
          {
            ...line,
            severity: 2,
            line: 123,
            message: 'Error executing distributed query: gw_policy_disk: no such table: disk',
          },
          {
            ...line,
            severity: 0,
            line: 112,
            message: 'Executing distributed query: gw_policy_firewall: SELECT 1 FROM alf;',
          },
        ],
      },
    ]);
  });

  it('writes nothing and logs nothing when there is no query to run, as osquery sends nothing empty', async () => {
    const host = await enrolledHost();
    const summary = await host.checkIn();

    expect(calls(host)).toEqual([`${OSQUERY}/config 200`, `${OSQUERY}/distributed/read 200`, `${ORBIT}/config 200`]);
    expect(summary).toEqual({ queries: [], scripts: [] });
  });

  it('sends every row value as a string and uses the resolver set later', async () => {
    const host = await enrolledHost();
    host.setAnswer(() => [{ enabled: 1 as unknown as string, name: 'alf' }]);
    fleet.queries = { gw_policy_firewall: 'SELECT enabled, name FROM alf;' };
    await host.checkIn();

    expect(fleet.bodiesTo(`${OSQUERY}/distributed/write`)[0]?.queries).toEqual({
      gw_policy_firewall: [{ enabled: '1', name: 'alf' }],
    });
  });

  it('enrolls osquery and orbit first when the host has no node keys', async () => {
    const host = await enrolledHost();
    host.forgetNodeKeys();
    expect([host.nodeKey, host.orbitNodeKey]).toEqual([null, null]);
    await host.checkIn();

    expect(calls(host)).toEqual([
      `${OSQUERY}/enroll 200`,
      `${OSQUERY}/config 200`,
      `${OSQUERY}/distributed/read 200`,
      `${ORBIT}/enroll 200`,
      `${ORBIT}/config 200`,
    ]);
    expect([host.nodeKey, host.orbitNodeKey]).toEqual(['osquery-key-3', 'orbit-key-4']);
  });
});

describe('re-enrollment', () => {
  it('re-enrolls each agent with the same secret on a 401 node_invalid and retries the call once', async () => {
    const host = await enrolledHost();
    fleet.invalidateNodeKeys();
    await host.checkIn();

    expect(calls(host)).toEqual([
      `${OSQUERY}/config 401`,
      `${OSQUERY}/enroll 200`,
      `${OSQUERY}/config 200`,
      `${OSQUERY}/distributed/read 200`,
      `${ORBIT}/config 401`,
      `${ORBIT}/enroll 200`,
      `${ORBIT}/config 200`,
    ]);
    expect(fleet.bodiesTo(`${OSQUERY}/enroll`)[0]?.enroll_secret).toBe(SECRET);
    expect(fleet.bodiesTo(`${ORBIT}/enroll`)[0]?.enroll_secret).toBe(SECRET);
    expect(fleet.bodiesTo(`${OSQUERY}/config`).map((body) => body.node_key)).toEqual([
      'osquery-key-2',
      'osquery-key-3',
    ]);
    expect(fleet.bodiesTo(`${ORBIT}/config`).map((body) => body.orbit_node_key)).toEqual([
      'orbit-key-1',
      'orbit-key-4',
    ]);
    expect([host.nodeKey, host.orbitNodeKey]).toEqual(['osquery-key-3', 'orbit-key-4']);
  });

  it('re-enrolls in the middle of a check-in and writes the results under the new key', async () => {
    const host = await enrolledHost({ answer: answersFor({ 'FROM alf': true }) });
    fleet.queries = { gw_policy_firewall: 'SELECT 1 FROM alf;' };
    fleet.answerNext(`${OSQUERY}/distributed/write`, 401, { node_invalid: true, error: 'invalid node key' });
    await host.checkIn();

    expect(calls(host).slice(2, 5)).toEqual([
      `${OSQUERY}/distributed/write 401`,
      `${OSQUERY}/enroll 200`,
      `${OSQUERY}/distributed/write 200`,
    ]);
    const writes = fleet.bodiesTo(`${OSQUERY}/distributed/write`);
    expect(writes.map((body) => body.node_key)).toEqual(['osquery-key-2', 'osquery-key-3']);
    expect(writes[1]?.queries).toEqual(writes[0]?.queries);
  });

  it('gives up with node_invalid when osquery’s retry is refused again', async () => {
    const host = await enrolledHost();
    const invalid = { node_invalid: true, error: 'invalid node key' };
    fleet.answerNext(`${OSQUERY}/config`, 401, invalid);
    fleet.answerNext(`${OSQUERY}/config`, 401, invalid);
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'node_invalid', path: `${OSQUERY}/config`, status: 401 });
    expect(calls(host)).toEqual([`${OSQUERY}/config 401`, `${OSQUERY}/enroll 200`, `${OSQUERY}/config 401`]);
  });

  it('gives up with node_invalid when orbit’s retry is refused again', async () => {
    const host = await enrolledHost();
    fleet.answerNext(`${ORBIT}/config`, 401, fleetError('invalid node key'));
    fleet.answerNext(`${ORBIT}/config`, 401, fleetError('invalid node key'));
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'node_invalid', path: `${ORBIT}/config`, status: 401 });
    expect(calls(host).slice(-3)).toEqual([`${ORBIT}/config 401`, `${ORBIT}/enroll 200`, `${ORBIT}/config 401`]);
  });
});
