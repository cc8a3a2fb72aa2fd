import type { Logger } from '@gw/platform';
import type { RecallResponse, RetrieveRequest, RetrieveResponse } from '@gw/contracts';
import type { Identity } from '../../identity/caller.js';
import { OptimizerCallError, type OptimizerClient } from '../hook/optimizer-client.js';
import type { RetrievalMetrics, RetrievalSurface } from './retrieval-metrics.js';
import { isSliceRequest, type RetrieveArguments } from './retrieval.schema.js';

/**
 * Who asked. `model`: a model's tool call (through `/mcp` or the connect tool server) — a regret signal for the
 * regression guard, so no `metadata.source`. `probe`: a human or CLI check (`x-gw-retrieve-probe: 1`) — an automated
 * caller, labelled so the guard excludes it.
 */
export type RetrievalCaller = 'model' | 'probe';

/**
 * What a retrieve returns to the developer's side: the optimizer's answer, field by field, without `ageBucket` (spec
 * 001 rule 6: recorded by the gateway, never returned) or any field the protocol may add later.
 */
export interface RetrievedOriginal {
  handle: string;
  content: string;
  totalLines: number;
  totalChars: number;
  partial: boolean;
  startLine?: number;
  endLine?: number;
  grepMatches?: number;
  grepTruncated?: boolean;
}

export type RetrieveFailure = 'not_found' | 'unavailable' | 'slice_unsupported';

export type RetrieveOutcome = { status: 'ok'; original: RetrievedOriginal } | { status: RetrieveFailure };

export type RecallMatch = RecallResponse['matches'][number];

export interface RetrievalServiceDeps {
  /** Null when `GW_OPTIMIZER_URL` is unset: retrieve answers unavailable, recall answers no matches. */
  optimizer: OptimizerClient | null;
  metrics: RetrievalMetrics;
  logger: Logger;
}

/** The gateway side of `/v1/retrieve` and `/v1/recall`, shared by the `/mcp` tools and the connect routes. */
export class RetrievalService {
  constructor(private readonly deps: RetrievalServiceDeps) {}

  async retrieve(
    identity: Identity,
    request: RetrieveArguments,
    caller: RetrievalCaller,
    surface: RetrievalSurface,
  ): Promise<RetrieveOutcome> {
    const outcome = await this.callRetrieve(identity, request, caller);
    this.deps.metrics.calls.inc({ surface, operation: 'retrieve', outcome: outcome.status });
    return outcome;
  }

  /** Ranked matches from the caller's own stash. Fails open: any problem is no matches. */
  async recall(
    identity: Identity,
    query: string,
    k: number | undefined,
    surface: RetrievalSurface,
  ): Promise<RecallMatch[]> {
    const optimizer = this.deps.optimizer;
    let matches: RecallMatch[] = [];
    let outcome = 'ok';
    if (!optimizer) {
      outcome = 'unavailable';
    } else if (query.trim() !== '') {
      try {
        const answer = await optimizer.recall({
          query,
          ...(k === undefined ? {} : { k }),
          metadata: attribution(identity),
        });
        // Picked field by field: the protocol is open to additive fields that must not reach the client.
        matches = answer.matches.map(({ handle, score, preview, startLine, endLine }) => ({
          handle,
          score,
          preview,
          ...(startLine === undefined ? {} : { startLine }),
          ...(endLine === undefined ? {} : { endLine }),
        }));
      } catch (error) {
        outcome = 'unavailable';
        this.deps.logger.warn({ err: error }, 'recall failed; answering no matches');
      }
    }
    this.deps.metrics.calls.inc({ surface, operation: 'recall', outcome });
    return matches;
  }

  private async callRetrieve(
    identity: Identity,
    request: RetrieveArguments,
    caller: RetrievalCaller,
  ): Promise<RetrieveOutcome> {
    const optimizer = this.deps.optimizer;
    if (!optimizer) return { status: 'unavailable' };
    const body: RetrieveRequest = {
      handle: request.handle,
      metadata: { ...attribution(identity), ...(caller === 'probe' ? { source: 'probe' } : {}) },
      ...(request.startLine === undefined ? {} : { startLine: request.startLine }),
      ...(request.endLine === undefined ? {} : { endLine: request.endLine }),
      ...(request.grep === undefined ? {} : { grep: request.grep }),
    };
    try {
      const answer = await optimizer.retrieve(body);
      if (answer.ageBucket) this.deps.metrics.ageBuckets.inc({ bucket: answer.ageBucket });
      return { status: 'ok', original: pickOriginal(answer) };
    } catch (error) {
      const failure = classifyFailure(error, isSliceRequest(request));
      if (failure !== 'not_found') this.deps.logger.warn({ err: error, failure }, 'retrieve failed');
      return { status: failure };
    }
  }
}

/**
 * 404 is a real miss; 503, a timeout or an unreachable optimizer is "store unavailable". A
 * slice request that an older optimizer rejects as a bad request, or answers without the slice-aware fields, is
 * version skew: `slice_unsupported`. The gateway validates grep first, so a 400 here is not the
 * caller's grep.
 */
export function classifyFailure(error: unknown, sliced: boolean): RetrieveFailure {
  if (!(error instanceof OptimizerCallError)) return 'unavailable';
  if (error.reason === 'status' && error.status === 404) return 'not_found';
  if (!sliced) return 'unavailable';
  if (error.reason === 'malformed') return 'slice_unsupported';
  if (error.reason === 'status' && (error.status === 400 || error.status === 422)) return 'slice_unsupported';
  return 'unavailable';
}

function pickOriginal(answer: RetrieveResponse): RetrievedOriginal {
  const original: RetrievedOriginal = {
    handle: answer.handle,
    content: answer.content,
    totalLines: answer.totalLines,
    totalChars: answer.totalChars,
    partial: answer.partial,
  };
  if (answer.partial) {
    if (answer.startLine !== undefined) original.startLine = answer.startLine;
    if (answer.endLine !== undefined) original.endLine = answer.endLine;
    if (answer.grepMatches !== undefined) original.grepMatches = answer.grepMatches;
    if (answer.grepTruncated !== undefined) original.grepTruncated = answer.grepTruncated;
  }
  return original;
}

/** Attribution only, bound from the key (never content): recall searches only this user's stash. */
function attribution(identity: Identity): { user?: string; team: string } {
  return { ...(identity.user ? { user: identity.user } : {}), team: identity.team };
}
