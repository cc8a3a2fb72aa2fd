import type { Coord } from '@gw/platform';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A typed function result the client sends back: `{type: 'function_call_output', call_id, output}`. */
function isFunctionCallOutput(item: unknown): boolean {
  if (!isRecord(item) || item.type !== 'function_call_output') return false;
  return (
    typeof item.call_id === 'string' &&
    item.call_id.length > 0 &&
    (typeof item.output === 'string' || Array.isArray(item.output))
  );
}

/** Some clients carry their tool catalog in an input item of its own rather than in `tools`. */
function carriesCatalog(item: unknown): boolean {
  if (!isRecord(item)) return false;
  return (
    (Array.isArray(item.tools) && item.tools.length > 0) ||
    (typeof item.type === 'string' && item.type.endsWith('tools'))
  );
}

/**
 * Whether a Responses request is an agent's continuation transcript the gateway may ask the optimizer to treat as
 * one (`capabilities.agentContinuation`): its `input` ends with a typed function-call-output item, and the model has
 * no tool it could call, neither in `tools` (unless `tool_choice` is `none`) nor in an input item that carries a
 * catalog. Anything else stays on the byte-faithful passthrough.
 */
export function isVerifiedContinuation(body: Json): boolean {
  const input = body.input;
  if (typeof body.model !== 'string' || !Array.isArray(input) || input.length === 0) return false;
  if (!isFunctionCallOutput(input[input.length - 1])) return false;
  if (input.some(carriesCatalog)) return false;
  const tools = body.tools;
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) return false;
  return !Array.isArray(tools) || tools.length === 0 || body.tool_choice === 'none';
}

/**
 * How long a session is held on the passthrough after the optimizer did not serve a continuation request on the
 * continuation path (not yet activated, or unreachable): the session cooldown. Held, its turns are not offered to
 * the optimizer, so the bytes the provider caches do not flip between forms turn by turn.
 */
export const continuationHoldMs = 5 * 60_000;

/** Sessions held on the passthrough, shared through Coord so every replica holds the same sessions. */
export class ContinuationHolds {
  constructor(private readonly coord: Coord) {}

  /** A store that cannot answer reads as held: the safe side is the client's bytes. */
  async isHeld(sessionId: string): Promise<boolean> {
    try {
      return (await this.coord.getValue(holdKey(sessionId))) !== null;
    } catch {
      return true;
    }
  }

  async hold(sessionId: string): Promise<void> {
    await this.coord.setValue(holdKey(sessionId), '1', continuationHoldMs).catch(() => undefined);
  }
}

const holdKey = (sessionId: string) => `continuation-hold:${sessionId}`;
