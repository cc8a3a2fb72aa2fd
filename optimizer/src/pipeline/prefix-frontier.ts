import type { RequestView } from '../format/request-view.js';
import type { StrategyKind } from '../strategies/types.js';
import { fingerprint, type IncomingPins, type WatermarkPin } from './pins.js';
import type { ReplayOutcome } from './replay-pins.js';
import type { RunContext } from './run-context.js';

/** Provider prompt caches expire after about five minutes without a hit; after that nothing is left to protect. */
export const providerCacheTtlMs = 5 * 60_000;

function boundaryHash(context: RunContext, view: RequestView, messageIndex: number): string {
  const boundary = messageIndex > 0 ? JSON.stringify(view.messageAt(messageIndex - 1) ?? null) : '';
  return fingerprint(context.deps.hmacKey, `watermark:v1:${messageIndex}`, boundary);
}

/** What the turn log remembers a watermark by: the turn that left it, identified without content. */
function turnKey(watermark: WatermarkPin): string {
  return `${watermark.messageIndex}:${watermark.spanHash}`;
}

export interface Frontier {
  /** Unpinned settled spans before this message index were already sent as they are: leave them alone. */
  readonly index: number;
  /** Kinds held back on frozen spans when they settled (reported as `prefix_stabilizer`). */
  readonly held: readonly StrategyKind[];
  /** The provider's cache expired since the last turn: rewriting settled history busts nothing. */
  readonly cold: boolean;
}

/**
 * Where fresh decisions may start (fresh-decide only the suffix). With a warm provider cache
 * that is the previous turn's fresh turn, newly settled now: compressing it once and replaying that rewrite keeps
 * every later prefix byte-stable. Without a (trusted) watermark the fallback is the last pinned
 * position; a discarded pin moves it earlier (the bytes there changed anyway); a cold cache or no cache frees it.
 */
export function resolveFrontier(context: RunContext, pins: IncomingPins | null, replay: ReplayOutcome): Frontier {
  if (!pins || context.lane.replay === 'none' || context.cacheMode === 'none')
    return { index: 0, held: [], cold: false };
  const watermark = pins.watermark;
  let index: number;
  let held: readonly StrategyKind[] = [];
  let cold = false;
  if (
    watermark &&
    watermark.messageIndex <= context.view.messageCount &&
    boundaryHash(context, context.view, watermark.messageIndex) === watermark.spanHash
  ) {
    const now = context.deps.clock?.now();
    const answeredAt = context.deps.turns?.answeredAt(turnKey(watermark));
    cold = now !== undefined && answeredAt !== undefined && now - answeredAt >= providerCacheTtlMs;
    index = cold ? 0 : watermark.messageIndex;
    held = cold ? [] : (watermark.held ?? []);
  } else {
    index = replay.lastReplayedIndex === undefined ? 0 : replay.lastReplayedIndex + 1;
  }
  if (replay.firstDiscardIndex !== undefined) index = Math.min(index, replay.firstDiscardIndex);
  return { index, held: index > 0 ? held : [], cold };
}

/** The watermark this turn leaves for the next: everything before the fresh turn has now been decided. */
export function nextWatermark(context: RunContext, carriedHeld: readonly StrategyKind[]): WatermarkPin {
  const view = context.view;
  const messageIndex = view.freshStart;
  const held = [...new Set([...carriedHeld, ...context.held])];
  return {
    v: 1,
    kind: 'prefix_watermark',
    messageIndex,
    spanHash: boundaryHash(context, view, messageIndex),
    ...(held.length > 0 ? { held } : {}),
  };
}

/** This turn was answered now: the next turn, arriving with this watermark, measures the cache's age from here. */
export function rememberTurn(context: RunContext, watermark: WatermarkPin): void {
  const now = context.deps.clock?.now();
  if (now !== undefined) context.deps.turns?.answered(turnKey(watermark), now);
}
