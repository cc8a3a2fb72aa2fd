import { hash } from 'node:crypto';

/** A uniform number in (0, 1) from a key and a target id: 52 bits of SHA-256, never exactly 0 or 1. */
function unitHash(key: string, id: string): number {
  const digest = hash('sha256', `${key}\u0000${id}`, 'buffer');
  const high = digest.readUInt32BE(0) >>> 6; // 26 bits
  const low = digest.readUInt32BE(4) >>> 6; // 26 bits
  return (high * 2 ** 26 + low + 0.5) / 2 ** 52;
}

/**
 * Weighted rendezvous (highest random weight) hashing: each candidate scores `-weight / ln(u)` for a per-(key,
 * candidate) uniform `u`; the highest score wins. A key's winner depends only on its own scores, so adding a candidate
 * of weight w to a total W moves exactly the w/(W+w) share of keys that now prefer it, and changing one weight moves
 * only keys to or from that candidate.
 */
export function rendezvousPick<Candidate extends { id: string; weight: number }>(
  key: string,
  candidates: readonly Candidate[],
): Candidate | undefined {
  let best: Candidate | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const candidate of candidates) {
    if (!(candidate.weight > 0)) continue;
    const score = -candidate.weight / Math.log(unitHash(key, candidate.id));
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}
