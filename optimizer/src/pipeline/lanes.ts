import type { EvidenceClass, OptimizeCapabilities } from '@gw/contracts';
import type { JsonObject } from '../format/json-value.js';
import type { RequestView } from '../format/request-view.js';
import type { ElisionMode } from '../strategies/types.js';
import { classifyEvidence, qualifiesForFreshTrim } from './evidence-class.js';

export type DegradeMode = ElisionMode | 'skip';

export interface Lane {
  /** Fresh handles may be emitted. */
  readonly retrieval: boolean;
  /** How degradable strategies run on this request. */
  readonly degrade: DegradeMode;
  /** How window fitting may drop content: as `degrade`, or in place for one-shot batch lines. */
  readonly windowDegrade: DegradeMode;
  /** Which pins may replay: none without a callable tool, handle-free ones without retrieval. */
  readonly replay: 'all' | 'handle_free' | 'none';
  readonly continuation: boolean;
  /** The fresh input may be optimized: the connect hook's single-output request. */
  readonly freshEligible: boolean;
  /**
   * Bulky outputs of the fresh turn may be compressed behind a handle, pinned and replayed on every later turn: the
   * gateway sent `retrievalDiscovery` and the request qualifies (docs/adr/0021-fresh-reversible-trimming.md).
   */
  readonly freshReversible: boolean;
  /** Only when the gateway sent `retrievalDiscovery`: the class it records on the spend row. */
  readonly evidence: EvidenceClass | undefined;
}

const subscriptionModes = new Set(['subscription', 'seat', 'subscription_seat', 'passthrough']);

/**
 * The lane of a request. Retrieval is proven only by an exact `gw_retrieve` declaration the model may call, or by
 * the gateway's `retrieveEvidence` capability; `metadata` (honor system) grants nothing. The billing mode the
 * gateway stamps in metadata only chooses between trimming in place and skipping, never retrieval.
 */
export function resolveLane(
  view: RequestView,
  capabilities: OptimizeCapabilities,
  metadata: JsonObject,
  requireReversibleElision: boolean | null | undefined,
  continuationActive: boolean,
): Lane {
  const freshEligible = capabilities.singleOutput === true || capabilities.terminalTrim === true;
  const callable = !view.tools.choiceNone;
  const evidence =
    capabilities.retrievalDiscovery === undefined
      ? undefined
      : classifyEvidence(view.tools, capabilities.retrievalDiscovery);
  const freshReversible = evidence !== undefined && qualifiesForFreshTrim(evidence);
  const retrieval =
    callable && (view.tools.retrieveDeclared || capabilities.retrieveEvidence === true || freshReversible);
  if (retrieval)
    return {
      retrieval,
      degrade: 'handle',
      windowDegrade: 'handle',
      replay: 'all',
      continuation: false,
      freshEligible,
      freshReversible,
      evidence,
    };
  // The continuation capability counts only once the rollout is activated; before, fail open.
  const continuation = capabilities.agentContinuation === true && continuationActive;
  const billingMode = typeof metadata.billingMode === 'string' ? metadata.billingMode : '';
  let degrade: DegradeMode = 'skip';
  if (requireReversibleElision === true) degrade = 'skip';
  else if (continuation || subscriptionModes.has(billingMode) || requireReversibleElision === false)
    degrade = 'in_place';
  const windowDegrade: DegradeMode =
    degrade === 'skip' && capabilities.allowIrreversibleWindowFit === true ? 'in_place' : degrade;
  // Withholds pin replay only where no tool is callable; a client with tools but no retrieval keeps its
  // handle-free pins, so what it was sent stays byte-stable across turns.
  const replay = continuation || (callable && view.tools.declared) ? 'handle_free' : 'none';
  return { retrieval, degrade, windowDegrade, replay, continuation, freshEligible, freshReversible: false, evidence };
}
