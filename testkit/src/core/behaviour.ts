import type { RecordedRequest } from './request-log.js';
import type { ReplySpec, UsageSpec } from './reply.js';

/** Fields of a provider error; each simulator wraps them in its own envelope. */
export interface ErrorSpec {
  type?: string;
  message?: string;
  code?: string | number | null;
  param?: string | null;
}

/** What one request gets instead of the default reply. Every field is optional and they combine. */
export interface Behaviour {
  /** HTTP status. At 400 and above the provider's error envelope is sent (unless `body` is given). */
  status?: number;
  /** Exact response body (string verbatim, anything else as JSON) with `status` (default 200). */
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** Overrides fields of the generated error envelope. */
  error?: ErrorSpec;
  /** Delay before the first byte. */
  latencyMs?: number;
  /** Delay between stream events. */
  eventDelayMs?: number;
  /** `true`: destroy the socket before answering. `{afterEvents}`: after that many stream events (or, for a JSON reply, part-way through the body). */
  dropConnection?: true | { afterEvents: number };
  /** After `afterEvents` stream events, send the provider's stream error and end the stream. */
  midStreamError?: { afterEvents: number } & ErrorSpec;
  /** Overrides of the generated reply (text, tool calls, thinking, finish reason, usage). */
  reply?: ReplySpec;
  /** Shortcut for `reply.usage`. */
  usage?: UsageSpec;
}

export type RequestPredicate = (request: RecordedRequest) => boolean;

interface Rule {
  predicate: RequestPredicate;
  behaviour: Behaviour;
  remaining: number;
}

/**
 * Per-request behaviours: persistent rules (checked first, in the order added) and a FIFO queue consumed one
 * behaviour per request. Requests that match neither get the default reply.
 */
export class BehaviourScript {
  #queue: Behaviour[] = [];
  #rules: Rule[] = [];

  /** Queue behaviours for the next requests, one each, in order. */
  enqueue(...behaviours: readonly Behaviour[]): void {
    this.#queue.push(...behaviours);
  }

  /** Answer the next `count` requests with `behaviour` (e.g. "fail the first 2 requests with 503"). */
  failNext(count: number, behaviour: Behaviour): void {
    for (let index = 0; index < count; index += 1) this.#queue.push(behaviour);
  }

  /** Answer every matching request with `behaviour` (at most `times` of them); returns a remover. */
  respondWhen(predicate: RequestPredicate, behaviour: Behaviour, times = Number.POSITIVE_INFINITY): () => void {
    const rule: Rule = { predicate, behaviour, remaining: times };
    this.#rules.push(rule);
    return () => {
      this.#rules = this.#rules.filter((candidate) => candidate !== rule);
    };
  }

  reset(): void {
    this.#queue = [];
    this.#rules = [];
  }

  get pending(): number {
    return this.#queue.length;
  }

  take(request: RecordedRequest): Behaviour | undefined {
    for (const rule of this.#rules) {
      if (rule.remaining > 0 && rule.predicate(request)) {
        rule.remaining -= 1;
        if (rule.remaining === 0) this.#rules = this.#rules.filter((candidate) => candidate !== rule);
        return rule.behaviour;
      }
    }
    return this.#queue.shift();
  }
}

/** 429 with both `Retry-After` (seconds, standard) and `retry-after-ms` (which the official SDKs prefer). */
export function rateLimited(
  options: { retryAfterSeconds?: number; retryAfterMs?: number; error?: ErrorSpec } = {},
): Behaviour {
  const headers: Record<string, string> = {};
  if (options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  if (options.retryAfterSeconds === undefined && options.retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(options.retryAfterMs / 1000)));
  }
  return { status: 429, headers, ...(options.error ? { error: options.error } : {}) };
}

/** Anthropic's 529 `overloaded_error`. */
export function overloaded(): Behaviour {
  return { status: 529 };
}

export function serverError(status: 500 | 502 | 503 | 504 = 500): Behaviour {
  return { status };
}
