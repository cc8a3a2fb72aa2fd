import { optimizerConfigSchema, type OptimizerConfig } from '@gw/contracts';
import type { Clock, Db, Queryable } from '@gw/platform';
import { nextActivation } from './activation.js';

/** Replicas re-read shared config this often. */
export const settingsRefreshMs = 15_000;

/**
 * Runtime settings. With a durable store the config lives in one shared row, so every replica
 * converges within one refresh; without one it is this replica's memory. PUT replaces the config, except the
 * activation instant, which is immutable once set and carried over when omitted.
 */
export class SettingsStore {
  private config: OptimizerConfig = {};
  private db: Db | null = null;

  constructor(private readonly clock: Clock) {}

  current(): OptimizerConfig {
    return this.config;
  }

  /** Point at a (new) shared store and load from it. */
  async attach(db: Db | null): Promise<void> {
    this.db = db;
    await this.refresh();
  }

  /** Re-read the shared row; keeps the last good config when the store is unreachable. */
  async refresh(): Promise<void> {
    if (!this.db) return;
    try {
      const stored = await readStored(this.db);
      if (stored) this.config = stored;
    } catch {
      // The next refresh retries; serving the last good config is the fail-open choice.
    }
  }

  async replace(requested: OptimizerConfig): Promise<OptimizerConfig> {
    const db = this.db;
    if (!db) {
      this.config = this.merge(this.config, requested);
      return this.config;
    }
    this.config = await db.transaction(async (tx) => {
      // The row lock makes "first activation" a single decision across replicas.
      const stored = (await readStored(tx, true)) ?? this.config;
      const next = this.merge(stored, requested);
      await tx.query(
        `INSERT INTO optimizer_settings (id, config, updated_at) VALUES (1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, updated_at = EXCLUDED.updated_at`,
        [JSON.stringify(next), new Date(this.clock.now())],
      );
      return next;
    });
    return this.config;
  }

  private merge(stored: OptimizerConfig, requested: OptimizerConfig): OptimizerConfig {
    const activateAt = nextActivation(
      stored.rollouts?.agentContinuationV1ActivateAt ?? undefined,
      requested.rollouts?.agentContinuationV1ActivateAt,
      this.clock.now(),
    );
    const { rollouts: _rollouts, ...rest } = requested;
    return {
      ...rest,
      ...(activateAt !== undefined ? { rollouts: { agentContinuationV1ActivateAt: activateAt } } : {}),
    };
  }
}

async function readStored(db: Queryable, lock = false): Promise<OptimizerConfig | null> {
  const { rows } = await db.query<{ config: unknown }>(
    `SELECT config FROM optimizer_settings WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  );
  const row = rows[0];
  if (!row) return null;
  const raw = typeof row.config === 'string' ? (JSON.parse(row.config) as unknown) : row.config;
  const parsed = optimizerConfigSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
