import { retryAfterMsOf } from '../routing/throttle-gate.js';
import type { UpstreamResponse } from '../providers/upstream/upstream-client.js';
import type { InferenceDeps } from './inference-deps.js';

/**
 * Send an opaque call (the `/v1/*` catch-all, the seat carrier lane); a provider 429 whose pause fits
 * `GW_ANTHROPIC_THROTTLE_WAIT_MS` is waited out and the call sent once more, so a short throttle never reaches the
 * client. These lanes do not pause the provider for others: the carrier lane's credential is a developer's seat,
 * and a pause under the provider's name would stop the organization key's traffic too.
 */
export async function waitingOutShortThrottle(
  deps: Pick<InferenceDeps, 'clock' | 'sleep' | 'throttle'>,
  send: () => Promise<UpstreamResponse>,
): Promise<UpstreamResponse> {
  const first = await send();
  if (first.status !== 429) return first;
  const pause = retryAfterMsOf(first.headers, deps.clock.now());
  if (pause === null || pause <= 0 || pause > deps.throttle.maxWaitMs) return first;
  await first.body.dump();
  await deps.sleep(pause);
  return send();
}
