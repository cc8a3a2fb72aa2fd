import { isoInstant } from '@gw/platform';
import { providerCacheTtlMs } from '../pipeline/prefix-frontier.js';
import { firstBust, promptShape, type LintRegion, type PromptShape } from './prompt-shape.js';

export interface CacheLintRegion {
  region: LintRegion;
  /** Turns in the window whose prompt stopped repeating the session's previous one here. */
  busts: number;
  /** Distinct sessions among them (a lower bound beyond 1,000 per region and minute). */
  sessions: number;
  /** About four characters a token: what the provider wrote again (1.25× input price) instead of reading (0.1×). */
  estimatedTokensRewritten: number;
  lastSeenAt: string;
  hint: string;
}

/** The `cacheLint` block of the settings view: a per-replica rolling window. */
export interface CacheLintView {
  windowSeconds: number;
  /** Turns compared with their session's previous turn while the provider's cache was still warm. */
  turnsCompared: number;
  /** Most tokens rewritten first. */
  regions: CacheLintRegion[];
}

const hints: Record<LintRegion, string> = {
  model: 'The model changed within a session; every model has its own cache, so the whole prompt was written again.',
  tools:
    'The tool definitions changed between turns (added, removed, reordered or reworded); keep them fixed for a session.',
  system:
    'The system prompt changed between turns (a timestamp or per-turn context?); move what varies after the cached prefix.',
  tool_choice: 'tool_choice changed between turns; the conversation was written again.',
  history:
    'An earlier message changed (client-side compaction, truncation or edited history); everything from it on was written again.',
};

const bucketMs = 60_000;
const windowMs = 60 * bucketMs;
const maxSessionsPerRegion = 1_000;

interface RegionCounts {
  busts: number;
  chars: number;
  sessions: Set<string>;
  lastSeenAt: number;
}

interface Bucket {
  start: number;
  turnsCompared: number;
  regions: Map<LintRegion, RegionCounts>;
}

export interface PrefixLintOptions {
  /** Sessions remembered (least recently seen forgotten first). */
  maxSessions?: number;
  /** Message digests remembered over all sessions: bounds memory however long the conversations are. */
  maxMessages?: number;
  onBust?: (region: LintRegion, estimatedTokens: number) => void;
}

/**
 * Cache lint: which part of clients' prompts keeps busting the provider's prompt cache. Each session's previous turn
 * is remembered as digests only (never content); the next turn within the cache's five-minute life is compared with
 * it, and the first part that differs is counted with the characters it made the provider write again. A turn after
 * the cache expired busts nothing and is not compared. This is the client's own request, before any rewrite: the
 * optimizer's rewrites are pinned and replay byte for byte (its replay stability is measured by the benchmark).
 */
export class PrefixLint {
  private readonly sessions = new Map<string, { shape: PromptShape; at: number }>();
  private storedMessages = 0;
  private buckets: Bucket[] = [];
  private readonly maxSessions: number;
  private readonly maxMessages: number;

  constructor(private readonly options: PrefixLintOptions = {}) {
    this.maxSessions = options.maxSessions ?? 10_000;
    // About 40 bytes a message (digest and length): some 10 MB at most.
    this.maxMessages = options.maxMessages ?? 250_000;
  }

  observe(sessionKey: string, request: Record<string, unknown>, now: number): void {
    const shape = promptShape(request);
    const previous = this.sessions.get(sessionKey);
    this.forget(sessionKey);
    this.sessions.set(sessionKey, { shape, at: now });
    this.storedMessages += shape.messages.length;
    for (const [oldest] of this.sessions) {
      if (this.sessions.size <= this.maxSessions && this.storedMessages <= this.maxMessages) break;
      this.forget(oldest);
    }
    if (!previous || now - previous.at >= providerCacheTtlMs) return;
    const bucket = this.bucketAt(now);
    bucket.turnsCompared += 1;
    const bust = firstBust(previous.shape, shape);
    if (!bust) return;
    const counts = bucket.regions.get(bust.region) ?? {
      busts: 0,
      chars: 0,
      sessions: new Set<string>(),
      lastSeenAt: now,
    };
    counts.busts += 1;
    counts.chars += bust.charsRewritten;
    counts.lastSeenAt = now;
    if (counts.sessions.size < maxSessionsPerRegion) counts.sessions.add(sessionKey);
    bucket.regions.set(bust.region, counts);
    this.options.onBust?.(bust.region, Math.round(bust.charsRewritten / 4));
  }

  view(now: number): CacheLintView {
    this.expire(now);
    const merged = new Map<LintRegion, RegionCounts>();
    let turnsCompared = 0;
    for (const bucket of this.buckets) {
      turnsCompared += bucket.turnsCompared;
      for (const [region, counts] of bucket.regions) {
        const into = merged.get(region) ?? { busts: 0, chars: 0, sessions: new Set<string>(), lastSeenAt: 0 };
        into.busts += counts.busts;
        into.chars += counts.chars;
        into.lastSeenAt = Math.max(into.lastSeenAt, counts.lastSeenAt);
        for (const session of counts.sessions) into.sessions.add(session);
        merged.set(region, into);
      }
    }
    const regions = [...merged]
      .map(([region, counts]) => ({
        region,
        busts: counts.busts,
        sessions: counts.sessions.size,
        estimatedTokensRewritten: Math.round(counts.chars / 4),
        lastSeenAt: isoInstant(counts.lastSeenAt),
        hint: hints[region],
      }))
      .sort((a, b) => b.estimatedTokensRewritten - a.estimatedTokensRewritten || (a.region < b.region ? -1 : 1));
    return { windowSeconds: windowMs / 1000, turnsCompared, regions };
  }

  private forget(sessionKey: string): void {
    const entry = this.sessions.get(sessionKey);
    if (!entry) return;
    this.sessions.delete(sessionKey);
    this.storedMessages -= entry.shape.messages.length;
  }

  private bucketAt(now: number): Bucket {
    this.expire(now);
    const start = now - (now % bucketMs);
    const last = this.buckets.at(-1);
    // A clock stepping back lands in the newest bucket rather than out of order.
    if (last && last.start >= start) return last;
    const bucket: Bucket = { start, turnsCompared: 0, regions: new Map() };
    this.buckets.push(bucket);
    return bucket;
  }

  private expire(now: number): void {
    const oldest = now - windowMs;
    if (this.buckets.length > 0 && this.buckets[0].start + bucketMs <= oldest)
      this.buckets = this.buckets.filter((bucket) => bucket.start + bucketMs > oldest);
  }
}
