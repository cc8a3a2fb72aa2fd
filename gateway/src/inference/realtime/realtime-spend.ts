import { isoInstant, timeOrderedUuid } from '@gw/platform';
import type { FastifyRequest } from 'fastify';
import type { MeteringStage } from '../../chain/metering/metering.stage.js';
import type { Usage } from '../../providers/translate/usage.js';
import type { Selection } from '../../routing/resolve-route.js';
import type { LaneReport, Relayed } from '../lane-report.js';
import { buildSpendRecord } from '../spend-from-call.js';
import { statusOfCutStream } from '../call-signal.js';
import type { CutCause } from './realtime-session.js';

export const realtimeEndpoint = '/v1/realtime';

/**
 * One content-free spend row per response of a session (a response the session ended under included), timed from the provider's `response.created` to its
 * `response.done`. Every row of a session carries the session's trace id and caller (bound once, at the upgrade).
 */
export function recordRealtimeResponse(
  meter: Pick<MeteringStage, 'recordSessionCall'>,
  request: FastifyRequest,
  input: { selection: Selection; usage: Usage | undefined; startedAt: number; now: number; cut?: CutCause },
): void {
  // A response the session ended under has no usage: its row says who cut it, as a cut stream's does.
  const relayed: Relayed = {
    status: input.cut ? statusOfCutStream(input.cut) : 200,
    errorCode: input.cut ?? null,
    usage: input.usage,
    usageEstimated: false,
    stream: true,
    firstByteMs: null,
  };
  const report: LaneReport = {
    call: { endpoint: realtimeEndpoint, body: { model: input.selection.model } },
    billingMode: 'api-key',
    selection: input.selection,
    sent: { selection: input.selection, at: input.startedAt },
    attempts: 1,
    end: { kind: 'relayed', relayed },
  };
  const record = buildSpendRecord({
    request,
    report,
    settled: { relayed, selection: input.selection },
    now: input.now,
    id: timeOrderedUuid(input.now),
  });
  meter.recordSessionCall(request, {
    ...record,
    ts: isoInstant(input.startedAt),
    latencyMs: Math.max(input.now - input.startedAt, 0),
  });
}
