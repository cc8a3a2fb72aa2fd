import type { RecordRequest } from '@gw/contracts';
import type { Clock, Db, Keyring } from '@gw/platform';
import type { RecordBody } from './record.schema.js';

/** What content may be written right now: a keyring (GW_CONTENT_KEY) and a content mode other than `off`. */
export interface ContentGate {
  keyring(): Keyring | null;
  contentMode(): string;
}

/**
 * Appends the gateway-shaped spend record for a recorded call when GW_SPEND_DB_URL is set.
 * The spend table belongs to the gateway; until platform exposes its writer, the optimizer wires `noSpendAppender`.
 */
export interface SpendAppender {
  append(record: RecordRequest, ts: Date): Promise<void>;
}

export const noSpendAppender: SpendAppender = { append: async () => undefined };

/**
 * Trace rows for POST /v1/record, idempotent by id (a retry upserts). Content is sealed with AES-256-GCM bound to
 * the row id and written only when the content gate allows; otherwise the row is metadata only.
 */
export class RecordStore {
  rowsSinceStart = 0;

  constructor(
    readonly db: Db,
    private readonly content: ContentGate,
    private readonly clock: Clock,
    private readonly spend: SpendAppender = noSpendAppender,
  ) {}

  async upsert(record: RecordBody): Promise<void> {
    const ts = new Date(record.ts ?? this.clock.now());
    const keyring = this.content.keyring();
    const sealed =
      record.content && keyring && this.content.contentMode() !== 'off'
        ? keyring.encrypt(JSON.stringify(record.content), `trace:${record.id}`)
        : null;
    const { rows } = await this.db.query<{ inserted: boolean }>(
      `INSERT INTO optimizer_traces (id, ts, endpoint, method, status, model, provider, prompt_tokens, completion_tokens, total_tokens,
         duration_ms, user_id, team_id, session_id, decisions, content_sealed, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (id) DO UPDATE SET ts = EXCLUDED.ts, endpoint = EXCLUDED.endpoint, method = EXCLUDED.method,
         status = EXCLUDED.status, model = EXCLUDED.model, provider = EXCLUDED.provider, prompt_tokens = EXCLUDED.prompt_tokens,
         completion_tokens = EXCLUDED.completion_tokens, total_tokens = EXCLUDED.total_tokens, duration_ms = EXCLUDED.duration_ms,
         user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id, session_id = EXCLUDED.session_id, decisions = EXCLUDED.decisions,
         content_sealed = EXCLUDED.content_sealed, recorded_at = EXCLUDED.recorded_at
       RETURNING (xmax = 0) AS inserted`,
      [
        record.id,
        ts,
        record.endpoint ?? null,
        record.method ?? null,
        record.status ?? null,
        record.model ?? null,
        record.provider ?? null,
        record.promptTokens ?? null,
        record.completionTokens ?? null,
        record.totalTokens ?? null,
        record.durationMs ?? null,
        record.attribution?.user ?? null,
        record.attribution?.team ?? null,
        record.attribution?.sessionId ?? null,
        JSON.stringify(
          (record.decisions ?? []).map((decision) => ({
            kind: decision.kind,
            estimatedTokensSaved: decision.estimatedTokensSaved ?? 0,
          })),
        ),
        sealed,
        new Date(this.clock.now()),
      ],
    );
    // A retry updates the row in place: count it and append its spend record only the first time.
    if (rows[0]?.inserted !== true) return;
    this.rowsSinceStart += 1;
    await this.spend.append(record, ts);
  }
}
