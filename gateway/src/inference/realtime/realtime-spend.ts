import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { recordSpend } from '../../metering/record-spend.js';
import type { SpendRecorder } from '../../metering/spend-recorder.js';
import type { Usage } from '../../providers/translate/usage.js';
import type { Selection } from '../../routing/resolve-route.js';
import { buildSpendRecord, type CallOutcome } from '../spend-from-call.js';
import { statusOfCutStream } from '../call-signal.js';
import type { CutCause } from './realtime-session.js';

export const realtimeEndpoint = '/v1/realtime';

/**
 * One content-free spend row per response of a session (a response the session ended under included), timed from the provider's `response.created` to its
 * `response.done`. Every row of a session carries the session's trace id and caller (bound once, at the upgrade).
 */
export function recordRealtimeResponse(spend: Pick<SpendRecorder, 'record'>, request: FastifyRequest, input: { selection: Selection; usage: Usage | undefined; startedAt: number; now: number; cut?: CutCause }): void {
  // A response the session ended under has no usage: its row says who cut it, as a cut stream's does.
  const status = input.cut ? statusOfCutStream(input.cut) : 200;
  const outcome: CallOutcome = { status, selection: input.selection, usage: input.usage, upstreamMs: Math.max(input.now - input.startedAt, 0), firstByteMs: null, errorCode: input.cut ?? null, stream: true, attempts: 1 };
  const call = { endpoint: realtimeEndpoint, operation: { kind: 'passthrough' as const, path: '/realtime', search: '' }, clientFormat: 'chat-completions' as const, body: { model: input.selection.model } };
  const record = buildSpendRecord({ request, call, outcome, now: input.now, id: randomUUID() });
  recordSpend(spend, request, { ...record, ts: new Date(input.startedAt).toISOString(), latencyMs: Math.max(input.now - input.startedAt, 0) });
}
