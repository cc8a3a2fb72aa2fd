import type { Clock, Db, Keyring, Queryable } from '@gw/platform';
import { isoOrNull } from '@gw/platform';
import type {
  DailyModelTotal,
  ReportWindow,
  UsageReportVendor,
} from '../../../providers/usage-reports/usage-report.types.js';
import type { ConnectorView, SpendConnectorsPut } from './spend-connector.schema.js';

interface ConnectorRow {
  vendor: UsageReportVendor;
  admin_key_sealed: string;
  key_hint: string;
  base_url: string | null;
  updated_by: string;
  updated_at: Date | string;
  last_sync_at: Date | string | null;
  last_sync_outcome: 'synced' | 'failed' | null;
  last_sync_rows: number | null;
  last_sync_error: string | null;
}

export const vendorDefaultBaseUrl: Readonly<Record<UsageReportVendor, string>> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
};
const vendors: readonly UsageReportVendor[] = ['openai', 'anthropic'];
const sealContext = (vendor: UsageReportVendor) => `spend-connector:${vendor}`;

export interface ConnectorCredentials {
  vendor: UsageReportVendor;
  adminKey: string;
  baseUrl: string;
}

/** Spend connectors' write-only admin keys (sealed under the keystore key) and the vendor totals they pulled. */
export class SpendConnectorStore {
  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {}

  private async rows(queryable: Queryable = this.db): Promise<Map<UsageReportVendor, ConnectorRow>> {
    const { rows } = await queryable.query<ConnectorRow>('SELECT * FROM gw_spend_connectors');
    return new Map(rows.map((row) => [row.vendor, row]));
  }

  /** The redacted state of both vendors' connectors, configured or not. */
  async views(): Promise<ConnectorView[]> {
    const rows = await this.rows();
    return vendors.map((vendor) => {
      const row = rows.get(vendor);
      return {
        vendor,
        configured: row !== undefined,
        keyHint: row ? row.key_hint : null,
        baseUrl: row?.base_url ?? vendorDefaultBaseUrl[vendor],
        updatedAt: row ? isoOrNull(row.updated_at) : null,
        updatedBy: row?.updated_by ?? null,
        lastSync:
          row?.last_sync_at && row.last_sync_outcome
            ? {
                at: isoOrNull(row.last_sync_at) as string,
                outcome: row.last_sync_outcome,
                rows: row.last_sync_rows,
                error: row.last_sync_error,
              }
            : null,
      };
    });
  }

  /** Apply a validated PUT: omitted vendors unchanged, `null`/`{}` removes, `adminKey` sets or rotates. */
  async update(changes: SpendConnectorsPut, actor: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.db.transaction(async (tx) => {
      const current = await this.rows(tx);
      for (const vendor of vendors) {
        const change = changes[vendor];
        if (change === undefined) continue;
        if (change === null || (change.adminKey === undefined && change.baseUrl === undefined)) {
          await tx.query('DELETE FROM gw_spend_connectors WHERE vendor = $1', [vendor]);
          continue;
        }
        const existing = current.get(vendor);
        const baseUrl = change.baseUrl === undefined ? (existing?.base_url ?? null) : change.baseUrl;
        const sealed =
          change.adminKey === undefined
            ? (existing?.admin_key_sealed as string)
            : this.keyring.encrypt(change.adminKey, sealContext(vendor));
        const hint = change.adminKey === undefined ? (existing?.key_hint as string) : `…${change.adminKey.slice(-4)}`;
        await tx.query(
          `INSERT INTO gw_spend_connectors (vendor, admin_key_sealed, key_hint, base_url, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (vendor) DO UPDATE SET admin_key_sealed = EXCLUDED.admin_key_sealed, key_hint = EXCLUDED.key_hint, base_url = EXCLUDED.base_url, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
          [vendor, sealed, hint, baseUrl, actor, now],
        );
      }
    });
  }

  async isConfigured(vendor: UsageReportVendor): Promise<boolean> {
    return (await this.rows()).has(vendor);
  }

  /** The decrypted credential for a sync; null when the vendor has no connector. Throws when it cannot be unsealed. */
  async credentials(vendor: UsageReportVendor): Promise<ConnectorCredentials | null> {
    const row = (await this.rows()).get(vendor);
    if (!row) return null;
    return {
      vendor,
      adminKey: this.keyring.decryptString(row.admin_key_sealed, sealContext(vendor)),
      baseUrl: row.base_url ?? vendorDefaultBaseUrl[vendor],
    };
  }

  /**
   * One transaction: the window's totals replace what an earlier sync stored for it, or nothing changes. False when
   * the connector was removed while its reports were read (nothing is stored for a removed connector).
   */
  async replaceTotals(
    vendor: UsageReportVendor,
    window: ReportWindow,
    totals: readonly DailyModelTotal[],
  ): Promise<boolean> {
    const now = new Date(this.clock.now());
    return this.db.transaction(async (tx) => {
      // Two syncs of one vendor (two administrators, two replicas) take turns on the connector's row instead of
      // interleaving their deletes and inserts.
      const { rows } = await tx.query('SELECT vendor FROM gw_spend_connectors WHERE vendor = $1 FOR UPDATE', [vendor]);
      if (rows.length === 0) return false;
      await tx.query('DELETE FROM gw_external_spend WHERE vendor = $1 AND day >= $2::date AND day < $3::date', [
        vendor,
        window.startDay,
        window.endDay,
      ]);
      for (const total of totals) {
        await tx.query(
          `INSERT INTO gw_external_spend (vendor, day, model, requests, input_tokens, output_tokens, cached_input_tokens, cost_usd, synced_at) VALUES ($1, $2::date, $3, $4, $5, $6, $7, $8::numeric / 1000000, $9)`,
          [
            vendor,
            total.day,
            total.model,
            total.requests,
            total.inputTokens,
            total.outputTokens,
            total.cachedInputTokens,
            total.costMicros,
            now,
          ],
        );
      }
      await tx.query(
        'UPDATE gw_spend_connectors SET last_sync_at = $2, last_sync_outcome = $3, last_sync_rows = $4, last_sync_error = NULL WHERE vendor = $1',
        [vendor, now, 'synced', totals.length],
      );
      return true;
    });
  }

  /** A failed sync leaves the stored totals as they were and says why on the connector. */
  async recordFailure(vendor: UsageReportVendor, message: string): Promise<void> {
    await this.db.query(
      'UPDATE gw_spend_connectors SET last_sync_at = $2, last_sync_outcome = $3, last_sync_rows = NULL, last_sync_error = $4 WHERE vendor = $1',
      [vendor, new Date(this.clock.now()), 'failed', message],
    );
  }
}
