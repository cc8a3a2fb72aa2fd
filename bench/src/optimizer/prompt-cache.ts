import { createHash } from 'node:crypto';
import type { PromptUnit } from './prompt-units.js';

/** Prompt-cache prices relative to the input price: cached reads 0.1×, cache writes 1.25×. */
export const cacheReadMultiplier = 0.1;
export const cacheWriteMultiplier = 1.25;
/** The provider keeps a cached prefix for five minutes after its last use. */
export const cacheTtlMs = 5 * 60_000;

export interface Bill {
  readonly readTokens: number;
  readonly writeTokens: number;
}

/** Input-token units of a bill: what it costs relative to sending the same tokens uncached at list price. */
export function billUnits(bill: Bill): number {
  return bill.readTokens * cacheReadMultiplier + bill.writeTokens * cacheWriteMultiplier;
}

/**
 * One session's prompt cache as the provider keeps it: every prefix it has seen, by a hash chained over the units
 * (so a prefix is identified by all of its bytes), each alive until five minutes after it was last sent. A request is
 * billed like the provider bills it: its longest live previously-sent prefix is read from the cache, the rest is
 * written to it. Unit granularity is a message: a changed message and everything after it are written again.
 */
export class PromptCache {
  private readonly expiresAt = new Map<string, number>();

  constructor(private readonly ttlMs = cacheTtlMs) {}

  bill(units: readonly PromptUnit[], now: number): Bill {
    let chain = '';
    let readTokens = 0;
    let writeTokens = 0;
    let reading = true;
    const seen: string[] = [];
    for (const unit of units) {
      chain = createHash('sha256').update(chain).update(unit.hash).digest('base64url');
      seen.push(chain);
      if (reading && (this.expiresAt.get(chain) ?? -Infinity) > now) readTokens += unit.tokens;
      else {
        reading = false;
        writeTokens += unit.tokens;
      }
    }
    // Read or written, every prefix of this request is now cached for another TTL.
    for (const prefix of seen) this.expiresAt.set(prefix, now + this.ttlMs);
    return { readTokens, writeTokens };
  }
}
