import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeRequestError, timeOrderedUuid, type Clock } from '@gw/platform';
import type { SpendRecord } from '../../metering/spend-record.js';
import type { SpendRecorder } from '../../metering/spend-recorder.js';
import type { TraceContent, TraceWriter } from '../../metering/traces/trace-writer.js';
import { rejectionRecord } from './rejection-record.js';

/** What a call's failure is on the record: its status and reason code. The one mapping, for lanes and refusals alike. */
export function failureOf(thrown: unknown): { status: number; code: string } {
  const { status, code } = normalizeRequestError(thrown, { service: 'gateway' });
  return { status, code };
}

/** A call's own row: its trace is written with it. */
const CALL_ROW = { traced: true } as const;

export interface MeteringStageDeps {
  spend: Pick<SpendRecorder, 'record'>;
  /** Writes a trace's sealed content; null where content is never kept. The trace itself goes with the spend row. */
  traces: Pick<TraceWriter, 'write'> | null;
  /** Whether a call's content may be kept with its trace now: content mode `full` and `GW_CONTENT_KEY` set. */
  contentAllowed: () => boolean;
  clock: Clock;
}

/**
 * The metering stage: the one place a `/v1/*` call becomes its content-free spend row and its trace, exactly once per
 * request. The lanes hand it what their call did (`inference/metered-lane.ts`); a request that ended before any lane
 * ran (an admission refusal, an entitlement refusal, a body that did not parse or validate) is recorded by the
 * stage's error hook from the error alone. Requests without an identity (401s), routes that call no provider
 * (`unmetered`) and the gateway's own failures before a lane (5xx) record nothing.
 */
export class MeteringStage {
  constructor(private readonly deps: MeteringStageDeps) {}

  /** Whether a call's content would be kept now, so a lane reads a stream whole only when it will be. */
  keepsContent(): boolean {
    return this.deps.traces !== null && this.deps.contentAllowed();
  }

  /**
   * Records the call's one row and trace; a request already recorded is left as it is. The content goes with the
   * trace only when the content mode allows it and the content key is set; never on the spend row.
   */
  record(request: FastifyRequest, record: SpendRecord, content: TraceContent | null = null): void {
    if (request.gw.metered) return;
    request.gw.metered = true;
    this.deps.spend.record(record, CALL_ROW);
    if (content && this.keepsContent()) this.deps.traces?.write(record, content);
  }

  /**
   * A long-lived session (a realtime socket) carries many calls on one request: each of its responses is its own
   * row and trace, recorded as it completes. The request itself is marked metered so nothing else records it.
   */
  recordSessionCall(request: FastifyRequest, record: SpendRecord): void {
    request.gw.metered = true;
    this.deps.spend.record(record, CALL_ROW);
  }

  /**
   * Rows that bill work a call delivered on someone's behalf rather than the call itself: the lines of a batch's
   * output, each billed to the batch's creator. The lane claims each line first, so no line is recorded twice; the
   * download call still gets its own one row (no tokens) through `record`. Rows only, no traces: the trace is the call's.
   */
  recordLines(records: readonly SpendRecord[]): void {
    for (const record of records) this.deps.spend.record(record);
  }

  /** The row of a request refused before a lane ran: outcome `rejected`, its status and code, no tokens. */
  refusal(request: FastifyRequest, thrown: unknown): void {
    if (!request.gw?.identity || request.gw.metered || request.routeOptions.config.unmetered === true) return;
    const denial = failureOf(thrown);
    if (denial.status >= 500) return;
    const now = this.deps.clock.now();
    this.record(request, rejectionRecord({ request, denial, now, id: timeOrderedUuid(now) }));
  }
}

/** Registers the stage's error hook: a request refused before its lane still gets its one row. */
export function registerMeteringStage(app: FastifyInstance, stage: MeteringStage): void {
  app.addHook('onError', (request, _reply, error, done) => {
    stage.refusal(request, error);
    done();
  });
}
