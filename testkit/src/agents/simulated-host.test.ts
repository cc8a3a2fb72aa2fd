import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  orbitDeviceTokenRequest,
  orbitEnrollRequest,
  orbitNodeRequest,
  orbitScriptRequest,
  orbitScriptResultRequest,
  osqueryDistributedWriteRequest,
  osqueryEnrollRequest,
  osqueryLogRequest,
  osqueryNodeRequest,
} from '@gw/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedAgentError } from './agent-error.js';
import { answersFor } from './answers-for.js';
import { startSimulatedHost, type SimulatedHost, type SimulatedHostOptions } from './simulated-host.js';

// ---- a recording Fleet-shaped server: the minimum of /api/v1/osquery/* and /api/fleet/orbit/* the host needs ----

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

interface Canned {
  status: number;
  body: unknown;
}

interface FakeFleet {
  url: string;
  received: Received[];
  /** What distributed/read answers. */
  queries: Record<string, string>;
  /** Execution ids orbit's config lists; a posted result removes its id. */
  pending: string[];
  scripts: Record<string, { contents: string; exitCode: number | null }>;
  /** Forget every node key it issued (as after a host was deleted): the next node-keyed call answers 401. */
  invalidateNodeKeys(): void;
  /** Answer the next request to `path` with this status and body (a string is sent verbatim). */
  answerNext(path: string, status: number, body: unknown): void;
  bodiesTo(path: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const SECRET = 'enroll-secret-for-tests';
const OSQUERY = '/api/v1/osquery';
const ORBIT = '/api/fleet/orbit';
const fleetError = (message: string) => ({ message, errors: [{ name: 'base', reason: message }] });
const agentConfig = { options: { distributed_interval: 60, distributed_plugin: 'tls' }, schedule: {}, decorators: {} };

async function startFakeFleet(): Promise<FakeFleet> {
  const received: Received[] = [];
  const canned = new Map<string, Canned[]>();
  const osqueryKeys = new Set<string>();
  const orbitKeys = new Set<string>();
  let issued = 0;
  const state = { queries: {} as Record<string, string>, pending: [] as string[], scripts: {} as FakeFleet['scripts'] };

  const route = (path: string, body: Record<string, unknown>): Canned => {
    const next = canned.get(path)?.shift();
    if (next) return next;
    if (path === `${OSQUERY}/enroll`) {
      if (body.enroll_secret !== SECRET) return { status: 401, body: { node_invalid: true, error: 'invalid enroll secret' } };
      const nodeKey = `osquery-key-${(issued += 1)}`;
      osqueryKeys.add(nodeKey);
      return { status: 200, body: { node_key: nodeKey, node_invalid: false } };
    }
    if (path.startsWith(OSQUERY)) {
      if (!osqueryKeys.has(String(body.node_key))) return { status: 401, body: { node_invalid: true, error: 'invalid node key' } };
      if (path === `${OSQUERY}/config`) return { status: 200, body: agentConfig };
      if (path === `${OSQUERY}/distributed/read`) return { status: 200, body: { queries: state.queries } };
      return { status: 200, body: {} };
    }
    if (path === `${ORBIT}/enroll`) {
      if (body.enroll_secret !== SECRET) return { status: 401, body: fleetError('invalid enroll secret') };
      const nodeKey = `orbit-key-${(issued += 1)}`;
      orbitKeys.add(nodeKey);
      return { status: 200, body: { orbit_node_key: nodeKey } };
    }
    if (!orbitKeys.has(String(body.orbit_node_key))) return { status: 401, body: fleetError('invalid node key') };
    return routeOrbit(path, body);
  };

  const routeOrbit = (path: string, body: Record<string, unknown>): Canned => {
    const executionId = String(body.execution_id);
    switch (path) {
      case `${ORBIT}/config`:
        return { status: 200, body: { script_execution_timeout: 300, notifications: state.pending.length > 0 ? { pending_script_execution_ids: [...state.pending] } : {} } };
      case `${ORBIT}/scripts/request`: {
        const script = state.scripts[executionId];
        if (!script) return { status: 404, body: fleetError('The script execution was not found for this host.') };
        return { status: 200, body: { execution_id: executionId, script_contents: script.contents, output: '', runtime: 0, exit_code: script.exitCode } };
      }
      case `${ORBIT}/scripts/result`:
        state.pending = state.pending.filter((pending) => pending !== executionId);
        return { status: 200, body: {} };
      default:
        return { status: 200, body: {} };
    }
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      received.push({ path, headers: request.headers, body });
      const answer = route(path, body);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    get queries() {
      return state.queries;
    },
    set queries(queries) {
      state.queries = queries;
    },
    get pending() {
      return state.pending;
    },
    set pending(pending) {
      state.pending = pending;
    },
    get scripts() {
      return state.scripts;
    },
    set scripts(scripts) {
      state.scripts = scripts;
    },
    invalidateNodeKeys() {
      osqueryKeys.clear();
      orbitKeys.clear();
    },
    answerNext(path, status, body) {
      canned.set(path, [...(canned.get(path) ?? []), { status, body }]);
    },
    bodiesTo: (path) => received.filter((entry) => entry.path === path).map((entry) => entry.body),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---- the tests ----

const NOW = Date.parse('2026-03-02T09:05:00.000Z');
const UUID = 'A1B2C3D4-0000-4000-8000-000000000001';
const SERIAL = 'C02XL0GYJGH5';

let fleet: FakeFleet;
/** Calls made before the test's own (enrollment in `enrolledHost`), left out of `calls`. */
let callsBefore = 0;
afterEach(async () => {
  await fleet.close();
});

async function hostOnFleet(options: Partial<SimulatedHostOptions> = {}): Promise<SimulatedHost> {
  fleet = await startFakeFleet();
  callsBefore = 0;
  return startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET, hostname: 'ada-mbp', hardwareUuid: UUID, hardwareSerial: SERIAL, now: () => NOW, ...options });
}

async function enrolledHost(options: Partial<SimulatedHostOptions> = {}): Promise<SimulatedHost> {
  const host = await hostOnFleet(options);
  await host.enroll();
  fleet.received.length = 0;
  callsBefore = host.requests.length;
  return host;
}

const calls = (host: SimulatedHost) => host.requests.slice(callsBefore).map((request) => `${request.path} ${request.status}`);

async function rejection(promise: Promise<unknown>): Promise<SimulatedAgentError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SimulatedAgentError)) throw new Error(`expected a SimulatedAgentError, got ${String(error)}`);
  return error;
}

describe('enrollment', () => {
  it('enrolls orbit, then osquery, with the bodies fleetd sends', async () => {
    const host = await hostOnFleet();
    await host.enroll();

    expect(fleet.received.map((entry) => entry.path)).toEqual([`${ORBIT}/enroll`, `${OSQUERY}/enroll`]);
    expect(fleet.bodiesTo(`${ORBIT}/enroll`)).toEqual([
      { enroll_secret: SECRET, hardware_uuid: UUID, hardware_serial: SERIAL, hostname: 'ada-mbp', platform: 'darwin', osquery_identifier: '', computer_name: 'ada-mbp', hardware_model: 'MacBookPro18,3' },
    ]);
    expect(fleet.bodiesTo(`${OSQUERY}/enroll`)).toEqual([
      {
        enroll_secret: SECRET,
        host_identifier: UUID,
        platform_type: '21',
        host_details: {
          os_version: { name: 'macOS', version: '14.5', major: '14', minor: '5', patch: '0', build: '23F79', platform: 'darwin', platform_like: 'darwin', codename: '', arch: 'arm64' },
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
    expect(osqueryEnroll?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'osquery/5.13.1' });
  });

  it('reports a Linux host with its distribution as the platform and osquery’s Linux platform mask', async () => {
    const host = await hostOnFleet({ platform: 'linux' });
    await host.enroll();

    expect(fleet.bodiesTo(`${ORBIT}/enroll`)[0]).toMatchObject({ platform: 'ubuntu', hardware_model: '20XW0055US' });
    expect(fleet.bodiesTo(`${OSQUERY}/enroll`)[0]).toMatchObject({ platform_type: '9', host_details: { os_version: { platform: 'ubuntu', name: 'Ubuntu' } } });
  });

  it('generates a distinct upper-case hardware UUID and serial per host, and reports the UUID as osquery_info.uuid', async () => {
    fleet = await startFakeFleet();
    const first = startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET });
    const second = startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET });

    expect(first.identity.hardwareUuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(first.identity.hardwareUuid).not.toBe(second.identity.hardwareUuid);
    expect(first.identity.hardwareSerial).toMatch(/^[A-Z0-9]{12}$/);
    expect(first.identity.osqueryUuid).toBe(first.identity.hardwareUuid);
    expect(startSimulatedHost({ baseUrl: fleet.url, enrollSecret: SECRET, osqueryUuid: 'other' }).identity.osqueryUuid).toBe('other');
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
        messages: { gw_policy_disk: 'no such table: disk_encryption', gw_policy_firewall: '', gw_policy_screen_lock: '' },
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
    const host = await enrolledHost({ answer: answersFor({ 'FROM alf': true, 'FROM disk': { error: 'no such table: disk' } }) });
    fleet.queries = { gw_policy_firewall: 'SELECT 1 FROM alf;', gw_policy_disk: 'SELECT 1 FROM disk;' };
    await host.checkIn();

    const line = { hostIdentifier: UUID, calendarTime: 'Mon Mar  2 09:05:00 2026 UTC', unixTime: NOW / 1000, filename: 'distributed.cpp', version: '5.13.1' };
    expect(fleet.bodiesTo(`${OSQUERY}/log`)).toEqual([
      {
        node_key: 'osquery-key-2',
        log_type: 'status',
        data: [
          { ...line, severity: 0, line: 112, message: 'Executing distributed query: gw_policy_disk: SELECT 1 FROM disk;' },
          { ...line, severity: 2, line: 123, message: 'Error executing distributed query: gw_policy_disk: no such table: disk' },
          { ...line, severity: 0, line: 112, message: 'Executing distributed query: gw_policy_firewall: SELECT 1 FROM alf;' },
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

    expect(fleet.bodiesTo(`${OSQUERY}/distributed/write`)[0]?.queries).toEqual({ gw_policy_firewall: [{ enabled: '1', name: 'alf' }] });
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
    expect(fleet.bodiesTo(`${OSQUERY}/config`).map((body) => body.node_key)).toEqual(['osquery-key-2', 'osquery-key-3']);
    expect(fleet.bodiesTo(`${ORBIT}/config`).map((body) => body.orbit_node_key)).toEqual(['orbit-key-1', 'orbit-key-4']);
    expect([host.nodeKey, host.orbitNodeKey]).toEqual(['osquery-key-3', 'orbit-key-4']);
  });

  it('re-enrolls in the middle of a check-in and writes the results under the new key', async () => {
    const host = await enrolledHost({ answer: answersFor({ 'FROM alf': true }) });
    fleet.queries = { gw_policy_firewall: 'SELECT 1 FROM alf;' };
    fleet.answerNext(`${OSQUERY}/distributed/write`, 401, { node_invalid: true, error: 'invalid node key' });
    await host.checkIn();

    expect(calls(host).slice(2, 5)).toEqual([`${OSQUERY}/distributed/write 401`, `${OSQUERY}/enroll 200`, `${OSQUERY}/distributed/write 200`]);
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

describe('orbit scripts', () => {
  it('requests, runs and posts each pending script in order, with the timeout it ran under', async () => {
    const ran: string[] = [];
    const host = await enrolledHost({
      runScript: (contents, executionId) => {
        ran.push(`${executionId}:${contents}`);
        return executionId === 'exec-1' ? { exitCode: 0, output: 'fixed\n', runtimeSeconds: 2.9 } : { exitCode: 3, output: 'still broken' };
      },
    });
    fleet.pending = ['exec-1', 'exec-2'];
    fleet.scripts = { 'exec-1': { contents: 'defaults write a b', exitCode: null }, 'exec-2': { contents: 'fdesetup enable', exitCode: null } };
    const summary = await host.checkIn();

    expect(ran).toEqual(['exec-1:defaults write a b', 'exec-2:fdesetup enable']);
    expect(calls(host).slice(-5)).toEqual([
      `${ORBIT}/config 200`,
      `${ORBIT}/scripts/request 200`,
      `${ORBIT}/scripts/result 200`,
      `${ORBIT}/scripts/request 200`,
      `${ORBIT}/scripts/result 200`,
    ]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/request`)).toEqual([
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-1' },
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-2' },
    ]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-1', exit_code: 0, output: 'fixed\n', runtime: 2, timeout: 300 },
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-2', exit_code: 3, output: 'still broken', runtime: 0, timeout: 300 },
    ]);
    expect(summary.scripts).toEqual([
      { executionId: 'exec-1', outcome: 'exited', exitCode: 0 },
      { executionId: 'exec-2', outcome: 'exited', exitCode: 3 },
    ]);
    expect(fleet.pending).toEqual([]);
  });

  it('posts exit code -1 with the timeout, the full runtime and Go’s kill message for a script killed at its deadline', async () => {
    const host = await enrolledHost({ runScript: () => 'timeout' });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'sleep 999', exitCode: null } };
    const summary = await host.checkIn();

    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([
      { orbit_node_key: 'orbit-key-1', execution_id: 'exec-1', exit_code: -1, output: '\nscript execution error: signal: killed', runtime: 300, timeout: 300 },
    ]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'timed_out', exitCode: -1 }]);
  });

  it('posts nothing after a crash and fetches no further script, leaving the executions pending', async () => {
    const host = await enrolledHost();
    host.setRunScript(() => 'crash');
    fleet.pending = ['exec-1', 'exec-2'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: null }, 'exec-2': { contents: 'b', exitCode: null } };
    const summary = await host.checkIn();

    expect(calls(host).slice(-2)).toEqual([`${ORBIT}/config 200`, `${ORBIT}/scripts/request 200`]);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'crashed', exitCode: null }]);
    expect(fleet.pending).toEqual(['exec-1', 'exec-2']);
  });

  it('skips an execution the server already has a result for, as orbit does', async () => {
    let runs = 0;
    const host = await enrolledHost({
      runScript: () => {
        runs += 1;
        return { exitCode: 0, output: '' };
      },
    });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: 0 } };
    const summary = await host.checkIn();

    expect(runs).toBe(0);
    expect(fleet.bodiesTo(`${ORBIT}/scripts/result`)).toEqual([]);
    expect(summary.scripts).toEqual([{ executionId: 'exec-1', outcome: 'skipped', exitCode: 0 }]);
  });

  it('keeps only the last 40 000 bytes of a long output, as orbit does before posting', async () => {
    const host = await enrolledHost({ runScript: () => ({ exitCode: 0, output: `${'x'.repeat(50_000)}end` }) });
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'a', exitCode: null } };
    await host.checkIn();

    const output = String(fleet.bodiesTo(`${ORBIT}/scripts/result`)[0]?.output);
    expect(output).toHaveLength(40_000);
    expect(output.endsWith('xend')).toBe(true);
  });

  it('throws request_failed with Fleet’s message when a pending script cannot be fetched', async () => {
    const host = await enrolledHost();
    fleet.pending = ['exec-gone'];
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'request_failed', path: `${ORBIT}/scripts/request`, status: 404 });
    expect(error.message).toBe(`POST ${ORBIT}/scripts/request: status 404: The script execution was not found for this host.`);
  });
});

describe('device token', () => {
  it('posts the token under the orbit node key and answers the server’s acknowledgement', async () => {
    const host = await enrolledHost();
    const answer = await host.setDeviceToken('3e4f1c2a-8d9b-4c6e-a1f0-5b7d9e2c4a61');

    expect(answer).toEqual({ ok: true, status: 200, body: {} });
    expect(fleet.bodiesTo(`${ORBIT}/device_token`)).toEqual([{ orbit_node_key: 'orbit-key-1', device_auth_token: '3e4f1c2a-8d9b-4c6e-a1f0-5b7d9e2c4a61' }]);
  });

  it('answers a refusal with its status and Fleet error body instead of throwing', async () => {
    const host = await enrolledHost();
    fleet.answerNext(`${ORBIT}/device_token`, 409, fleetError('This device token belongs to another host.'));

    expect(await host.setDeviceToken('taken')).toEqual({ ok: false, status: 409, body: fleetError('This device token belongs to another host.') });
  });

  it('re-enrolls orbit on a 401 and sends the token again under the new key', async () => {
    const host = await enrolledHost();
    fleet.invalidateNodeKeys();
    const answer = await host.setDeviceToken('token-1');

    expect(answer.ok).toBe(true);
    expect(calls(host)).toEqual([`${ORBIT}/device_token 401`, `${ORBIT}/enroll 200`, `${ORBIT}/device_token 200`]);
    expect(fleet.bodiesTo(`${ORBIT}/device_token`).map((body) => body.orbit_node_key)).toEqual(['orbit-key-1', 'orbit-key-3']);
  });
});

describe('malformed and failed answers', () => {
  it.each([
    ['osquery config without options', `${OSQUERY}/config`, 200, { schedule: {} }, /^POST \/api\/v1\/osquery\/config: status 200 answer does not match the agent protocol \(options: /],
    ['distributed/read with a non-string query', `${OSQUERY}/distributed/read`, 200, { queries: { q: 1 } }, /^POST \/api\/v1\/osquery\/distributed\/read: .*\(queries\.q: /],
    ['a 401 without node_invalid', `${OSQUERY}/config`, 401, { error: 'nope' }, /^POST \/api\/v1\/osquery\/config: status 401 without the `\{node_invalid: true, error\}` body/],
    ['orbit config without a timeout', `${ORBIT}/config`, 200, { notifications: {} }, /^POST \/api\/fleet\/orbit\/config: .*\(script_execution_timeout: /],
    ['orbit config that is not JSON', `${ORBIT}/config`, 200, '<html>oops</html>', /^POST \/api\/fleet\/orbit\/config: status 200 with a body that is not JSON$/],
    ['an orbit 500 without Fleet’s error body', `${ORBIT}/config`, 500, { error: 'boom' }, /^POST \/api\/fleet\/orbit\/config: status 500 answer does not match .*\(message: /],
  ])('throws malformed_response naming the path for %s', async (_case, path, status, body, message) => {
    const host = await enrolledHost();
    fleet.answerNext(path, status, body);
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'malformed_response', path, status });
    expect(error.message).toMatch(message);
  });

  it('throws malformed_response for a distributed query with empty SQL, which osquery refuses', async () => {
    const host = await enrolledHost();
    fleet.queries = { gw_policy_firewall: '' };

    expect(await rejection(host.checkIn())).toMatchObject({ code: 'malformed_response', path: `${OSQUERY}/distributed/read` });
  });

  it('throws malformed_response for a script answer missing its contents', async () => {
    const host = await enrolledHost();
    fleet.pending = ['exec-1'];
    fleet.answerNext(`${ORBIT}/scripts/request`, 200, { execution_id: 'exec-1', output: '', runtime: 0, exit_code: null });
    const error = await rejection(host.checkIn());

    expect(error).toMatchObject({ code: 'malformed_response', path: `${ORBIT}/scripts/request` });
    expect(error.message).toContain('script_contents');
  });

  it('throws request_failed with the server’s error on an osquery 503, and on an error in a 200 body', async () => {
    const host = await enrolledHost();
    fleet.answerNext(`${OSQUERY}/config`, 503, { node_invalid: false, error: 'The store is unavailable.' });
    const unavailable = await rejection(host.checkIn());
    expect(unavailable).toMatchObject({ code: 'request_failed', status: 503 });
    expect(unavailable.message).toBe(`POST ${OSQUERY}/config: status 503: The store is unavailable.`);

    fleet.answerNext(`${OSQUERY}/distributed/read`, 200, { queries: {}, error: 'half done' });
    expect(await rejection(host.checkIn())).toMatchObject({ code: 'request_failed', path: `${OSQUERY}/distributed/read`, status: 200 });
  });

  it('throws unreachable naming the path when nothing answers', async () => {
    const host = await enrolledHost();
    await fleet.close();
    const error = await rejection(host.checkIn());
    fleet = await startFakeFleet();

    expect(error).toMatchObject({ code: 'unreachable', path: `${OSQUERY}/config` });
  });
});

describe('the wire contract', () => {
  it('sends only bodies the contract’s request schemas accept, over a full lifecycle', async () => {
    const host = await hostOnFleet({ platform: 'windows', answer: answersFor({ 'FROM bitlocker': true }) });
    await host.enroll();
    fleet.queries = { gw_policy_bitlocker: 'SELECT 1 FROM bitlocker_info;', gw_policy_defender: 'SELECT 1 FROM windows_security_center;' };
    fleet.pending = ['exec-1'];
    fleet.scripts = { 'exec-1': { contents: 'Enable-BitLocker', exitCode: null } };
    await host.checkIn();
    await host.setDeviceToken('token-1');

    const schemas = new Map<string, { safeParse(input: unknown): { success: boolean; error?: { issues: unknown } } }>([
      [`${OSQUERY}/enroll`, osqueryEnrollRequest],
      [`${OSQUERY}/config`, osqueryNodeRequest],
      [`${OSQUERY}/distributed/read`, osqueryNodeRequest],
      [`${OSQUERY}/distributed/write`, osqueryDistributedWriteRequest],
      [`${OSQUERY}/log`, osqueryLogRequest],
      [`${ORBIT}/enroll`, orbitEnrollRequest],
      [`${ORBIT}/config`, orbitNodeRequest],
      [`${ORBIT}/device_token`, orbitDeviceTokenRequest],
      [`${ORBIT}/scripts/request`, orbitScriptRequest],
      [`${ORBIT}/scripts/result`, orbitScriptResultRequest],
    ]);
    expect(new Set(fleet.received.map((entry) => entry.path))).toEqual(new Set(schemas.keys()));
    for (const entry of fleet.received) {
      const parsed = schemas.get(entry.path)!.safeParse(entry.body);
      expect(parsed.success, `${entry.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
