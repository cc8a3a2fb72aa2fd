import type { AppError } from '@gw/platform';
import { gatewayError, relayedError } from '../../errors.js';
import type { OptimizerClient } from './optimizer-client.js';

/**
 * The optimizer's admin routes as the gateway reaches them: with the optimizer's admin bearer, outside the fail-open
 * path. A missing optimizer, an unreachable one or one that refuses the bearer is a clear error here, never a silent
 * success, because an operator changing settings or purging content must know whether it happened.
 */
export class OptimizerAdmin {
  constructor(
    private readonly optimizer: Pick<OptimizerClient, 'raw'> | null,
    private readonly adminToken: string | undefined,
  ) {}

  async call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<unknown> {
    if (!this.optimizer) throw gatewayError('optimizer_not_configured');
    if (!this.adminToken)
      throw gatewayError(
        'optimizer_not_configured',
        'No admin bearer for the optimizer is configured (GW_OPTIMIZER_ADMIN_TOKEN or GW_ADMIN_TOKEN).',
      );
    let answer: { status: number; body: unknown };
    try {
      answer = await this.optimizer.raw(method, path, this.adminToken, body);
    } catch {
      throw gatewayError('optimizer_unreachable');
    }
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw relayedFailure(answer.status, answer.body);
  }
}

function optimizerError(body: unknown): { code: string; message: string } | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const error = body.error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

/** The optimizer's own verdict on a request (a 400, a 409) is the caller's to read; its auth and faults are ours. */
function relayedFailure(status: number, body: unknown): AppError {
  if (status === 401 || status === 403) return gatewayError('optimizer_admin_refused');
  const error = optimizerError(body);
  if (status >= 400 && status < 500 && error)
    return relayedError({ status, code: error.code, message: `optimizer: ${error.message}` });
  return gatewayError(
    'optimizer_unavailable',
    error ? `optimizer: ${error.message}` : `The optimizer answered ${status}.`,
  );
}
