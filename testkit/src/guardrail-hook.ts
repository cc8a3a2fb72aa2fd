import { listen } from './core/http-server.js';
import { RequestLog, type RecordedRequest } from './core/request-log.js';

/** What the simulated hook answers a call with: a verdict, an HTTP failure, or no answer at all (a hung service). */
export type GuardrailAnswer =
  | { action: 'allow' }
  | { action: 'deny'; reason?: string; status?: 400 | 403 }
  | { httpStatus: number; body?: string }
  | 'hang';

export interface GuardrailHookHandle {
  url: string;
  /** Every call received, with its JSON body in `json`. */
  requests: RecordedRequest[];
  /** Decide each call from what it carries (default: allow everything). */
  decide(rule: (call: Record<string, unknown>, request: RecordedRequest) => GuardrailAnswer): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/**
 * An HTTP guardrail service the gateway's admission stage calls: `POST` the call as JSON, answer
 * `{action: "allow"}` or `{action: "deny", reason, status}`. A hung answer is held until the server closes.
 */
export async function startGuardrailHook(): Promise<GuardrailHookHandle> {
  const log = new RequestLog(true);
  let rule: (call: Record<string, unknown>, request: RecordedRequest) => GuardrailAnswer = () => ({ action: 'allow' });
  const hung: Array<() => void> = [];
  const server = await listen(async (request, response) => {
    log.add(request);
    const call =
      typeof request.json === 'object' && request.json !== null ? (request.json as Record<string, unknown>) : {};
    const answer = rule(call, request);
    if (answer === 'hang') {
      await new Promise<void>((resolve) => hung.push(resolve));
      response.destroy();
      return;
    }
    if ('httpStatus' in answer) {
      response.writeHead(answer.httpStatus, { 'content-type': 'text/plain' });
      response.end(answer.body ?? 'error');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  });
  return {
    url: server.url,
    requests: log.requests,
    decide: (next) => {
      rule = next;
    },
    waitForRequests: (count, timeoutMs) => log.waitFor(count, timeoutMs),
    close: async () => {
      for (const release of hung.splice(0)) release();
      await server.close();
    },
  };
}
