import { isoInstant } from '@gw/platform';
/** One day of one model as a vendor's organisation reports would show it. */
export interface VendorUsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  costUsd: number;
}

/** How the simulated report service misbehaves, set by a test. */
export interface UsageReportControls {
  /** The next N report requests (to `path` only, when given) answer 429 with this `retry-after` (seconds). */
  rateLimit(count: number, retryAfterSeconds: number, path?: string): void;
  /** Every page says `has_more` with a fresh cursor, forever. */
  paginateForever(on: boolean): void;
  /** Replace the days the reports cover. */
  setDays(days: VendorUsageDay[]): void;
}

const dayMs = 86_400_000;

/** The UTC days in `[startMs, endMs)`, as the real reports bucket them (empty days included). */
export function daysBetween(startMs: number, endMs: number): string[] {
  const days: string[] = [];
  for (let at = Math.floor(startMs / dayMs) * dayMs; at < endMs; at += dayMs) days.push(isoInstant(at).slice(0, 10));
  return days;
}

/** Bucket pages as both vendors page them: `limit` buckets a page, an opaque `next_page` cursor, `has_more`. */
export function pageOf<Bucket>(
  buckets: Bucket[],
  query: URLSearchParams,
  forever: boolean,
  defaultLimit: number,
  maxLimit: number,
): { data: Bucket[]; has_more: boolean; next_page: string | null } {
  const limit = Math.min(Math.max(Number(query.get('limit') ?? defaultLimit) || defaultLimit, 1), maxLimit);
  const cursor = query.get('page');
  const offset = cursor ? Number(Buffer.from(cursor.replace(/^page_/, ''), 'base64url').toString('utf8')) || 0 : 0;
  const data = buckets.slice(offset, offset + limit);
  const next = offset + limit;
  if (forever)
    return { data, has_more: true, next_page: `page_${Buffer.from(String(next), 'utf8').toString('base64url')}` };
  const more = next < buckets.length;
  return {
    data,
    has_more: more,
    next_page: more ? `page_${Buffer.from(String(next), 'utf8').toString('base64url')}` : null,
  };
}
