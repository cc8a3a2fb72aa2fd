import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpendRecord } from '../metering/spend-record.js';
import type { Optimization } from '../optimization/hook/pre-call-hook.js';
import type { Usage } from '../providers/translate/usage.js';
import type { Selection } from '../routing/resolve-route.js';

/** What the provider's answer became on its way to the client: a value each relay returns. */
export interface Relayed {
  /** The status the client got; for a stream cut short, the status its row gives it (499, 502, 503). */
  status: number;
  errorCode: string | null;
  usage: Usage | undefined;
  /** `usage` is the gateway's estimate for a stream cut before the provider reported it. */
  usageEstimated: boolean;
  stream: boolean;
  /** Streams: from the upstream send to the first byte the client got. */
  firstByteMs: number | null;
  /**
   * The answer the client got, when the gateway read it whole as JSON: content, for the trace only (and only when
   * the content mode allows it), never the spend row. Absent for streams and opaque bodies.
   */
  answer?: unknown;
}

/** The request went to a provider at this time: the provider has the prompt, whatever happens next. */
export interface Sent {
  selection: Selection;
  at: number;
}

/**
 * What one call did, as a value every lane returns, answered or failed: the metering stage turns it into the call's
 * one spend row and trace (`metered-lane.ts`). Lanes never throw past it.
 */
export interface LaneReport {
  /** The call as sent to the provider (after the optimizer): its endpoint, model and prompt. */
  call: { endpoint: string; body: Record<string, unknown> | undefined };
  /** Who pays: the organization's key, the developer's own subscription, overflow onto the org key, or nobody. */
  billingMode: SpendRecord['billingMode'];
  /** The target the record names: the one that answered (or, for an opaque call, the one chosen). */
  selection: Selection | null;
  /** The last upstream send; null when the request never went to a provider. */
  sent: Sent | null;
  /** Upstream tries made (retries and fallbacks included). */
  attempts: number;
  /** The pre-call hook's outcome; absent on lanes the optimizer never sees. */
  optimization?: Optimization;
  /** The gateway session (sticky conversation) this call belongs to, for per-session quality measures. */
  sessionId?: string | null;
  /** The answer relayed to the client, or what was thrown instead (rendered by the error envelope). */
  end: { kind: 'relayed'; relayed: Relayed } | { kind: 'failed'; thrown: unknown };
}

/** What a lane runs with: the request, its reply, and the call's signal (aborted when the client leaves or the drain deadline passes). */
export interface LaneScope {
  request: FastifyRequest;
  reply: FastifyReply;
  signal: AbortSignal;
}

/** A lane: one kind of `/v1/*` call from the admitted request to the relayed answer. */
export type Lane = (scope: LaneScope) => Promise<LaneReport>;
