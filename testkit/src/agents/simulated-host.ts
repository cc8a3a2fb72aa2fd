import { createAgentTransport, type AgentRequestRecord } from './agent-transport.js';
import { runDistributedQueries, type QueryResolver, type QueryRun } from './distributed-queries.js';
import { hostIdentityOf, type HostIdentity, type SimulatedPlatform } from './host-identity.js';
import { OrbitAgent, type OrbitAnswer } from './orbit-agent.js';
import { OsqueryAgent } from './osquery-agent.js';
import { runPendingScripts, type ScriptRun, type ScriptRunner } from './script-runner.js';
import { distributedStatusLines } from './status-log.js';

export interface SimulatedHostOptions {
  /** The evidence service origin, e.g. `http://127.0.0.1:53121`. */
  baseUrl: string;
  enrollSecret: string;
  /** Default darwin. */
  platform?: SimulatedPlatform;
  /** `system_info.hostname` and `computer_name` (default `sim-` + 8 hex digits). */
  hostname?: string;
  /** Default a random upper-case UUID. */
  hardwareUuid?: string;
  /** Default 12 random characters. */
  hardwareSerial?: string;
  /** `osquery_info.uuid`. Real osquery reports the system UUID there, so the default is `hardwareUuid`. */
  osqueryUuid?: string;
  /** The host's answer to each distributed query (default: no rows). */
  answer?: QueryResolver;
  /** How the host runs each remediation script (default: exit 0, no output). */
  runScript?: ScriptRunner;
  /** The host's clock, in epoch milliseconds: status log times and osquery's start time (default `Date.now`). */
  now?: () => number;
  /** Default the global fetch. */
  fetch?: typeof fetch;
}

/** What one check-in did: the queries osquery ran (in name order) and the executions orbit handled (in server order). */
export interface CheckInSummary {
  queries: QueryRun[];
  scripts: ScriptRun[];
}

export interface SimulatedHost {
  readonly identity: HostIdentity;
  /** Enroll orbit, then osquery, as fleetd does on first start. */
  enroll(): Promise<void>;
  /**
   * osquery: config, distributed/read, evaluate, distributed/write and a status log (both only when a query ran, as
   * osquery sends nothing empty); then orbit: config, and request, run and post each pending script in order. An agent
   * without a node key enrolls first. Throws `SimulatedAgentError` on a refused call or a malformed answer.
   */
  checkIn(): Promise<CheckInSummary>;
  /** Orbit's `POST device_token`: the answer, or the status and Fleet error body of a refusal (a 401 re-enrolls first). */
  setDeviceToken(token: string): Promise<OrbitAnswer<Readonly<Record<string, unknown>>>>;
  setAnswer(answer: QueryResolver): void;
  setRunScript(runScript: ScriptRunner): void;
  /** osquery's current node key (null before enrolling). */
  readonly nodeKey: string | null;
  /** Orbit's current node key (null before enrolling). */
  readonly orbitNodeKey: string | null;
  /** Path and status of every call, retries and re-enrollments included, in order; no bodies, so no secrets. */
  readonly requests: readonly AgentRequestRecord[];
  /** Drop both node keys, as a reinstall would: the next call of each agent enrolls first. */
  forgetNodeKeys(): void;
}

/** A simulated endpoint running fleetd (orbit and osquery), speaking their wire to the evidence service. */
export function startSimulatedHost(options: SimulatedHostOptions): SimulatedHost {
  const now = options.now ?? Date.now;
  const transport = createAgentTransport({ baseUrl: options.baseUrl, fetch: options.fetch ?? globalThis.fetch });
  const identity = hostIdentityOf(options);
  const osquery = new OsqueryAgent({ transport, identity, enrollSecret: options.enrollSecret, now });
  const orbit = new OrbitAgent({ transport, identity, enrollSecret: options.enrollSecret });
  let answer: QueryResolver = options.answer ?? (() => []);
  let runScript: ScriptRunner = options.runScript ?? (() => ({ exitCode: 0, output: '' }));

  const checkInOsquery = async (): Promise<QueryRun[]> => {
    await osquery.config();
    const runs = await runDistributedQueries(await osquery.readQueries(), answer);
    if (runs.length === 0) return runs;
    await osquery.writeResults(runs);
    await osquery.logStatus(distributedStatusLines(runs, identity.hardwareUuid, now()));
    return runs;
  };
  const checkInOrbit = async (): Promise<ScriptRun[]> => {
    const config = await orbit.config();
    return runPendingScripts(
      orbit,
      config.notifications.pending_script_execution_ids ?? [],
      runScript,
      config.script_execution_timeout,
    );
  };

  return {
    identity,
    async enroll() {
      await orbit.enroll();
      await osquery.enroll();
    },
    async checkIn() {
      const queries = await checkInOsquery();
      return { queries, scripts: await checkInOrbit() };
    },
    setDeviceToken: (token) => orbit.setDeviceToken(token),
    setAnswer(next) {
      answer = next;
    },
    setRunScript(next) {
      runScript = next;
    },
    get nodeKey() {
      return osquery.nodeKey;
    },
    get orbitNodeKey() {
      return orbit.orbitNodeKey;
    },
    requests: transport.requests,
    forgetNodeKeys() {
      osquery.nodeKey = null;
      orbit.orbitNodeKey = null;
    },
  };
}
