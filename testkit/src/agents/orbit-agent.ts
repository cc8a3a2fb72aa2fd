import {
  agentErrorBody,
  orbitConfigResponse,
  orbitEnrollResponse,
  orbitScriptResponse,
  type OrbitEnrollRequest,
  type OrbitScriptResult,
} from '@gw/contracts';
import { SimulatedAgentError } from './agent-error.js';
import type { AgentExchange, AgentTransport } from './agent-transport.js';
import { osVersionOf } from './host-details.js';
import type { HostIdentity } from './host-identity.js';
import { acknowledgement, parseAnswer, type WireSchema } from './wire-schema.js';

const PREFIX = '/api/fleet/orbit';
// Orbit's Go client sets no content-type (nor accept) on its JSON bodies; a server must parse them anyway.
const HEADERS = {};

export interface OrbitAgentOptions {
  transport: AgentTransport;
  identity: HostIdentity;
  enrollSecret: string;
}

/** A non-200 answer other than the 401 that sends orbit back to enroll: the status and Fleet's error body. */
export interface OrbitRefusal {
  status: number;
  body: { message: string; errors: Array<{ name: string; reason: string }> };
}

export type OrbitAnswer<T> = { ok: true; status: 200; body: T } | ({ ok: false } & OrbitRefusal);

/**
 * Orbit's client: enroll with the hardware identity, then every call carries `orbit_node_key`. Orbit treats only 200 as
 * success; on a 401 it deletes its node key and enrolls again, and the simulated orbit retries the call once.
 */
export class OrbitAgent {
  orbitNodeKey: string | null = null;
  readonly #options: OrbitAgentOptions;

  constructor(options: OrbitAgentOptions) {
    this.#options = options;
  }

  async enroll(): Promise<string> {
    const exchange = await this.#options.transport.post(`${PREFIX}/enroll`, this.#enrollBody(), HEADERS);
    if (exchange.status === 401)
      throw new SimulatedAgentError(
        'enroll_refused',
        exchange.path,
        `enrollment refused: ${parseAnswer(agentErrorBody, exchange).message}`,
        401,
      );
    this.orbitNodeKey = answerOf(exchange, orbitEnrollResponse).orbit_node_key;
    return this.orbitNodeKey;
  }

  async config() {
    return answerOf(await this.#call('config', {}), orbitConfigResponse);
  }

  /** Answers instead of throwing on a refusal, so a test can see the server turn a token down. */
  async setDeviceToken(token: string): Promise<OrbitAnswer<Readonly<Record<string, unknown>>>> {
    const exchange = await this.#call('device_token', { device_auth_token: token });
    if (exchange.status === 200) return { ok: true, status: 200, body: parseAnswer(acknowledgement, exchange) };
    return { ok: false, status: exchange.status, body: parseAnswer(agentErrorBody, exchange) };
  }

  async requestScript(executionId: string) {
    return answerOf(await this.#call('scripts/request', { execution_id: executionId }), orbitScriptResponse);
  }

  async postScriptResult(result: Omit<OrbitScriptResult, 'orbit_node_key'>): Promise<void> {
    answerOf(await this.#call('scripts/result', result), acknowledgement);
  }

  async #call(endpoint: string, body: object): Promise<AgentExchange> {
    const nodeKey = this.orbitNodeKey ?? (await this.enroll());
    const first = await this.#options.transport.post(
      `${PREFIX}/${endpoint}`,
      { ...body, orbit_node_key: nodeKey },
      HEADERS,
    );
    if (first.status !== 401) return first;
    parseAnswer(agentErrorBody, first);
    this.orbitNodeKey = null;
    const renewed = await this.enroll();
    const retried = await this.#options.transport.post(
      `${PREFIX}/${endpoint}`,
      { ...body, orbit_node_key: renewed },
      HEADERS,
    );
    if (retried.status === 401)
      throw new SimulatedAgentError(
        'node_invalid',
        retried.path,
        `node key refused again right after re-enrolling: ${parseAnswer(agentErrorBody, retried).message}`,
        401,
      );
    return retried;
  }

  /** Orbit's enroll body: the identity it reads from osquery's system_info and os_version before enrolling. */
  #enrollBody(): OrbitEnrollRequest {
    const { identity, enrollSecret } = this.#options;
    return {
      enroll_secret: enrollSecret,
      hardware_uuid: identity.hardwareUuid,
      hardware_serial: identity.hardwareSerial,
      hostname: identity.hostname,
      platform: osVersionOf(identity.platform).platform,
      // Orbit sends osquery's instance id only when run with --host-identifier=instance; fleetd's default is uuid.
      osquery_identifier: '',
      computer_name: identity.hostname,
      hardware_model: identity.hardwareModel,
    };
  }
}

/** A 200 through its schema; any other status throws with Fleet's error message. */
function answerOf<T>(exchange: AgentExchange, schema: WireSchema<T>): T {
  if (exchange.status === 200) return parseAnswer(schema, exchange);
  const refusal = parseAnswer(agentErrorBody, exchange);
  throw new SimulatedAgentError(
    'request_failed',
    exchange.path,
    `status ${exchange.status}: ${refusal.message}`,
    exchange.status,
  );
}
