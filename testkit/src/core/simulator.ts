import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { BehaviourScript, type Behaviour, type ErrorSpec, type RequestPredicate } from './behaviour.js';
import { listen } from './http-server.js';
import { createIdSource, type IdSource } from './ids.js';
import type { ReplySpec } from './reply.js';
import { RequestLog, type RecordedRequest } from './request-log.js';
import { sendBody, type Turn } from './responder.js';

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Accepted API key(s). Unset: any non-empty key is accepted, a missing one is rejected. */
  apiKey?: string | readonly string[];
  /** Delay before the first byte of every response (a behaviour's own `latencyMs` wins). */
  latencyMs?: number;
  /** Delay between stream events (a behaviour's own `eventDelayMs` wins). */
  eventDelayMs?: number;
  /** Overrides of the default reply, for every request or computed per request. */
  replyWith?: ReplySpec | ((request: RecordedRequest) => ReplySpec | undefined);
  /** Keep a log of requests (default true). The benchmark turns it off so memory stays flat. */
  record?: boolean;
  /** Model ids listed by `GET /v1/models`. */
  models?: readonly string[];
}

export interface SimulatorHandle {
  /** Origin, e.g. `http://127.0.0.1:53121`. */
  url: string;
  /** What the provider's official SDK takes as `baseURL`. */
  baseURL: string;
  port: number;
  /** Every request received, in order (unless `record: false`). */
  requests: RecordedRequest[];
  /** Queue behaviours for the next model requests, one each. */
  script(...behaviours: readonly Behaviour[]): void;
  /** Answer the next `count` model requests with `behaviour`. */
  failNext(count: number, behaviour: Behaviour): void;
  /** Answer every matching model request (at most `times`) with `behaviour`; returns a remover. */
  respondWhen(predicate: RequestPredicate, behaviour: Behaviour, times?: number): () => void;
  /** Behaviours still queued. */
  readonly pendingBehaviours: number;
  /** Clears the request log, the queue and the rules. */
  reset(): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/** What a provider's request handler gets from the shared core. */
export interface SimulatorContext {
  readonly ids: IdSource;
  readonly options: SimulatorOptions;
  /** Consumes this request's behaviour (rules first, then the queue); only model requests call it. */
  takeTurn(request: RecordedRequest): Turn;
  /** The turn of a request that consumes no behaviour (auth failures, model listings): default timing only. */
  baseTurn(): Turn;
  /** The reply overrides for this request: `replyWith`, then the behaviour's `reply` and `usage`. */
  replySpec(request: RecordedRequest, turn: Turn): ReplySpec | undefined;
}

export type ProviderHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  context: SimulatorContext,
) => Promise<void>;

export async function startSimulator(
  options: SimulatorOptions,
  handler: ProviderHandler,
  basePath: string,
): Promise<SimulatorHandle> {
  const log = new RequestLog(options.record ?? true);
  const behaviours = new BehaviourScript();
  const context: SimulatorContext = {
    ids: createIdSource(),
    options,
    takeTurn(request) {
      const behaviour = behaviours.take(request) ?? NO_BEHAVIOUR;
      return {
        behaviour,
        latencyMs: behaviour.latencyMs ?? options.latencyMs ?? 0,
        eventDelayMs: behaviour.eventDelayMs ?? options.eventDelayMs ?? 0,
      };
    },
    baseTurn() {
      return { behaviour: NO_BEHAVIOUR, latencyMs: options.latencyMs ?? 0, eventDelayMs: 0 };
    },
    replySpec(request, turn) {
      const fromOptions = typeof options.replyWith === 'function' ? options.replyWith(request) : options.replyWith;
      const { reply, usage } = turn.behaviour;
      if (!fromOptions && !reply && !usage) return undefined;
      return { ...fromOptions, ...reply, usage: { ...fromOptions?.usage, ...reply?.usage, ...usage } };
    },
  };
  const server = await listen(
    async (request, response) => {
      log.add(request);
      await handler(request, response, context);
    },
    { host: options.host, port: options.port },
  );
  return {
    url: server.url,
    baseURL: `${server.url}${basePath}`,
    port: server.port,
    requests: log.requests,
    script: (...list) => behaviours.enqueue(...list),
    failNext: (count, behaviour) => behaviours.failNext(count, behaviour),
    respondWhen: (predicate, behaviour, times) => behaviours.respondWhen(predicate, behaviour, times),
    get pendingBehaviours() {
      return behaviours.pending;
    },
    reset() {
      log.clear();
      behaviours.reset();
    },
    waitForRequests: (count, timeoutMs) => log.waitFor(count, timeoutMs),
    close: () => server.close(),
  };
}

const NO_BEHAVIOUR: Behaviour = Object.freeze({});

/**
 * Answers a turn whose behaviour is a verbatim body or an error status; returns false when the provider should
 * generate its normal reply. `renderError` wraps the error in the provider's envelope.
 */
export async function answerScripted(
  response: ServerResponse,
  turn: Turn,
  headers: OutgoingHttpHeaders,
  renderError: (status: number, spec: ErrorSpec | undefined) => string,
): Promise<boolean> {
  const { body, status, error } = turn.behaviour;
  if (body !== undefined) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    await sendBody(response, turn, status ?? 200, headers, text);
    return true;
  }
  if (status !== undefined && status >= 400) {
    await sendBody(response, turn, status, headers, renderError(status, error));
    return true;
  }
  return false;
}

/** Whether a presented key is accepted (any non-empty key when none is configured). */
export function acceptsKey(configured: SimulatorOptions['apiKey'], presented: string | undefined): boolean {
  if (presented === undefined || presented.length === 0) return false;
  if (configured === undefined) return true;
  return typeof configured === 'string' ? configured === presented : configured.includes(presented);
}

/** `Authorization: Bearer <token>` → token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim();
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
