import { createHash } from 'node:crypto';
import type { OptimizeRequest } from '@gw/contracts';
import type { CorpusSession, Needle } from './corpus.js';
import { GatewayForwarding } from './gateway-forwarding.js';
import { contextTokensOf, inputPricePerMTok } from './models.js';
import type { OptimizerService } from './optimizer-service.js';
import { billUnits, cacheTtlMs, PromptCache } from './prompt-cache.js';
import { messageText, promptUnits, requestTexts, totalTokens, type TokenCounter } from './prompt-units.js';
import type { BenchLane } from './options.js';
import { outputKindsByMessage, type OutputKind } from './output-kinds.js';
import { cacheReadMultiplier, cacheWriteMultiplier } from './prompt-cache.js';
import { ErrorLineAudit, handlesIn, needleVerdict, Recovery, type NeedleVerdict } from './retention.js';
import { freshStart, requestPrefixes } from './turns.js';

export interface RequestRecord {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Input-token units billed (reads 0.1×, writes 1.25×), unoptimized and as forwarded. */
  readonly baselineUnits: number;
  readonly optimizedUnits: number;
  /** Retrieval round trips this request made the model pay for, and their units (included in `optimizedUnits`). */
  readonly retrievalRoundTrips: number;
  readonly retrievalUnits: number;
  readonly ms: number;
  readonly roundTripMs: number;
  readonly pipelineMs: number;
  /** The settled prefix of the previous turn came back byte for byte; null on a first turn or after the cache expired. */
  readonly stable: boolean | null;
}

export interface SessionResult {
  readonly name: string;
  readonly model: string;
  readonly pricePerMTok: number;
  readonly requests: readonly RequestRecord[];
  /** Each needle's worst verdict over every request that carried its message. */
  readonly needles: readonly NeedleVerdict[];
  readonly errorLines: { readonly checked: number; readonly lost: number };
  /** Tokens each strategy kind reported saving, summed over the session's requests. */
  readonly savedByKind: Readonly<Record<string, number>>;
  /** Per kind of tool output: its tokens on first appearance, and the units saved (approximate attribution). */
  readonly byOutputKind: Readonly<Partial<Record<OutputKind, OutputKindTally>>>;
}

export interface OutputKindTally {
  firstSeenTokens: number;
  /** Tokens removed × 1.25 on the turn an output first appears, × 0.1 on every later turn with a warm cache. */
  savedUnits: number;
}

export interface ReplayContext {
  readonly service: OptimizerService;
  readonly counter: TokenCounter;
  readonly thinkMs: number;
  readonly retrieveEvidence: boolean;
  readonly lane: BenchLane;
  /** Clock time of the session's first request. */
  readonly startAt: number;
}

// The gateway stores at most this much of a session's pins (gateway/src/optimization/hook/session-pins.ts).
const maxPinBytes = 256 * 1024;
const verdictRank: Record<NeedleVerdict, number> = { verbatim: 0, grep: 1, retrieve: 2, lost: 3 };

/** What the gateway's pre-call hook sends (gateway/src/optimization/hook/pre-call-hook.ts), pins aside. */
function hookBody(session: CorpusSession, context: ReplayContext): Omit<OptimizeRequest, 'request' | 'pins'> {
  const contextTokens = contextTokensOf(session.model);
  return {
    endpoint: session.endpoint,
    metadata: {
      user: `bench-${session.name}`,
      gatewaySessionId: `gws_${createHash('sha256').update(session.name).digest('base64url').slice(0, 24)}`,
      ...(contextTokens ? { modelContextTokens: contextTokens } : {}),
      clientCanRetrieve: leased(context),
      billingMode: 'api_key',
    },
    // The benchmark prices every provider with a prompt cache, so the optimizer is told the upstream caches. A
    // connected session holds the retrieval lease from its first request, and the gateway says so as a capability.
    capabilities: {
      canShortCircuit: true,
      retrieveEvidence: leased(context),
      providerPromptCache: true,
      providerPromptCacheKnown: true,
      ...(context.lane === 'connected' ? { retrievalDiscovery: 'lease_live' as const } : {}),
    },
  };
}

function leased(context: ReplayContext): boolean {
  return context.retrieveEvidence || context.lane === 'connected';
}

function headOf(request: Record<string, unknown>): string {
  return JSON.stringify([request.tools ?? null, request.system ?? null, request.tool_choice ?? null]);
}

function messagesOf(request: Record<string, unknown>): unknown[] {
  return Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
}

/** Every message the previous request had settled, and its head, are byte-identical in this one. */
function replayedExactly(previous: Record<string, unknown>, current: Record<string, unknown>): boolean {
  if (headOf(previous) !== headOf(current)) return false;
  const before = messagesOf(previous);
  const after = messagesOf(current);
  const settled = freshStart(before);
  for (let index = 0; index < settled; index += 1)
    if (JSON.stringify(before[index]) !== JSON.stringify(after[index])) return false;
  return true;
}

class NeedleTally {
  private readonly worst: NeedleVerdict[];

  constructor(private readonly needles: readonly Needle[]) {
    this.worst = needles.map(() => 'verbatim');
  }

  private readonly paid = new Set<number>();

  /**
   * Judges every needle the request carries; returns what the model read back for each needle that became
   * recoverable only through a handle in this request (one retrieval round trip each, paid once per needle).
   */
  async check(request: Record<string, unknown>, messageCount: number, recovery: Recovery): Promise<string[]> {
    const live = this.needles
      .map((needle, index) => ({ needle, index }))
      .filter(({ needle }) => needle.where < messageCount);
    if (live.length === 0) return [];
    const texts = requestTexts(request);
    const joined = texts.join('\n');
    const handles = handlesIn(texts);
    const retrieved: string[] = [];
    for (const { needle, index } of live) {
      const outcome = await needleVerdict(needle, joined, handles, recovery);
      if (verdictRank[outcome.verdict] > verdictRank[this.worst[index] ?? 'verbatim'])
        this.worst[index] = outcome.verdict;
      if (outcome.retrieved !== undefined && !this.paid.has(index)) {
        this.paid.add(index);
        retrieved.push(outcome.retrieved);
      }
    }
    return retrieved;
  }

  verdicts(): NeedleVerdict[] {
    return [...this.worst];
  }
}

/**
 * One session, turn by turn, as the gateway drives the optimizer: a stable session id, the pins it returned
 * persisted and sent back on the next turn, the body forwarded as the gateway forwards it. Each forwarded
 * request is billed against this session's prompt cache and checked for needles, error lines and replay stability.
 */
export async function replaySession(session: CorpusSession, context: ReplayContext): Promise<SessionResult> {
  const { service, counter } = context;
  const base = hookBody(session, context);
  const caches = { baseline: new PromptCache(), optimized: new PromptCache() };
  const recovery = new Recovery(service);
  const audit = new ErrorLineAudit();
  const needles = new NeedleTally(session.needles);
  const savedByKind: Record<string, number> = {};
  const requests: RequestRecord[] = [];
  const errorLines = { checked: 0, lost: 0 };
  const gateway = new GatewayForwarding(leased(context), session.format);
  const byOutputKind: Partial<Record<OutputKind, OutputKindTally>> = {};
  const outputKinds = outputKindsByMessage(messagesOf(session.request));
  let pins: Record<string, unknown>[] = [];
  let previous: { forwarded: Record<string, unknown>; at: number; messageCount: number } | null = null;
  const prefixes = requestPrefixes(session.request);
  for (const [turn, original] of prefixes.entries()) {
    const at = context.startAt + turn * context.thinkMs;
    service.clock.set(at);
    const { response, ms, roundTripMs, pipelineMs } = await service.optimize({ ...base, request: original, pins });
    const forwarded = gateway.chosen(response, original);
    if (response.pins && JSON.stringify(response.pins).length <= maxPinBytes) pins = response.pins;
    for (const decision of response.decisions)
      savedByKind[decision.kind] = (savedByKind[decision.kind] ?? 0) + decision.estimatedTokensSaved;
    const before = promptUnits(original, counter);
    // Billed as sent upstream; stability and retention are judged on the optimizer's part of it.
    const after = promptUnits(gateway.forward(forwarded), counter);
    const cold = previous !== null && at - previous.at >= cacheTtlMs;
    const originalMessages = messagesOf(original);
    tallyOutputKinds(
      byOutputKind,
      outputKinds,
      originalMessages,
      messagesOf(forwarded),
      previous?.messageCount ?? 0,
      counter,
    );
    const retrieved = await needles.check(forwarded, originalMessages.length, recovery);
    const retrievalUnits = retrieved.reduce(
      (sum, text) => sum + roundTripUnits(totalTokens(after), counter.count(text), prefixes.length - 1 - turn),
      0,
    );
    requests.push({
      tokensBefore: totalTokens(before),
      tokensAfter: totalTokens(after),
      baselineUnits: billUnits(caches.baseline.bill(before, at)),
      optimizedUnits: billUnits(caches.optimized.bill(after, at)) + retrievalUnits,
      retrievalRoundTrips: retrieved.length,
      retrievalUnits,
      ms,
      roundTripMs,
      pipelineMs,
      stable: previous === null || cold ? null : replayedExactly(previous.forwarded, forwarded),
    });
    const lines = await audit.check(originalMessages, messagesOf(forwarded), recovery);
    errorLines.checked += lines.checked;
    errorLines.lost += lines.lost;
    previous = { forwarded, at, messageCount: originalMessages.length };
  }
  return {
    name: session.name,
    model: session.model,
    pricePerMTok: inputPricePerMTok(session.model),
    requests,
    needles: needles.verdicts(),
    errorLines,
    savedByKind,
    byOutputKind,
  };
}

/**
 * One retrieval round trip, priced as it would be billed: the model's call re-reads the whole request from the
 * cache (0.1×), the retrieved text is written (1.25×) and then read again on every later turn of the session (0.1×).
 * The model's short tool call itself is left out.
 */
export function roundTripUnits(requestTokens: number, retrievedTokens: number, laterTurns: number): number {
  return (
    requestTokens * cacheReadMultiplier +
    retrievedTokens * cacheWriteMultiplier +
    retrievedTokens * cacheReadMultiplier * Math.max(0, laterTurns)
  );
}

/** Attributes what each tool message lost in this request to its kind of output (see `OutputKindTally`). */
function tallyOutputKinds(
  tallies: Partial<Record<OutputKind, OutputKindTally>>,
  kinds: ReadonlyMap<number, OutputKind>,
  original: readonly unknown[],
  forwarded: readonly unknown[],
  firstNew: number,
  counter: TokenCounter,
): void {
  for (const [index, kind] of kinds) {
    if (index >= original.length) continue;
    const tally = (tallies[kind] ??= { firstSeenTokens: 0, savedUnits: 0 });
    const before = counter.count(messageText(original[index]));
    if (index >= firstNew) tally.firstSeenTokens += before;
    const after =
      JSON.stringify(forwarded[index]) === JSON.stringify(original[index])
        ? before
        : counter.count(messageText(forwarded[index]));
    tally.savedUnits += (before - after) * (index >= firstNew ? cacheWriteMultiplier : cacheReadMultiplier);
  }
}
