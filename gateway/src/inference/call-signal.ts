import type { FastifyReply } from 'fastify';
import type { AppError } from '@gw/platform';
import { gatewayError } from '../errors.js';

/** Why an upstream call was cut short by the gateway rather than failed by the provider. */
export type AbortCause = 'client_closed' | 'gateway_draining';

/**
 * The signal an upstream call runs under: aborted when the client leaves (a client that leaves cancels the
 * generation) or when the drain deadline of a shutdown passes (`shutdown`), with the cause as its reason.
 */
export function callSignal(reply: FastifyReply, shutdown?: AbortSignal): AbortSignal {
  const abort = new AbortController();
  const onDeadline = () => abort.abort('gateway_draining' satisfies AbortCause);
  reply.raw.once('close', () => {
    shutdown?.removeEventListener('abort', onDeadline);
    if (!reply.raw.writableFinished) abort.abort('client_closed' satisfies AbortCause);
  });
  // A client already gone (it left while the chain ran) sent its last 'close' before anyone listened.
  if (reply.raw.socket?.destroyed === true && !reply.raw.writableFinished)
    abort.abort('client_closed' satisfies AbortCause);
  if (shutdown?.aborted) onDeadline();
  else shutdown?.addEventListener('abort', onDeadline, { once: true });
  return abort.signal;
}

/** The cause of an aborted call signal; null while it runs (or for a signal not made by `callSignal`). */
export function abortCauseOf(signal: AbortSignal): AbortCause | null {
  if (!signal.aborted) return null;
  return signal.reason === 'gateway_draining'
    ? 'gateway_draining'
    : signal.reason === 'client_closed'
      ? 'client_closed'
      : null;
}

/**
 * What a call cut short before the provider answered becomes: 499 for a client that left (the nginx convention: not
 * the provider's failure, nor the gateway's; nobody reads it, the spend row does), 503 for a gateway shutting down
 * (the SDKs retry it, and the retry reaches a replica that is not).
 */
export function abortedCallError(cause: AbortCause): AppError {
  return gatewayError(cause === 'client_closed' ? 'client_closed' : 'gateway_draining');
}

/**
 * The status a spend row gives a stream that did not complete: 499 (the nginx convention) for a client that left, not
 * the provider's failure nor the gateway's; 503 for one the drain deadline ended; 502 for the provider's failures.
 */
export function statusOfCutStream(errorCode: string | null): number {
  return errorCode === 'client_closed' ? 499 : errorCode === 'gateway_draining' ? 503 : 502;
}
