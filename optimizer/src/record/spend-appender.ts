import type { RecordRequest } from '@gw/contracts';
import type { Db } from '@gw/platform';
import type { SpendAppender } from './record-store.js';
import { int32Max } from './record.schema.js';

/**
 * Rule 9: with `GW_SPEND_DB_URL` set, `/v1/record` also appends a spend record to the gateway's
 * `gw_spend` table (same database), content-free, so adapters without a gateway still meter. The row id is derived
 * from the record id, so a retried record never counts twice. Nothing is written until the gateway has created the
 * table (checked once per process, then remembered).
 */
export class SqlSpendAppender implements SpendAppender {
  private tableReady: boolean | null = null;

  constructor(private readonly db: Db) {}

  private async ready(): Promise<boolean> {
    if (this.tableReady) return true;
    const { rows } = await this.db.query<{ present: string | null }>("SELECT to_regclass('gw_spend')::text AS present");
    this.tableReady = rows[0]?.present ? true : null;
    return this.tableReady === true;
  }

  async append(record: RecordRequest, ts: Date): Promise<void> {
    if (!(await this.ready())) return;
    const prompt = record.promptTokens ?? 0;
    const completion = record.completionTokens ?? 0;
    const status = record.status ?? 200;
    // Each count fits gw_spend's integer columns (the schema bounds it); sums of them are capped to fit as well.
    const tokensSaved = Math.min(
      int32Max,
      (record.decisions ?? []).reduce(
        (sum, decision) => sum + Math.max(0, Math.round(decision.estimatedTokensSaved ?? 0)),
        0,
      ),
    );
    const attribution = record.attribution?.sessionId
      ? { session: record.attribution.sessionId, source: 'optimizer-record' }
      : { source: 'optimizer-record' };
    await this.db.query(
      `INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms, tokens_saved, billing_mode, user_id, team, attribution)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'api-key', $14, $15, $16) ON CONFLICT (id) DO NOTHING`,
      [
        `rec_${record.id}`,
        ts,
        record.endpoint ?? '/v1/record',
        record.method ?? 'POST',
        status,
        status >= 200 && status < 300 ? 'success' : 'error',
        record.provider ?? null,
        record.model ?? null,
        prompt,
        completion,
        record.totalTokens ?? Math.min(int32Max, prompt + completion),
        Math.round(record.durationMs ?? 0),
        tokensSaved,
        record.attribution?.user ?? null,
        record.attribution?.team ?? null,
        JSON.stringify(attribution),
      ],
    );
  }
}
