import { createHash } from 'node:crypto';
import type { OptimizeRequest } from '@gw/contracts';
import type { CorpusSession, Needle } from './corpus.js';
import { GatewayForwarding } from './gateway-forwarding.js';
import { contextTokensOf, inputPricePerMTok } from './models.js';
import type { OptimizerService } from './optimizer-service.js';
import { billUnits, cacheTtlMs, PromptCache } from './prompt-cache.js';
import { promptUnits, requestTexts, totalTokens, type TokenCounter } from './prompt-units.js';
import { ErrorLineAudit, handlesIn, needleVerdict, Recovery, type NeedleVerdict } from './retention.js';
import { freshStart, requestPrefixes } from './turns.js';

export interface RequestRecord {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Input-token units billed (reads 0.1×, writes 1.25×), unoptimized and as forwarded. */
  readonly baselineUnits: number;
  readonly optimizedUnits: number;
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
}

export interface ReplayContext {
  readonly service: OptimizerService;
  readonly counter: TokenCounter;
  readonly thinkMs: number;
  readonly retrieveEvidence: boolean;
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
      clientCanRetrieve: context.retrieveEvidence,
      billingMode: 'api_key',
    },
    // The benchmark prices every provider with a prompt cache, so the optimizer is told the upstream caches.
    capabilities: { canShortCircuit: true, retrieveEvidence: context.retrieveEvidence, providerPromptCache: true, providerPromptCacheKnown: true },
  };
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
  for (let index = 0; index < settled; index += 1) if (JSON.stringify(before[index]) !== JSON.stringify(after[index])) return false;
  return true;
}

class NeedleTally {
  private readonly worst: NeedleVerdict[];

  constructor(private readonly needles: readonly Needle[]) {
    this.worst = needles.map(() => 'verbatim');
  }

  async check(request: Record<string, unknown>, messageCount: number, recovery: Recovery): Promise<void> {
    const live = this.needles.map((needle, index) => ({ needle, index })).filter(({ needle }) => needle.where < messageCount);
    if (live.length === 0) return;
    const texts = requestTexts(request);
    const joined = texts.join('\n');
    const handles = handlesIn(texts);
    for (const { needle, index } of live) {
      const verdict = await needleVerdict(needle, joined, handles, recovery);
      if (verdictRank[verdict] > verdictRank[this.worst[index] ?? 'verbatim']) this.worst[index] = verdict;
    }
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
  const gateway = new GatewayForwarding(context.retrieveEvidence, session.format);
  let pins: Record<string, unknown>[] = [];
  let previous: { forwarded: Record<string, unknown>; at: number } | null = null;
  for (const [turn, original] of requestPrefixes(session.request).entries()) {
    const at = context.startAt + turn * context.thinkMs;
    service.clock.set(at);
    const { response, ms, roundTripMs, pipelineMs } = await service.optimize({ ...base, request: original, pins });
    const forwarded = gateway.chosen(response, original);
    if (response.pins && JSON.stringify(response.pins).length <= maxPinBytes) pins = response.pins;
    for (const decision of response.decisions) savedByKind[decision.kind] = (savedByKind[decision.kind] ?? 0) + decision.estimatedTokensSaved;
    const before = promptUnits(original, counter);
    // Billed as sent upstream; stability and retention are judged on the optimizer's part of it.
    const after = promptUnits(gateway.forward(forwarded), counter);
    const cold = previous !== null && at - previous.at >= cacheTtlMs;
    requests.push({
      tokensBefore: totalTokens(before),
      tokensAfter: totalTokens(after),
      baselineUnits: billUnits(caches.baseline.bill(before, at)),
      optimizedUnits: billUnits(caches.optimized.bill(after, at)),
      ms,
      roundTripMs,
      pipelineMs,
      stable: previous === null || cold ? null : replayedExactly(previous.forwarded, forwarded),
    });
    const originalMessages = messagesOf(original);
    await needles.check(forwarded, originalMessages.length, recovery);
    const lines = await audit.check(originalMessages, messagesOf(forwarded), recovery);
    errorLines.checked += lines.checked;
    errorLines.lost += lines.lost;
    previous = { forwarded, at };
  }
  return { name: session.name, model: session.model, pricePerMTok: inputPricePerMTok(session.model), requests, needles: needles.verdicts(), errorLines, savedByKind };
}
