import { request } from 'undici';
import { assertSafeUpstreamUrl } from '../providers/ssrf-guard.js';

/** Sends one JSON payload to a Slack-compatible incoming webhook; rejects when it was not accepted. */
export type WebhookSend = (url: string, payload: Record<string, unknown>) => Promise<void>;

const retryable = (status: number) => status === 429 || status >= 500;

/**
 * Cap-alert delivery. The URL passes the SSRF guard at send time too (DNS can change after it was
 * stored); redirects are never followed; one retry on 429, 5xx or a network error.
 */
export function webhookSender(options: {
  allowPrivate: boolean;
  timeoutMs?: number;
  retryDelayMs?: number;
}): WebhookSend {
  const attempt = async (url: string, body: string): Promise<number> => {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      headersTimeout: options.timeoutMs ?? 5_000,
      bodyTimeout: options.timeoutMs ?? 5_000,
    });
    await response.body.dump();
    return response.statusCode;
  };
  return async (url, payload) => {
    await assertSafeUpstreamUrl(url, { allowPrivate: options.allowPrivate });
    const body = JSON.stringify(payload);
    let status: number;
    try {
      status = await attempt(url, body);
    } catch {
      status = 599;
    }
    if (retryable(status)) {
      await new Promise((resolve) => setTimeout(resolve, options.retryDelayMs ?? 1_000));
      status = await attempt(url, body);
    }
    if (status < 200 || status >= 300) throw new Error(`webhook answered HTTP ${status}`);
  };
}
