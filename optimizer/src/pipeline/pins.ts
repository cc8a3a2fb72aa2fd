import { createHmac } from 'node:crypto';
import { isRecord } from '../format/json-value.js';
import type { SpanLocation } from '../format/request-view.js';
import { spanKey } from '../format/request-view.js';
import { isStrategyKind, type Recipe, type StrategyKind } from '../strategies/types.js';

/**
 * One settled-history rewrite: where it applies, an HMAC of the original bytes it applies to, and a
 * recipe that recomputes the rewritten bytes from them. Never the content itself.
 */
export interface SpanPin extends SpanLocation {
  readonly v: 1;
  readonly kind: StrategyKind;
  readonly spanHash: string;
  readonly recipe: Recipe;
  /** Tokens this step saved when decided, reported again on replay without recounting. */
  readonly saved: number;
}

/**
 * How far the provider has already seen this conversation: messages before `messageIndex` were sent settled,
 * their rewrites are pinned, and rewriting them again would bust the provider's prefix cache.
 */
export interface WatermarkPin {
  readonly v: 1;
  readonly kind: 'prefix_watermark';
  readonly messageIndex: number;
  /** HMAC of the last settled message, so an edited history does not inherit a stale watermark. */
  readonly spanHash: string;
  /** Kinds held back on the covered span(s) by a suppression; reported as `prefix_stabilizer` while frozen. */
  readonly held?: readonly StrategyKind[];
}

/** The two counters of the thrash guard, opaque to adapters. */
export interface ThrashGuardPin {
  readonly v: 1;
  readonly kind: 'pin_thrash_guard';
  /** Consecutive turns whose discards outnumbered their replays. */
  readonly strikes: number;
  /** Turns of suppression left. */
  readonly cooloff: number;
}

export interface IncomingSpanPin {
  readonly pin: SpanPin;
  /** The object exactly as the adapter sent it, returned verbatim when kept. */
  readonly raw: unknown;
  readonly key: string;
}

export interface IncomingPins {
  readonly spans: readonly IncomingSpanPin[];
  readonly watermark: WatermarkPin | undefined;
  readonly guard: ThrashGuardPin | undefined;
  /** Pins this optimizer does not understand (a newer version's): kept and returned as they came. */
  readonly foreign: readonly unknown[];
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function optionalIndex(value: unknown): boolean {
  return value === undefined || isIndex(value);
}

function readSpanPin(value: Record<string, unknown>): SpanPin | null {
  const { kind, messageIndex, partIndex, subIndex, spanHash, recipe, saved } = value;
  if (!isStrategyKind(kind) || !isIndex(messageIndex) || !optionalIndex(partIndex) || !optionalIndex(subIndex))
    return null;
  if (typeof spanHash !== 'string' || !isRecord(recipe) || typeof recipe.r !== 'number') return null;
  const pin: SpanPin = {
    v: 1,
    kind,
    messageIndex,
    ...(partIndex === undefined ? {} : { partIndex: partIndex as number }),
    ...(subIndex === undefined ? {} : { subIndex: subIndex as number }),
    spanHash,
    recipe: recipe as unknown as Recipe,
    saved: typeof saved === 'number' && Number.isFinite(saved) && saved >= 0 ? saved : 0,
  };
  return pin;
}

export function readPins(raw: readonly unknown[]): IncomingPins {
  const spans: IncomingSpanPin[] = [];
  const foreign: unknown[] = [];
  let watermark: WatermarkPin | undefined;
  let guard: ThrashGuardPin | undefined;
  for (const value of raw) {
    if (!isRecord(value) || value.v !== 1) {
      foreign.push(value);
      continue;
    }
    if (value.kind === 'pin_thrash_guard' && isIndex(value.strikes) && isIndex(value.cooloff)) {
      guard = { v: 1, kind: 'pin_thrash_guard', strikes: value.strikes, cooloff: value.cooloff };
      continue;
    }
    // Watermarks of earlier versions carry `at`, a wall-clock time: ignored, the service keeps turn times itself.
    if (value.kind === 'prefix_watermark' && isIndex(value.messageIndex) && typeof value.spanHash === 'string') {
      const held = Array.isArray(value.held) ? value.held.filter(isStrategyKind) : [];
      watermark = {
        v: 1,
        kind: 'prefix_watermark',
        messageIndex: value.messageIndex,
        spanHash: value.spanHash,
        ...(held.length > 0 ? { held } : {}),
      };
      continue;
    }
    const pin = readSpanPin(value);
    if (pin) spans.push({ pin, raw: value, key: spanKey(pin) });
    else foreign.push(value);
  }
  return { spans, watermark, guard, foreign };
}

/** 128-bit HMAC-SHA256 fingerprint, base64url: identifies bytes without revealing them. */
export function fingerprint(key: string | Uint8Array, label: string, content: string): string {
  return createHmac('sha256', key)
    .update(label)
    .update('\u0000')
    .update(content)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** spanHash of a pin: the strategy kind and location bound to the original bytes of the span. */
export function spanHash(
  key: string | Uint8Array,
  kind: StrategyKind,
  location: SpanLocation,
  original: string,
): string {
  return fingerprint(key, `pin:v1:${kind}:${spanKey(location)}`, original);
}
