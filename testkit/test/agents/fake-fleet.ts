import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { SimulatedAgentError } from '../../src/agents/agent-error.js';
import { startSimulatedHost, type SimulatedHost, type SimulatedHostOptions } from '../../src/agents/simulated-host.js';

// ---- a recording Fleet-shaped server: the minimum of /api/v1/osquery/* and /api/fleet/orbit/* the host needs ----

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Canned {
  status: number;
  body: unknown;
}

export interface FakeFleet {
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

export const SECRET = 'enroll-secret-for-tests';
export const OSQUERY = '/api/v1/osquery';
export const ORBIT = '/api/fleet/orbit';
export const fleetError = (message: string) => ({ message, errors: [{ name: 'base', reason: message }] });
export const agentConfig = {
  options: { distributed_interval: 60, distributed_plugin: 'tls' },
  schedule: {},
  decorators: {},
};

export async function startFakeFleet(): Promise<FakeFleet> {
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
      if (body.enroll_secret !== SECRET)
        return { status: 401, body: { node_invalid: true, error: 'invalid enroll secret' } };
      const nodeKey = `osquery-key-${(issued += 1)}`;
      osqueryKeys.add(nodeKey);
      return { status: 200, body: { node_key: nodeKey, node_invalid: false } };
    }
    if (path.startsWith(OSQUERY)) {
      if (!osqueryKeys.has(String(body.node_key)))
        return { status: 401, body: { node_invalid: true, error: 'invalid node key' } };
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
        return {
          status: 200,
          body: {
            script_execution_timeout: 300,
            notifications: state.pending.length > 0 ? { pending_script_execution_ids: [...state.pending] } : {},
          },
        };
      case `${ORBIT}/scripts/request`: {
        const script = state.scripts[executionId];
        if (!script) return { status: 404, body: fleetError('The script execution was not found for this host.') };
        return {
          status: 200,
          body: {
            execution_id: executionId,
            script_contents: script.contents,
            output: '',
            runtime: 0,
            exit_code: script.exitCode,
          },
        };
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

// ---- the host under test, on a fresh fake server per test ----

export const NOW = Date.parse('2026-03-02T09:05:00.000Z');
export const UUID = 'A1B2C3D4-0000-4000-8000-000000000001';
export const SERIAL = 'C02XL0GYJGH5';

/** The fake server of the running test (a live binding: each test starts its own). */
export let fleet: FakeFleet;
/** Calls made before the test's own (enrollment in `enrolledHost`), left out of `calls`. */
let callsBefore = 0;
afterEach(async () => {
  await fleet.close();
});

export async function hostOnFleet(options: Partial<SimulatedHostOptions> = {}): Promise<SimulatedHost> {
  fleet = await startFakeFleet();
  callsBefore = 0;
  return startSimulatedHost({
    baseUrl: fleet.url,
    enrollSecret: SECRET,
    hostname: 'ada-mbp',
    hardwareUuid: UUID,
    hardwareSerial: SERIAL,
    now: () => NOW,
    ...options,
  });
}

export async function enrolledHost(options: Partial<SimulatedHostOptions> = {}): Promise<SimulatedHost> {
  const host = await hostOnFleet(options);
  await host.enroll();
  fleet.received.length = 0;
  callsBefore = host.requests.length;
  return host;
}

export const calls = (host: SimulatedHost) =>
  host.requests.slice(callsBefore).map((request) => `${request.path} ${request.status}`);

export async function rejection(promise: Promise<unknown>): Promise<SimulatedAgentError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SimulatedAgentError)) throw new Error(`expected a SimulatedAgentError, got ${String(error)}`);
  return error;
}

/** A fake server for a test that builds its hosts itself. */
export async function fleetOnly(): Promise<FakeFleet> {
  fleet = await startFakeFleet();
  return fleet;
}
