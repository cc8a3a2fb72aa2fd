import {
  osqueryConfigResponse,
  osqueryDistributedReadResponse,
  osqueryEnrollResponse,
  osqueryNodeInvalid,
} from '@gw/contracts';
import { SimulatedAgentError } from './agent-error.js';
import type { AgentExchange, AgentTransport } from './agent-transport.js';
import { distributedResults, type QueryRun } from './distributed-queries.js';
import { osqueryEnrollBody } from './host-details.js';
import { OSQUERY_VERSION, type HostIdentity } from './host-identity.js';
import type { StatusLogLine } from './status-log.js';
import { acknowledgement, isRecord, parseAnswer, type WireSchema } from './wire-schema.js';

const PREFIX = '/api/v1/osquery';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  'user-agent': `osquery/${OSQUERY_VERSION}`,
};

export interface OsqueryAgentOptions {
  transport: AgentTransport;
  identity: HostIdentity;
  enrollSecret: string;
  now: () => number;
}

/**
 * osquery's TLS plugins (enroll, config, distributed, logger). Like osquery it reads the body, not the status, for
 * `node_invalid: true`: it drops the node key, enrolls again with the same secret and retries the call once.
 */
export class OsqueryAgent {
  nodeKey: string | null = null;
  readonly #options: OsqueryAgentOptions;
  readonly #startedAtSeconds: number;

  constructor(options: OsqueryAgentOptions) {
    this.#options = options;
    this.#startedAtSeconds = Math.floor(options.now() / 1000);
  }

  async enroll(): Promise<string> {
    const { identity, enrollSecret, transport } = this.#options;
    const exchange = await transport.post(
      `${PREFIX}/enroll`,
      osqueryEnrollBody(identity, enrollSecret, this.#startedAtSeconds),
      HEADERS,
    );
    const invalid = osqueryNodeInvalid.safeParse(exchange.body);
    if (invalid.success)
      throw new SimulatedAgentError(
        'enroll_refused',
        exchange.path,
        `enrollment refused: ${invalid.data.error}`,
        exchange.status,
      );
    failUnlessOk(exchange);
    this.nodeKey = parseAnswer(osqueryEnrollResponse, exchange).node_key;
    return this.nodeKey;
  }

  config() {
    return this.#call('config', {}, osqueryConfigResponse);
  }

  async readQueries(): Promise<Record<string, string>> {
    const { queries } = await this.#call('distributed/read', {}, osqueryDistributedReadResponse);
    // osquery refuses the whole read when a name or a query is empty ("Distributed query is not a string").
    const empty = Object.entries(queries).find(([name, sql]) => name.length === 0 || sql.length === 0);
    if (empty)
      throw new SimulatedAgentError(
        'malformed_response',
        `${PREFIX}/distributed/read`,
        `query "${empty[0]}" has an empty name or SQL`,
        200,
      );
    return queries;
  }

  async writeResults(runs: readonly QueryRun[]): Promise<void> {
    await this.#call('distributed/write', distributedResults(runs), acknowledgement);
  }

  async logStatus(lines: readonly StatusLogLine[]): Promise<void> {
    await this.#call('log', { log_type: 'status', data: lines }, acknowledgement);
  }

  async #call<T>(endpoint: string, body: object, schema: WireSchema<T>): Promise<T> {
    const nodeKey = this.nodeKey ?? (await this.enroll());
    const first = await this.#options.transport.post(`${PREFIX}/${endpoint}`, { ...body, node_key: nodeKey }, HEADERS);
    if (!isNodeInvalid(first)) return answerOf(first, schema);
    this.nodeKey = null;
    const renewed = await this.enroll();
    const retried = await this.#options.transport.post(
      `${PREFIX}/${endpoint}`,
      { ...body, node_key: renewed },
      HEADERS,
    );
    if (isNodeInvalid(retried))
      throw new SimulatedAgentError(
        'node_invalid',
        retried.path,
        'node key refused again right after re-enrolling',
        retried.status,
      );
    return answerOf(retried, schema);
  }
}

function isNodeInvalid(exchange: AgentExchange): boolean {
  return osqueryNodeInvalid.safeParse(exchange.body).success;
}

function answerOf<T>(exchange: AgentExchange, schema: WireSchema<T>): T {
  failUnlessOk(exchange);
  return parseAnswer(schema, exchange);
}

/** A status other than 200, or an `error` in the body (which osquery treats as a failed request whatever the status). */
function failUnlessOk(exchange: AgentExchange): void {
  const error = isRecord(exchange.body) && typeof exchange.body.error === 'string' ? exchange.body.error : undefined;
  if (exchange.status === 401) {
    throw new SimulatedAgentError(
      'malformed_response',
      exchange.path,
      'status 401 without the `{node_invalid: true, error}` body osquery re-enrolls on',
      401,
    );
  }
  if (exchange.status !== 200)
    throw new SimulatedAgentError(
      'request_failed',
      exchange.path,
      `status ${exchange.status}${error === undefined ? '' : `: ${error}`}`,
      exchange.status,
    );
  if (error !== undefined)
    throw new SimulatedAgentError('request_failed', exchange.path, `status 200 with error: ${error}`, 200);
}
