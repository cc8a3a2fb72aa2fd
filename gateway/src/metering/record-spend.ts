import type { FastifyRequest } from 'fastify';
import type { SpendRecord } from './spend-record.js';
import type { SpendRecorder } from './spend-recorder.js';

/**
 * Records a request's spend row and marks the request metered, so the inference error handler can tell a request
 * that ended before any stage recorded it (a body that did not parse or validate) and give it its one row.
 */
export function recordSpend(spend: Pick<SpendRecorder, 'record'>, request: FastifyRequest, record: SpendRecord): void {
  if (request.gw) request.gw.metered = true;
  spend.record(record);
}
