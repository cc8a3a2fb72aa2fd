import { BehaviourScript, type Behaviour } from './core/behaviour.js';
import { listen } from './core/http-server.js';
import { RequestLog, type RecordedRequest } from './core/request-log.js';
import { sendBody, type Turn } from './core/responder.js';

export interface WebhookSinkOptions {
  host?: string;
  port?: number;
}

export interface WebhookSinkHandle {
  /** Origin; any path under it is a webhook URL, e.g. `${url}/services/T000/B000/XXXX`. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Payloads of the accepted and rejected posts, in order (JSON, or the form field `payload` parsed). */
  readonly bodies: unknown[];
  /** Answer the next `count` posts with `behaviour` (status, body, headers, latency). */
  failNext(count: number, behaviour: Behaviour): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  reset(): void;
  close(): Promise<void>;
}

// Slack answers webhook errors with a short plain-text reason.
const SLACK_ERRORS: Record<number, string> = {
  400: 'invalid_payload',
  403: 'action_prohibited',
  404: 'no_service',
  410: 'channel_is_archived',
  429: 'rate_limited',
  500: 'rollup_error',
};
const TEXT = 'text/plain; charset=utf-8';

/** A Slack-compatible incoming-webhook receiver: `POST` to any path answers `ok` and records the payload. */
export async function startWebhookSink(options: WebhookSinkOptions = {}): Promise<WebhookSinkHandle> {
  const log = new RequestLog(true);
  const script = new BehaviourScript();
  const server = await listen(async (request, response) => {
    log.add(request);
    const turn: Turn = { behaviour: {}, latencyMs: 0, eventDelayMs: 0 };
    if (request.method !== 'POST') return sendBody(response, turn, 405, {}, 'invalid_method', TEXT);
    const behaviour = script.take(request);
    if (behaviour) {
      const scripted: Turn = { behaviour, latencyMs: behaviour.latencyMs ?? 0, eventDelayMs: 0 };
      const status = behaviour.status ?? 200;
      const body = behaviour.body ?? (status >= 400 ? (SLACK_ERRORS[status] ?? 'error') : 'ok');
      return sendBody(response, scripted, status, {}, typeof body === 'string' ? body : JSON.stringify(body), TEXT);
    }
    const payload = payloadOf(request);
    if (payload === undefined) return sendBody(response, turn, 400, {}, 'invalid_payload', TEXT);
    if (!hasMessage(payload)) return sendBody(response, turn, 400, {}, 'no_text', TEXT);
    return sendBody(response, turn, 200, {}, 'ok', TEXT);
  }, options);
  return {
    url: server.url,
    port: server.port,
    requests: log.requests,
    get bodies() {
      return log.requests.map(payloadOf);
    },
    failNext: (count, behaviour) => script.failNext(count, behaviour),
    waitForRequests: (count, timeoutMs) => log.waitFor(count, timeoutMs),
    reset() {
      log.clear();
      script.reset();
    },
    close: () => server.close(),
  };
}

function payloadOf(request: RecordedRequest): unknown {
  if (request.json !== undefined) return request.json;
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  const field = new URLSearchParams(request.body).get('payload');
  if (field === null) return undefined;
  try {
    return JSON.parse(field) as unknown;
  } catch {
    return undefined;
  }
}

function hasMessage(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  const record = payload as Record<string, unknown>;
  return typeof record.text === 'string' || Array.isArray(record.blocks) || Array.isArray(record.attachments);
}
