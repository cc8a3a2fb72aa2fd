import { SimulatedAgentError } from './agent-error.js';

/** One call as the host recorded it: never a body, so never an enroll secret or a node key. */
export interface AgentRequestRecord {
  path: string;
  status: number;
}

export interface AgentExchange {
  path: string;
  status: number;
  /** The answer parsed as JSON; undefined when it was empty or not JSON. */
  body: unknown;
}

export interface AgentTransport {
  post(path: string, body: object, headers: Readonly<Record<string, string>>): Promise<AgentExchange>;
  readonly requests: readonly AgentRequestRecord[];
}

export interface AgentTransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
}

/**
 * JSON over POST to the evidence service origin. The body goes as bytes so fetch adds no `content-type` of its own:
 * each agent sets (or, like orbit's Go client, omits) that header itself.
 */
export function createAgentTransport(options: AgentTransportOptions): AgentTransport {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const requests: AgentRequestRecord[] = [];
  return {
    requests,
    async post(path, body, headers) {
      let response: Response;
      try {
        response = await options.fetch(`${origin}${path}`, {
          method: 'POST',
          headers,
          body: Buffer.from(JSON.stringify(body)),
        });
      } catch (error) {
        throw new SimulatedAgentError('unreachable', path, error instanceof Error ? error.message : String(error));
      }
      requests.push({ path, status: response.status });
      return { path, status: response.status, body: parseJson(await response.text()) };
    },
  };
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
