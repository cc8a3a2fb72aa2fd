import { SimulatedAgentError } from './agent-error.js';
import type { AgentExchange } from './agent-transport.js';

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The part of a zod schema the host uses; testkit takes the schemas from contracts without depending on zod. */
export interface WireSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}

/**
 * The answer to osquery's writes and orbit's posts: the contract has no schema for it (Fleet answers `{}`), so any
 * JSON object is accepted.
 */
export const acknowledgement: WireSchema<Readonly<Record<string, unknown>>> = {
  safeParse(input) {
    if (isRecord(input)) return { success: true, data: input };
    return { success: false, error: { issues: [{ path: [], message: 'expected a JSON object' }] } };
  },
};

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The answer's body through its contract schema; a mismatch throws naming the path and the first bad fields. */
export function parseAnswer<T>(schema: WireSchema<T>, exchange: AgentExchange): T {
  if (exchange.body === undefined) {
    throw new SimulatedAgentError(
      'malformed_response',
      exchange.path,
      `status ${exchange.status} with a body that is not JSON`,
      exchange.status,
    );
  }
  const parsed = schema.safeParse(exchange.body);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length === 0 ? 'body' : issue.path.map(String).join('.')}: ${issue.message}`);
  throw new SimulatedAgentError(
    'malformed_response',
    exchange.path,
    `status ${exchange.status} answer does not match the agent protocol (${fields.join('; ')})`,
    exchange.status,
  );
}
