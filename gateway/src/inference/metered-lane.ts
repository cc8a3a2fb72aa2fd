import { timeOrderedUuid } from '@gw/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failureOf } from '../chain/metering/metering.stage.js';
import { TranslationError } from '../providers/translate/translation-error.js';
import { isPlainObject } from '../providers/translate/parse-wire.js';
import { upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import { abortCauseOf, abortedCallError, callSignal } from './call-signal.js';
import { usageOfCutStream } from './cut-stream-usage.js';
import type { InferenceDeps } from './inference-deps.js';
import type { Lane, LaneReport } from './lane-report.js';
import { buildSpendRecord, type SettledCall } from './spend-from-call.js';
import { gatewayError } from '../errors.js';

/**
 * What a failed call answers. A call the client or the drain deadline cut short says so, whatever the cut looked like
 * from inside (499 `client_closed`, 503 `gateway_draining`); a provider answer the translator cannot read is the
 * provider's fault (502, marked upstream), not the client's.
 */
export function renderedFailure(thrown: unknown, signal: AbortSignal): unknown {
  const cause = abortCauseOf(signal);
  if (cause) return abortedCallError(cause);
  if (thrown instanceof TranslationError)
    return gatewayError(thrown.code, thrown.message, thrown.status >= 500 ? { headers: upstreamSourceHeaders() } : {});
  return thrown;
}

/**
 * How the call ended, for its row. A failure is its status and code (one mapping, `failureOf`); a call cut short
 * after its request reached a provider carries the prompt estimate, flagged, because the provider had the prompt and
 * bills it: on every lane, the same way.
 */
export function settle(report: LaneReport, signal: AbortSignal): { settled: SettledCall; rendered: unknown } {
  if (report.end.kind === 'relayed')
    return { settled: { relayed: report.end.relayed, selection: report.selection }, rendered: null };
  const rendered = renderedFailure(report.end.thrown, signal);
  const { status, code } = failureOf(rendered);
  const stream = report.call.body?.stream === true;
  const base = { status, errorCode: code, stream, firstByteMs: null };
  if (abortCauseOf(signal) && report.sent) {
    return {
      settled: {
        relayed: { ...base, usage: usageOfCutStream(undefined, report.call.body, 0), usageEstimated: true },
        selection: report.selection ?? report.sent.selection,
      },
      rendered,
    };
  }
  return {
    settled: { relayed: { ...base, usage: undefined, usageEstimated: false }, selection: report.selection },
    rendered,
  };
}

/** What wraps a lane into one metered call: the clock, the metering stage, the model table, the drain signal. */
export type MeteredLaneDeps = Pick<InferenceDeps, 'clock' | 'meter' | 'routing' | 'shutdown'>;

/**
 * The one way a lane is served: the call's signal made once, the lane run to its report, the report handed to the
 * metering stage as the call's one spend row and trace, and a failure rethrown for the error envelope.
 */
export function meteredLane(deps: MeteredLaneDeps, lane: Lane) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const signal = callSignal(reply, deps.shutdown);
    const report = await lane({ request, reply, signal });
    const { settled, rendered } = settle(report, signal);
    const now = deps.clock.now();
    const record = buildSpendRecord({
      request,
      report,
      settled,
      now,
      id: timeOrderedUuid(now),
      modelFacts: deps.routing.documents.models,
    });
    // The trace's content, kept only if the content mode allows it: the client's JSON request and the answer it got
    // (an upload's bytes are not content a trace keeps).
    deps.meter.record(request, record, {
      request: isPlainObject(request.body) ? request.body : null,
      response: settled.relayed.answer ?? null,
    });
    if (report.end.kind === 'failed') throw rendered;
    return reply;
  };
}
