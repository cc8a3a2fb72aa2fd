import type { SpendRecord } from '../../metering/spend-record.js';

/** `GET /admin/spend`: requests, tokens and cost per attributed user over the in-memory ring, busiest first. */
export function summarizeRing(records: readonly SpendRecord[]) {
  const byIdentity = new Map<
    string,
    {
      user: string | null;
      keyId: string | null;
      team: string | null;
      requests: number;
      totalTokens: number;
      costUsd: number;
    }
  >();
  for (const record of records) {
    if (record.outcome === 'rejected' || (!record.user && !record.keyId)) continue;
    const keyId = record.user ? null : record.keyId;
    const identity = `${record.user ?? ''}\u0000${keyId ?? ''}`;
    const entry = byIdentity.get(identity) ?? {
      user: record.user,
      keyId,
      team: record.team,
      requests: 0,
      totalTokens: 0,
      costUsd: 0,
    };
    entry.requests += 1;
    entry.totalTokens += record.totalTokens;
    entry.costUsd += record.costUsd;
    byIdentity.set(identity, entry);
  }
  const users = [...byIdentity.values()]
    .map((entry) => ({ ...entry, costUsd: Math.round(entry.costUsd * 1e10) / 1e10 }))
    .sort((a, b) => b.requests - a.requests || b.totalTokens - a.totalTokens);
  return { records: records.length, since: records[0]?.ts ?? null, users };
}
